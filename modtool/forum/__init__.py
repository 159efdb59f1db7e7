"""Forum importers: a saved forum dump → ``Post`` values and problems.

Three formats are read, recognised by their content (never by file name):

1. Discuz! mobile API JSON (``Variables.postlist``): ``discuz_json``;
2. a saved Discuz! X3 thread page (HTML): ``discuz_html``;
3. plain text copied by hand, or a browser copy of a thread page:
   ``plaintext`` (its docstring and ``plaintext_help()`` define the format).

Rendered HTML is turned back into the Discuz BBCode the poster typed
(``html2bb``); ``reply_to`` comes from the first quote block or an old Discuz
6/7 reply marker. Bad input never raises: an unreadable file, an unknown
encoding or format, broken JSON, a Discuz error response or a post missing
what it needs each become a ``Problem`` in Chinese naming the file and, where
known, the line or floor; a control character a message quotes from the dump
is shown escaped. What a dump may hold (sizes, numbers, years) is bounded in
``modtool.forum.bounds``. Posts come back sorted by floor; a file holds one
page, merging pages is the caller's job.

Public API::

    read_dump(path, tz, progress=None, formats=None, brought=()) -> (posts, problems)
    read_dump_text(text, source, tz, progress=None, formats=None, brought=()) -> (posts, problems)
    read_dump_rows(path, tz, progress=None, formats=None, brought=()) -> (rows, problems)
    plaintext_help() -> str

``progress`` is an optional ``callable(done, total)``, called every 5,000
posts and once at the end. ``formats``: the ids of the formats the caller
reads (``modtool.forum.formats``: a game's ``GamePack.forum_formats``); a dump
in another is refused, naming them. None: every format read here and every
one in ``brought``. ``brought``: the formats the games bring (phpBB topics,
``modtool.forum.formats.DumpFormat``), detected before the core's; the caller
asks the games for them (``modtool.core.registry.dump_formats``): the forum
readers sit below the games and know none of them.

``read_dump_rows`` is ``read_dump`` for a bulk import (``modtool import``):
each post as a plain tuple (``post_row``), its time already formatted, so a
100,000-post Discuz JSON dump is read without a ``Post`` or a ``datetime``
for each. Same posts, same order, same problems.
"""

from __future__ import annotations

import codecs
import pathlib
import re
from datetime import datetime, tzinfo
from itertools import compress, islice
from operator import eq
from typing import Callable

from modtool.base.i18n import t
from modtool.forum.posts import Post, ReplyRef
from modtool.base.problems import Problem

__all__ = ["read_dump", "read_dump_text", "read_dump_rows", "post_row", "time_stamp", "plaintext_help", "detect_format"]

Progress = Callable[[int, int], None] | None

_HTML_POSTS = re.compile(r"""id\s*=\s*["']?(?:post_|postmessage_|pid)\d""", re.I)
_HTML_DOC = re.compile(r"<\s*(?:!doctype\s+html|html[\s>]|body[\s>]|head[\s>]|div[\s>]|table[\s>])", re.I)
_DECLARED = re.compile(rb"""(?:charset\s*=\s*["']?|"Charset"\s*:\s*")([A-Za-z0-9_-]+)""", re.I)
_CHARSETS = {"gbk": "gb18030", "gb2312": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs", "big5-hkscs": "big5hkscs"}


def read_dump(path: pathlib.Path, tz: tzinfo, progress: Progress = None,
              formats=None, brought=()) -> tuple[list[Post], list[Problem]]:
    """Read one saved forum dump (one page of a thread) from ``path``."""
    return _read_file(path, tz, progress, False, formats, brought)


# A post as a row: (pid, floor, author, time stamp, body, edited, reply_to,
# when), ``when`` being the time as a datetime or as unix seconds.
Row = tuple[str, int, str, str, str, "str | None", "ReplyRef | None", "datetime | int"]


def read_dump_rows(path: pathlib.Path, tz: tzinfo, progress: Progress = None,
                   formats=None, brought=()) -> tuple[list[Row], list[Problem]]:
    """``read_dump``, each post as a row (``post_row``)."""
    return _read_file(path, tz, progress, True, formats, brought)


def time_stamp(t: datetime) -> str:
    """"YYYY-MM-DD HH:MM:SS" in the time's own zone (isoformat would ask the zone for an offset: slow)."""
    return "%04d-%02d-%02d %02d:%02d:%02d" % (t.year, t.month, t.day, t.hour, t.minute, t.second)


def post_row(post: Post) -> Row:
    """A post as ``read_dump_rows`` gives it."""
    return (post.pid, post.floor, post.author, time_stamp(post.time), post.body, post.edited, post.reply_to, post.time)


def _read_file(path: pathlib.Path, tz: tzinfo, progress: Progress, rows: bool, formats=None,
               brought=()) -> tuple[list, list[Problem]]:
    from modtool.forum.bounds import read_dump_bytes

    data = read_dump_bytes(path)  # at most MAX_DUMP_BYTES, whatever the file (modtool.forum.bounds)
    if isinstance(data, Problem):
        return [], [data]
    source = str(path)
    box = [data]
    del data  # the box holds the only reference: the bytes go once decoded
    return _read_box(box, source, tz, progress, rows, formats, brought)


def read_dump_text(
    text: str | bytes | bytearray | memoryview, source: str, tz: tzinfo, progress: Progress = None, formats=None,
    brought=(),
) -> tuple[list[Post], list[Problem]]:
    """Read a forum dump already in memory (text, or bytes still to decode)."""
    return _read_box([text], source, tz, progress, False, formats, brought)


def _read_box(box: list, source: str, tz: tzinfo, progress: Progress, rows: bool = False,
              formats=None, brought=()) -> tuple[list, list[Problem]]:
    """``read_dump_text`` of the one item of ``box``, which is emptied: when
    nothing else holds the dump, its bytes are freed once decoded and its
    text once parsed, so a large dump is never in memory twice."""
    text = box.pop()
    if not isinstance(text, str):
        try:
            decoded, problem = decode(text if isinstance(text, bytes) else bytes(text), source)
        except Exception as e:  # pragma: no cover - last resort, see below
            return [], [Problem(source, "导入时出现内部错误（请报告此问题）：{name}: {e}", name=type(e).__name__, e=e)]
        if decoded is None:
            return [], [problem] if problem else []
        text = decoded
        del decoded
    box.append(text)
    del text
    try:
        posts, problems = _read(box, source, tz, progress, rows, formats, brought)
    except RecursionError:  # JSON nested deeper than its parser reads (modtool.forum.bounds)
        from modtool.forum.bounds import too_deep

        return [], [too_deep(source)]
    except Exception as e:  # a bug (tests/test_import_catch_all.py); the director still gets a message, nothing is written
        from modtool.forum.bounds import shown_problem

        return [], [shown_problem(Problem(source, "导入时出现内部错误（请报告此问题）：{name}: {e}", name=type(e).__name__, e=e))]
    if rows:
        _check_floors(posts, source, problems, 1, 2)
    else:
        _check_floors(posts, source, problems)
    from modtool.forum.bounds import shown_problem

    return posts, [shown_problem(p) for p in problems]  # what a reader quotes from the dump, escaped


def detect_format(text: str) -> str:
    """"json", "html" or "text", from the content."""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return "json"
    if head.startswith("["):
        if head[1:].lstrip(" \t\r\n")[:1] in ("{", "]"):
            return "json"
        return "text"
    if _HTML_POSTS.search(text) or _HTML_DOC.match(head):
        return "html"
    return "text"


def _read(box: list[str], source: str, tz: tzinfo, progress: Progress, rows: bool, formats=None,
          brought=()) -> tuple[list, list[Problem]]:
    # Each reader is imported only when a dump of its kind comes (start-up time).
    text = box.pop()
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text or text.isspace():
        return [], [Problem(source, "文件是空的（没有任何内容）")]
    from modtool.forum.formats import CORE_KIND, not_read

    for fmt in brought:  # a forum format a game brings (phpBB topics), told before the core's
        if fmt.detect(text):
            if formats is not None and fmt.id not in formats:
                return [], [not_read(source, fmt.id, formats, brought)]
            got = fmt.read(text, source, tz)
            return (list(map(post_row, got[0])) if rows else got[0]), got[1]
    kind = detect_format(text)
    if formats is not None and CORE_KIND[kind] not in formats:
        return [], [not_read(source, CORE_KIND[kind], formats, brought)]
    if kind == "json":
        from modtool.forum.discuz_json import read_json

        box.append(text)
        del text  # read_json empties the box once the JSON is parsed
        return read_json(box, source, tz, progress, post_row if rows else None)
    if "\x00" in text:
        return [], [Problem(source, "文件中有 NUL 字符：这不是文本文件，或编码不对（请存为 UTF-8 文本）")]
    if kind == "html":
        from modtool.forum.discuz_html import read_page as read_posts
    else:
        from modtool.forum.plaintext import read_text as read_posts
    posts, problems = read_posts(text, source, tz, progress)
    return (list(map(post_row, posts)) if rows else posts), problems


def plaintext_help() -> str:
    """The pasted-text format, for the director (see ``plaintext``)."""
    from modtool.forum.plaintext import plaintext_help as help_text

    return help_text()


def decode(data: bytes, source: str) -> tuple[str | None, Problem | None]:
    """Bytes → text: UTF-8 (with or without BOM), UTF-16 with BOM, or the
    charset the page or JSON declares (GBK, GB2312, GB18030, Big5)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError as e:
            return None, Problem(source, "文件标明是 UTF-16 编码，但第 {start} 字节处无法解码", start=e.start)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        bad = e.start
        cut = e.reason == "unexpected end of data"  # a character whose last bytes are missing: the end of the file
    declared = _DECLARED.search(data[:4096])
    if declared:
        name = declared.group(1).decode("ascii", "replace").lower()
        codec = _CHARSETS.get(name)
        if codec:
            try:
                return data.decode(codec), None
            except UnicodeDecodeError as e:
                line = data.count(b"\n", 0, e.start) + 1
                return None, Problem(source, "文件声明的编码是 {name}，但第 {line} 行有无法按此编码解码的字节", line=line, name=name, args={"line": line})
    line = data.count(b"\n", 0, bad) + 1
    if cut:
        return None, Problem(source, "文件在末尾被截断（最后一个字只存下了一半）：请重新保存整个文件后再导入", line=line)
    hint = ""
    try:
        data.decode("gb18030")
        hint = t("，看起来像 GBK/GB18030 编码")
    except UnicodeDecodeError:
        pass
    return None, Problem(
        source,
        "文件不是 UTF-8 编码（第 {line} 行有无法解码的字节{hint}）：请用 UTF-8 另存后再导入",
        line=line, hint=hint, args={"line": line},
    )


def _check_floors(posts: list, source: str, problems: list[Problem], floor_at: int | None = None, author_at: int = 2) -> None:
    """Two posts of one file on one floor: report it (both are kept). Rows
    give the places of the floor and the author."""
    floors = [p.floor for p in posts] if floor_at is None else [p[floor_at] for p in posts]
    for i in compress(range(1, len(floors)), map(eq, floors, islice(floors, 1, None))):  # post i repeats post i - 1
        floor = floors[i]
        author = posts[i].author if floor_at is None else posts[i][author_at]
        problems.append(Problem(source, "楼层 {floor} 出现了不止一次（{author}）：请检查存档是否重复或混入了别的帖子", floor=floor, author=author, args={"floor": floor}))
