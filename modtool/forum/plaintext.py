"""Posts copied from the forum by hand, as plain text.

The format
==========

A file is a sequence of posts. Each post starts with a *header line*::

    #12 饺子君 2026-11-03 20:15
    12楼 饺子君 2026-11-03 20:15:09
    12# 饺子君 2026-11-3 20:15
    ＃１２ | 饺子君 | 2026/11/3 20:15

- floor: ``#N``, ``N#``, ``N楼`` (``＃`` and full-width digits too), or
  ``楼主`` / ``沙发`` / ``板凳`` / ``地板`` for floors 1-4;
- account: everything between floor and time (spaces allowed), optionally set
  off by ``|``;
- time: ``Y-M-D H:M`` with optional ``:S``, zero padding optional, ``/`` or
  ``.`` or 年月日 as date separators, read in the game's time zone. A word
  ``发表于`` before the time is allowed.

Right after the header, in any order and each at most once:

- ``回复 #8`` / ``回复 8楼`` / ``回复 8#``, optionally followed by the account
  replied to: the post replies to that floor (``Post.reply_to``); the line is
  not part of the body;
- ``本帖最后由 NAME 于 TIME 编辑``: the edit marker (``Post.edited``).

The body is every following line up to the next header. Lines starting with
``> `` (or a lone ``>``; ``＞`` too) are quoted text: each run of them becomes
one ``[quote]…[/quote]`` block. When the first quoted line reads
``NAME 发表于 TIME`` (what Discuz puts at the top of a quote), ``reply_to``
gets that account and time. Blank lines around the body and separator lines
(``---``, ``===``, ``***``) at its end are dropped. Text before the first
header is reported and ignored. A body line that looks like a header starts a
new post: quote it with ``> `` to keep it in the body.

A browser copy of a Discuz! X3 thread page is also understood when each post
begins with these lines (blank lines between them are fine)::

    饺子君                          饺子君                12#
    发表于 2026-11-3 20:15:02       12#                   饺子君
    12#                             发表于 2026-11-3 …    发表于 2026-11-3 20:15:02

The ``发表于`` line may go on with ``| 只看该作者``; the floor may also be
``楼主`` / ``沙发`` / ``板凳`` / ``地板``. The account must come before the
``发表于`` line. Buttons copied along (``回复``, ``举报``, ``只看该作者``,
``电梯直达``, ``评分`` …) are dropped from the start and the end of the body.
A quote of a browser copy lost its markup, but keeps the line Discuz puts at
its top: a body line ``NAME 发表于 TIME`` starts a quote (in either format),
which runs to the first blank line, at most three lines (what Discuz quotes),
and becomes one ``[quote]…[/quote]`` block as if it had been quoted with
``> ``. Text before the first header (a thread title, ``查看: N|回复: N``) is
reported as a notice: it never refuses an import.
"""

from __future__ import annotations

import re
from datetime import tzinfo

from modtool.forum.bounds import bounded_floor
from modtool.forum.common import reply_ref
from modtool.base.times import TIME_PATTERN, time_from_match
from modtool.forum.posts import Post, ReplyRef
from modtool.base.problems import Problem

_D = "[0-9０-９]"
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u00ad\u180e\u034f]")
_FLOOR = rf"(?:[#＃]\s*(?P<f1>{_D}+)|(?P<f2>{_D}+)\s*(?:楼|[#＃])|(?P<f3>楼主|沙发|板凳|地板))"
_SEP = r"(?:\s*[|｜]\s*|\s+)"
# Linear in the line (tests/bench/bench_hostile_posts.py): a name starts and
# ends with a visible character, so a run of spaces is never tried as part of
# it in every split; the loose header reads one digit of a "#N" floor (the
# same lines as "#N+", whose every split of a long N would be tried).
_HEADER = re.compile(rf"{_FLOOR}{_SEP}(?P<name>\S(?:.*?\S)??){_SEP}(?:发表于\s*)?{TIME_PATTERN}\s*\Z")
_HEADER_LOOSE = re.compile(rf"(?:[#＃]\s*{_D}|{_D}+\s*(?:楼|[#＃]))\s*\S.*{_D}{{1,2}}\s*[:：]\s*{_D}{{2}}")
_FLOOR_LINE = re.compile(rf"{_FLOOR}\s*\Z")
_POSTED = re.compile(rf"发表于\s*(?:{TIME_PATTERN})?(?P<rest>.*)\Z")
_RELATIVE = re.compile(r"前|昨天|前天|[|｜]")
_REPLY = re.compile(rf"回复\s*(?:[#＃]\s*(?P<r1>{_D}+)|(?P<r2>{_D}+)\s*(?:楼|[#＃]))\s*[@＠]?(?P<name>(?:.*\S)?)\s*\Z")
_EDITED = re.compile(r"本帖最后由\s*.+?于\s*" + TIME_PATTERN + r"\s*编辑\Z")
_QUOTE_LINE = re.compile(r"[>＞](?: |　|\Z)")
# What a quote of a browser copy starts with: the line Discuz renders at the
# top of a quote block ("NAME 发表于 TIME"), its markup lost in the copy.
_QUOTE_HEAD = re.compile(rf"(?P<name>\S(?:.*?\S)??)\s+发表于\s*{TIME_PATTERN}\s*\Z")
_QUOTE_LINES = 3  # Discuz quotes at most three lines of the quoted post
_SEPARATOR = re.compile(r"(?:-{3,}|={3,}|\*{3,}|_{3,}|—{2,})\Z")
_CHROME = frozenset(
    "只看该作者 回复 举报 回复举报 评分 使用道具 电梯直达 显示全部楼层 倒序浏览 阅读模式 "
    "分享 收藏 支持 反对 点评 淘帖 打印 上一主题 下一主题 返回列表 发消息 加好友".split()
)
FLOOR_LABELS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_MAX_NAME = 40


def _clean(line: str) -> str:
    """A line as used for recognising headers: no invisibles, plain spaces."""
    if not line.isascii():
        line = _INVISIBLE.sub("", line).replace("\u3000", " ").replace("\xa0", " ")
    return line.strip()


def _floor_of(m: re.Match) -> int | None:
    text = m.group("f1") or m.group("f2")
    if text:
        try:
            return int(text)
        except ValueError:
            return None
    return FLOOR_LABELS.get(m.group("f3") or "")


def _is_chrome(clean: str) -> bool:
    """A button or link label copied along with a browser copy."""
    if clean.replace(" ", "").replace("|", "") in _CHROME:
        return True
    parts = clean.replace("|", " ").split()
    return bool(parts) and all(part in _CHROME for part in parts)


class _Head:
    __slots__ = ("start", "end", "line", "floor", "name", "time", "problem", "browser")

    def __init__(self, start, end, line, floor, name, time, problem=None, browser=False):
        self.start = start  # first line index of the header block (0-based)
        self.end = end  # last line index of the header block
        self.line = line  # 1-based line for messages
        self.floor = floor
        self.name = name
        self.time = time
        self.problem = problem
        self.browser = browser


def read_text(text: str, source: str, tz: tzinfo, progress=None) -> tuple[list[Post], list[Problem]]:
    problems: list[Problem] = []
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    clean = [_clean(x) for x in lines]
    heads = _find_heads(lines, clean, tz, problems, source)
    if not heads:
        problems.append(
            Problem(
                source,
                "无法识别文件格式：不是 Discuz! 接口 JSON，不是保存的帖子网页，也没有找到纯文本的楼层标题行"
                  "（例如「#12 饺子君 2026-11-03 20:15」）",
            )
        )
        return [], problems
    # text before the first header
    for i in range(heads[0].start):
        if clean[i] and not _SEPARATOR.match(clean[i]):
            # a thread title, "查看: N|回复: N": told, never a reason to refuse the import
            problems.append(Problem(source, "第一个楼层标题之前的文字已忽略：「{clean}」", line=i + 1,
                                    notice=True, clean=_short(clean[i])))
            break
    posts: list[Post] = []
    seen: dict[tuple, list[str]] = {}  # (account, minute) -> body lines, for quotes of a browser copy
    total = len(heads)
    for n, head in enumerate(heads):
        stop = heads[n + 1].start if n + 1 < len(heads) else len(lines)
        if head.problem:
            problems.append(Problem(source, "{problem}，该楼已跳过", line=head.line, floor=head.floor, problem=head.problem))
            continue
        post = _build(head, lines, clean, head.end + 1, stop, source, seen)
        posts.append(post)
        if head.time is not None:  # what a later quote of this post may show (its own lines, no quotes)
            own = _without_quotes(post.body) if "[quote]" in post.body else post.body
            when = head.time
            seen[(head.name, (when.year, when.month, when.day, when.hour, when.minute))] = [
                x for x in (_clean(y) for y in own.split("\n")) if x]
        if progress is not None and (n + 1) % 5000 == 0:
            progress(n + 1, total)
    if progress is not None:
        progress(total, total)
    posts.sort(key=lambda p: p.floor)
    return posts, problems


def _find_heads(lines, clean, tz, problems, source) -> list[_Head]:
    heads: list[_Head] = []
    last_end = -1
    i = 0
    n = len(lines)
    while i < n:
        c = clean[i]
        if not c:
            i += 1
            continue
        m = _HEADER.match(c)
        if m:
            floor = _floor_of(m)
            name = m.group("name").strip(" |｜")
            time = time_from_match(m, tz, 5)  # groups 1-4: f1, f2, f3, name
            problem = None
            if floor is None:
                problem = f"楼层号无法识别：「{_short(c)}」"
            elif time is None:
                problem = f"楼层标题中的时间无效：「{_short(c)}」"
            heads.append(_Head(i, i, i + 1, floor, name, time, problem))
            last_end = i
            i += 1
            continue
        if c.startswith("发表于"):
            head = _browser_head(i, clean, last_end, tz)
            if head is not None:
                heads.append(head)
                last_end = head.end
                i = head.end + 1
                continue
        if _HEADER_LOOSE.match(c) and not _QUOTE_LINE.match(c):
            problems.append(Problem(source, "这一行像楼层标题但无法识别，已当作正文：「{c}」", line=i + 1, c=_short(c)))
        i += 1
    return heads


def _prev_nonblank(i: int, clean: list[str], floor_limit: int) -> int | None:
    j = i - 1
    while j > floor_limit:
        if clean[j] and not _is_chrome(clean[j]):
            return j
        j -= 1
    return None


def _next_nonblank(i: int, clean: list[str]) -> int | None:
    j = i + 1
    while j < len(clean):
        if clean[j] and not _is_chrome(clean[j]):
            return j
        j += 1
    return None


def _browser_head(i: int, clean: list[str], last_end: int, tz) -> _Head | None:
    m = _POSTED.match(clean[i])
    if not m:
        return None
    if not m.group(1) and not _RELATIVE.search(m.group("rest")):
        return None  # "发表于" starting an ordinary sentence
    j1 = _prev_nonblank(i, clean, last_end)
    if j1 is None:
        return None
    floor_idx = None
    name_idx = None
    if _FLOOR_LINE.match(clean[j1]):
        floor_idx = j1
        j2 = _prev_nonblank(j1, clean, last_end)
        if j2 is not None and _is_name(clean[j2]):
            name_idx = j2
    elif _is_name(clean[j1]):
        name_idx = j1
        j2 = _prev_nonblank(j1, clean, last_end)
        if j2 is not None and _FLOOR_LINE.match(clean[j2]):
            floor_idx = j2
    if name_idx is None:
        return None
    end = i
    if floor_idx is None:
        k = _next_nonblank(i, clean)
        if k is None or not _FLOOR_LINE.match(clean[k]):
            return None
        floor_idx = k
        end = k
    fm = _FLOOR_LINE.match(clean[floor_idx])
    floor = _floor_of(fm)
    start = min(name_idx, floor_idx)
    time = time_from_match(m, tz) if m.group(1) else None
    problem = None
    if floor is None:
        problem = f"楼层号无法识别：「{_short(clean[floor_idx])}」"
    elif time is None:
        problem = f"发帖时间无法识别或只有相对时间：「{_short(clean[i])}」"
    return _Head(start, end, start + 1, floor, clean[name_idx], time, problem, browser=True)


def _is_name(c: str) -> bool:
    return (
        0 < len(c) <= _MAX_NAME
        and not c.startswith("发表于")
        and not _QUOTE_LINE.match(c)
        and not _SEPARATOR.match(c)
        and not _HEADER.match(c)
    )


def _build(head: _Head, lines, clean, start: int, stop: int, source: str, seen: dict) -> Post:
    reply_floor = None
    reply_name = None
    edited = None
    i = start
    # meta lines right after the header (and copied buttons of a browser copy)
    while i < stop:
        c = clean[i]
        if not c or (head.browser and _is_chrome(c)):
            i += 1
            continue
        if reply_floor is None:
            rm = _REPLY.match(c)
            if rm:
                try:
                    reply_floor = bounded_floor(int(rm.group("r1") or rm.group("r2")))  # no floor out of bounds
                except ValueError:
                    reply_floor = None
                reply_name = rm.group("name") or None
                i += 1
                continue
        if edited is None and _EDITED.match(c):
            edited = c
            i += 1
            continue
        break
    end = stop
    while end > i and (not clean[end - 1] or _SEPARATOR.match(clean[end - 1]) or (head.browser and _is_chrome(clean[end - 1]))):
        end -= 1
    out: list[str] = []
    quote: list[str] | None = None
    k = i
    while k < end:
        raw = lines[k]
        c = clean[k]
        if quote is None and "发表于" in c and not _QUOTE_LINE.match(c):
            qm = _QUOTE_HEAD.match(c)
            if qm:
                k = _copied_quote(lines, clean, k, end, out, seen.get((qm.group("name"), _minute(qm))))
                continue
        k += 1
        if c and _QUOTE_LINE.match(c):
            # drop everything up to and including the marker and one space
            body = raw[min(x for x in (raw.find(">"), raw.find("＞")) if x >= 0) + 1 :]
            if body[:1] in (" ", "\u3000"):
                body = body[1:]
            if quote is None:
                quote = []
            quote.append(body.rstrip())
            continue
        if quote is not None:
            out.append("[quote]" + "\n".join(quote) + "[/quote]")
            quote = None
        out.append(raw.rstrip())
    if quote is not None:
        out.append("[quote]" + "\n".join(quote) + "[/quote]")
    body = "\n".join(out).strip("\n")
    ref = reply_ref(body) if "[" in body else None
    if reply_floor is not None:
        ref = ReplyRef(
            pid=ref.pid if ref else None,
            floor=reply_floor,
            author=reply_name or (ref.author if ref else None),
            time=ref.time if ref else None,
        )
    return Post(
        pid="",
        floor=head.floor,
        author=head.name,
        time=head.time,
        body=body,
        edited=edited,
        reply_to=ref,
        source=source,
        extra={"line": head.line},
    )


def _copied_quote(lines, clean, k: int, end: int, out: list[str], source_lines: list[str] | None) -> int:
    """A quote of a browser copy at line ``k`` (its "NAME 发表于 TIME" line) as one
    ``[quote]…[/quote]`` in ``out``; the index of the line after it.

    Discuz renders a quote as that line and at most three lines of the quoted
    post, and puts a line break after the quote block: the quote ends at the
    first blank line, at a line that starts another quote, or after three
    lines (M42-R5: a quoted vote is never the poster's). When the quoted post
    is in the same paste (``source_lines``: its body lines), the quote also
    ends at the first line that is not the next line of that post, so a reply
    written right under the quote (no blank line) stays the poster's own."""
    quoted = [lines[k].strip()]
    j = k + 1
    while j < end and clean[j] and len(quoted) <= _QUOTE_LINES and not _QUOTE_HEAD.match(clean[j]):
        if source_lines is not None and not _quotes_line(clean[j], source_lines, len(quoted) - 1):
            break
        quoted.append(lines[j].rstrip())
        j += 1
    out.append("[quote]" + "\n".join(quoted) + "[/quote]")
    while j < end and not clean[j]:  # the line break Discuz puts after a quote block
        j += 1
    return j


def _quotes_line(line: str, source_lines: list[str], n: int) -> bool:
    """Whether ``line`` is line ``n`` of the quoted post as Discuz quotes it
    (whole, or cut short, with or without a trailing "...")."""
    if n >= len(source_lines):
        return False
    cut = line.removesuffix("...").rstrip()
    return bool(cut) and source_lines[n].startswith(cut)


_QUOTE_BLOCK = re.compile(r"\[quote\].*?\[/quote\]", re.S)


def _without_quotes(body: str) -> str:
    """``body`` without its [quote]…[/quote] blocks. Only the part up to the last
    [/quote] is searched: a [quote] never closed after it would send the
    search to the end of the body once for each (quadratic)."""
    last = body.rfind("[/quote]")
    if last < 0:
        return body
    last += len("[/quote]")
    return _QUOTE_BLOCK.sub("", body[:last]) + body[last:]


def _minute(m: re.Match) -> tuple | None:
    """(y, m, d, H, M) of a matched time (a quote header shows the minute)."""
    try:
        return tuple(int(m.group(i)) for i in range(2, 7))
    except (TypeError, ValueError):
        return None


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def plaintext_help() -> str:
    """The plain-text format, in Chinese, for the README and ``--help``."""
    return PLAINTEXT_HELP


PLAINTEXT_HELP = """\
## 纯文本格式（手工复制的帖子）

无法保存接口 JSON 或网页时，可以把帖子复制成纯文本文件。每一楼以一行「楼层标题」开始：

    #12 饺子君 2026-11-03 20:15
    回复 #8
    > 饺子君 发表于 2026-11-03 19:02
    > 投票对象：饺子
    改票对象：包子
    改票理由：饺子凉了

- 楼层标题：楼层号、账号、发帖时间，用空格（或 `|`）隔开。楼层号可写成 `#12`、`12#`、`12楼`，
  全角 `＃` 和全角数字也可以；1～4 楼也可写 `楼主`、`沙发`、`板凳`、`地板`。
  账号中间可以有空格。时间写成 `年-月-日 时:分`，秒可省略，月日不必补零，
  也可用 `/`、`.` 或「2026年11月3日」；按本局设定的时区理解。
- 标题下面紧接着可以有：`回复 #8`（或 `回复 8楼`、`回复 8# 账号`）表示回复第 8 楼，
  这一行不算正文；`本帖最后由 某某 于 2026-11-03 20:40 编辑` 表示帖子被编辑过。
- 之后直到下一个楼层标题都是正文。以 `> ` 开头的行是引用，连续几行合成一个
  `[quote]…[/quote]`；引用第一行若是「账号 发表于 时间」，就记为回复了这一帖。
- 正文首尾的空行、结尾的分隔线（`---`、`===`）会去掉；第一个标题之前的文字会报告并忽略。
  正文里若有一行恰好像楼层标题，请在行首加 `> ` 把它变成引用。
- 也能读从浏览器直接复制的 Discuz! 帖子页：每楼开头依次是账号一行、
  `发表于 2026-11-3 20:15:02`（后面的「| 只看该作者」无妨）一行、楼层 `12#` 一行，
  楼层那一行也可以在账号之前或之后；账号必须在「发表于」之前。
  复制进来的「回复」「举报」「电梯直达」等按钮文字会去掉。这种复制丢失了引用的格式，但留下了
  引用开头的「账号 发表于 时间」一行：正文里这样的一行开始一段引用，直到下一个空行为止
  （最多三行，Discuz 只引用三行），和用 `> ` 写的引用一样不算作发帖人的投票，并记为回复了那一帖。
  帖子标题、「查看: 96|回复: 4」这类第一楼之前的文字只提示一下，不影响导入。
"""
