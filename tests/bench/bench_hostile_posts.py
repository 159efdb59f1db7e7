"""Benchmark: one hostile 420 KB post against a plain post of the same size.

Every parser is linear in its input (a quality bar of the project): a hostile
post costs at most a few times a plain post of the same size. Each shape
below is put as the body of one post into a whole file of each format the
importer reads, and the file is read by ``modtool.forum.read_dump_text``
(the page parser, the body's HTML-to-BBCode converter, reply references,
edit lines: everything ``modtool import`` runs before the ledger):

* phpBB: JSON lines (one record) and a saved prosilver page (one post);
* Discuz!: mobile API JSON (one post) and a saved X3 page (one post);
* plain text: one pasted post (the text shapes).

A hostile post is an ordinary long post with a hostile piece (an unmatched
closing tag, an opening one, a quote…) on each of its 5,000-odd lines, or one
line of a single pathological run (white space, digits, a tag never closed).
The baseline of each format is a plain post of the same size: ordinary
sentences, one a line (``<br>`` in HTML). Runs alternate, baseline and
shapes, and each figure is the best of N; the ratio to the baseline is what
counts (bar: <= 3.0). For the HTML formats a marked-up post (some colour on
each line) is shown too: a Discuz JSON plain post is read by C-speed
replaces, every other post by the tokenizer, so there the second ratio says
how a hostile post compares with an ordinary one. Not collected by pytest; no timed assertion anywhere.

    .venv/bin/python tests/bench/bench_hostile_posts.py [--repeat 5] [--size 420000] [--cap 30]

``--cap`` stops a run that takes longer (a quadratic parser on a 420 KB post
runs for minutes): the figure is then shown as ">cap".
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

TZ = ZoneInfo("Asia/Shanghai")
BAR = 3.0


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def half(a: str, b: str, size: int) -> str:
    """``a`` repeated for half the size, then ``b`` (opening tags, then closing ones)."""
    return fill(a, size // 2) + fill(b, size - size // 2)


# --- the shapes ---------------------------------------------------------------
#
# A hostile post is an ordinary long post (one sentence a line, as the
# baseline) with one hostile piece at the end of every line: thousands of
# them. ``(opening, closing)`` pieces go in the first and the second half of
# the lines (open tags piling up, then closed or stray). With ``--dense`` the
# post is the hostile piece alone, repeated to the size (no text at all), and
# the figure that counts is how the time grows from half the size to the
# whole (linear: about 2).

HTML_SHAPES: dict[str, str | tuple[str, str]] = {
    "unmatched closing tags": "</span>",
    "open spans, then unmatched </b>": ("<span>", "</b>"),
    "unclosed tags": "<b>",
    "unclosed tags with attributes": '<span style="color: red">',
    "deep nesting, closed": ("<div><span>", "</span></div>"),
    "quote chain (phpBB), unclosed": "<blockquote><div><cite>A wrote:</cite>",
    "quote chain (phpBB), closed": ("<blockquote><div><cite>A wrote:</cite>", "</div></blockquote>"),
    "quote chain (Discuz), unclosed": '<div class="quote"><blockquote>',
    "quote chain (Discuz), closed": ('<div class="quote"><blockquote>', "</blockquote></div>"),
    "vote spans, unclosed": '<span class="bbvote" title="This is an official vote.">VOTE: x',
    "edit markers (Discuz)": '<i class="pstatus">x',
    "code blocks (Discuz), unclosed": '<div class="blockcode"><li>',
    "'</' runs": "</",
    "'<!--' (unclosed comments)": "<!--",
    "'<!'": "<!",
    "'<?'": "<?",
    "'<a ' (unclosed tags)": "<a ",
    "unclosed attribute values": '<a href="x',
    "'<div ' (unclosed tags)": "<div ",
    "'<'": "<",
    "entity-like ('&#')": "&#",
    "entities": "&lt;&amp;&#91;&#x5d;&raquo;",
    "long style without colon": '<span style="' + "a" * 60 + '">',
    "reply markers, unclosed [i]": "[b]回复 [url=forum.php?pid=1]1#[/url] [i]",
    "[quote] runs": "[quote]",
}

TEXT_SHAPES: dict[str, str | tuple[str, str]] = {
    "header-like ending": " #1 x 2026-11-03",
    "quote lines": "\n> 投票对象：白月初",
    "copied quote heads": "\nx 发表于 2026-11-3 20:15",
    "lone 发表于 lines": "\n发表于 2026-11-3 20:15",
    "chrome lines": "\n回复\n举报",
    "blank lines": "\n\n\n\n",
    "reply markers, unclosed [i]": "[b]回复 [url=forum.php?pid=1]1#[/url] [i]",
    "[quote] runs": "[quote]",
    "edit lines": "\n本帖最后由 x 于 2026-11-3 20:15",
    "long floors": "\n#" + "1" * 40 + " x",
}

# One line of 420 KB: white space inside what could be a header, a reply line, a quote head.
TEXT_RUNS = {
    "spaces inside a header-like line": lambda n: "#1 a" + " " * (n - 6) + "b",
    "spaces inside a reply line": lambda n: "回复 #1 a" + " " * (n - 10) + "b",
    "spaces before 发表于": lambda n: "a" + " " * (n - 20) + "b 发表于 x",
    "a header whose date is followed by spaces": lambda n: "#1 a 2026-11-3" + " " * (n - 17) + "x",
    "a floor of 400,000 digits": lambda n: "#" + "1" * (n - 3) + " x",
}

HTML_RUNS = {
    "'Last edited by' + ' on x' × 80,000": lambda n: "Last edited by x" + fill(" on x", n - 16),
    "a tag name never closed": lambda n: "<a" + "a" * (n - 2),
    "an attribute value never closed": lambda n: '<a href="' + "x" * (n - 9),
    "a style of one long word": lambda n: '<span style="' + "a" * (n - 15) + '">',
}

# An ordinary post's markup (colour on a few words of each line), for comparison: on
# Discuz JSON a plain post takes a path of C-speed replaces that any other markup leaves.
MARKUP = ('<span style="color: red">', "</span>")

PLAIN_EN = "This is an ordinary sentence of a long post, and I vote for nobody yet."
PLAIN_ZH = "今天我觉得这位的发言很奇怪，先听听大家怎么说，晚上再决定投给谁。"


def post_of(line: str, br: str, size: int, piece: str | tuple[str, str] | None = None) -> str:
    """Lines of ``line`` to ``size`` characters, each ending with ``piece``."""
    if piece is None:
        return fill(line + br, size)
    opening, closing = piece if isinstance(piece, tuple) else (piece, piece)
    n = max(2, size // (len(line) + len(br) + max(len(opening), len(closing))))
    out = [line + (opening if i < n // 2 else closing) + br for i in range(n)]
    return "".join(out)[:size]


def dense(piece: str | tuple[str, str], size: int) -> str:
    if isinstance(piece, tuple):
        return half(piece[0], piece[1], size)
    return fill(piece, size)


# --- the files ------------------------------------------------------------------

def phpbb_jsonl(body: str) -> str:
    rec = {"number": "3", "user": "Pine", "timestamp": "Mon May 02, 2011 10:00 am", "content": body}
    return json.dumps(rec) + "\n"


def phpbb_page(body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html><head><link rel="canonical" href="https://forum.mafiascum.net/viewtopic.php?t=1&amp;start=25">'
        '</head><body><div id="page-body">\n'
        '<div id="p100" class="post bg2"><div class="inner"><div class="postbody">\n'
        '<p class="author">by <strong><a href="./memberlist.php?u=1" class="username">Pine</a></strong>'
        " &raquo; Mon May 02, 2011 10:00 am</p>\n"
        f'<div class="content">{body}</div>\n'
        "</div></div></div>\n</div></body></html>\n"
    )


def discuz_json(body: str) -> str:
    post = {"pid": "1", "tid": "8", "author": "饺子君", "authorid": "101", "position": "2",
            "dbdateline": "1793707200", "message": body}
    return json.dumps({"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": [post]}}, ensure_ascii=False)


def discuz_page(body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n"
        '<div id="post_1"><table id="pid1"><tr><td class="pls"><div class="authi"><a class="xw1" href="#">饺子君</a></div></td>\n'
        '<td class="plc"><div class="pi"><strong><a id="postnum1"><em>2</em><sup>#</sup></a></strong>'
        '<em id="authorposton1">发表于 2026-11-3 20:15:05</em></div>\n'
        f'<table><tr><td class="t_f" id="postmessage_1">{body}</td></tr></table></td></tr></table></div>\n'
        "</body></html>\n"
    )


def plaintext(body: str) -> str:
    return "#2 饺子君 2026-11-03 20:15\n" + body + "\n"


FORMATS = {
    # name: (make file, plain line, line break, shapes)
    "phpBB JSON lines": (phpbb_jsonl, PLAIN_EN, "<br>", HTML_SHAPES),
    "phpBB page": (phpbb_page, PLAIN_EN, "<br>", HTML_SHAPES),
    "Discuz JSON": (discuz_json, PLAIN_ZH, "<br />\r\n", HTML_SHAPES),
    "Discuz page": (discuz_page, PLAIN_ZH, "<br />\r\n", HTML_SHAPES),
    "plain text": (plaintext, PLAIN_ZH, "\n", TEXT_SHAPES),
}


class _Cap(Exception):
    pass


def _alarm(signum, frame):
    raise _Cap


def timed(text: str, cap: float) -> float:
    from modtool.forum import read_dump_text

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        read_dump_text(text, "bench", TZ)
    except _Cap:
        return float("inf")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - t0


def best_of(files: dict[str, str], repeat: int, cap: float) -> dict[str, float]:
    """The best time of each file, run in turn ``repeat`` times."""
    best = {k: float("inf") for k in files}
    capped: set[str] = set()
    for _ in range(repeat):
        for k, text in files.items():
            if k in capped:
                continue
            t = timed(text, cap)
            best[k] = min(best[k], t)
            if t == float("inf"):
                capped.add(k)  # once is enough
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--size", type=int, default=420_000)
    ap.add_argument("--cap", type=float, default=30.0)
    ap.add_argument("--format", action="append", choices=list(FORMATS), help="only these formats")
    ap.add_argument("--dense", action="store_true", help="also the posts made of a hostile piece alone (growth from half the size)")
    args = ap.parse_args()
    size = args.size
    worst = 0.0
    for name in args.format or FORMATS:
        make, line, br, shapes = FORMATS[name]
        files = {"(baseline) plain post": make(post_of(line, br, size))}
        if name != "plain text":  # an ordinary post with some markup on each line: the tokenizer's path
            files["(for comparison) marked-up post"] = make(post_of(line, br, size, MARKUP))
        files.update({shape: make(post_of(line, br, size, piece)) for shape, piece in shapes.items()})
        runs = TEXT_RUNS if name == "plain text" else HTML_RUNS
        files.update({shape: make(run(size)) for shape, run in runs.items()})
        best = best_of(files, args.repeat, args.cap)
        base = best["(baseline) plain post"]
        marked = best.get("(for comparison) marked-up post")
        print(f"\n{name}: a post of {size:,} characters with a hostile piece on each of its lines, best of {args.repeat}")
        print(f"  {'':40s} {'time':>9s}   {'ratio to plain':>14s}" + (f"   {'to marked-up':>12s}" if marked else ""))
        for k, t in best.items():
            if t == float("inf"):
                print(f"  {k:40s}  >{args.cap:.0f} s    ratio >{args.cap / base:6.0f}   OVER")
                worst = float("inf")
                continue
            ratio = t / base
            if not k.startswith("("):
                worst = max(worst, ratio)
            also = f"   {t / marked:12.2f}" if marked else ""
            print(f"  {k:40s} {t:7.3f} s   {ratio:14.2f}{also}{'' if ratio <= BAR else '   OVER'}")
        if not args.dense:
            continue
        whole = {k: make(dense(p, size)) for k, p in shapes.items()}
        halves = {k: make(dense(p, size // 2)) for k, p in shapes.items()}
        bw, bh = best_of(whole, args.repeat, args.cap), best_of(halves, args.repeat, args.cap)
        print(f"  dense (the piece alone, repeated): time at {size:,} / time at {size // 2:,} characters, and ratio to the baseline")
        for k in shapes:
            growth = bw[k] / bh[k] if bh[k] else float("inf")
            print(f"  {k:40s} {bw[k]:7.3f} s   growth {growth:5.2f}   ratio {bw[k] / base:6.2f}")
    print(f"\nworst ratio: {worst:.2f} (bar: <= {BAR})")


if __name__ == "__main__":
    main()
