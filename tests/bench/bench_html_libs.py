"""Benchmark: could one HTML tree library read both forums' HTML in place of
modtool's own tokenizers (``modtool.forum.htmlscan``, the regex split of
``modtool.forum.html2bb``)?

The candidates are measured as the architecture issue asks: installed size,
speed on the real pages of ../shared/real and on the hostile posts of
bench_hostile_posts.py, and correctness (the same BBCode as today). Each
library builds a tree; one walker turns the tree back into the start / text /
end events that today's two writers consume (``html2bb.BBWriter`` for Discuz,
``phpbb._ToBBCode`` for phpBB), so any difference in the BBCode comes from the
library's reading of the HTML alone.

The libraries are not dependencies of modtool. Install them into the venv
first (``pip install lxml selectolax``); one that is missing is skipped.
Not collected by pytest; no timed assertion anywhere.

    .venv/bin/python tests/bench/bench_html_libs.py [--size 420000] [--repeat 3] [--skip-slow]

What it found (2026-12, lxml 6.1.3 / libxml2 2.14.6, selectolax 1.0.2 /
lexbor; selectolax 1.0 dropped its Modest backend, and Modest in 0.4.13 is
quadratic as well) is written down in ``modtool/forum/htmlscan.py``.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import sys
import time
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_hostile_posts as H  # noqa: E402

from modtool.forum.html2bb import BBWriter, convert, convert_slow  # noqa: E402
from modtool.packs.mafia.phpbb import _ToBBCode, html_to_bbcode  # noqa: E402

REAL = ROOT.parent / "shared" / "real"
VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "area", "col", "embed", "source", "param"})


# --- the tree libraries, each as one function: HTML -> events ------------------

def lxml_events(html: str, start, end, data) -> None:
    import lxml.etree as etree

    if not html.strip():
        if html:
            data(html)
        return
    parser = etree.HTMLParser(huge_tree=True)
    body = etree.fromstring("<html><body>" + html + "</body></html>", parser).find("body")
    if body is None:
        return
    if body.text:
        data(body.text)
    stack = [(body, iter(body))]
    while stack:  # iterative: a hostile post nests thousands deep
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack:
                if node.tag not in VOID:
                    end(node.tag)
                if node.tail:
                    data(node.tail)
            continue
        if not isinstance(child.tag, str):  # a comment or a processing instruction
            if child.tail:
                data(child.tail)
            continue
        start(child.tag, dict(child.attrib))
        if child.text:
            data(child.text)
        stack.append((child, iter(child)))


def selectolax_events(html: str, start, end, data) -> None:
    from selectolax.lexbor import LexborHTMLParser

    body = LexborHTMLParser(html).body
    node = body.child if body is not None else None
    while node is not None:
        tag = node.tag
        if tag == "-text":
            data(node.text_content or "")
        elif not tag.startswith(("_", "!", "-")):
            start(tag, {k: (v or "") for k, v in node.attributes.items()})
            if node.child is not None:
                node = node.child
                continue
            if tag not in VOID:
                end(tag)
        while node is not None and node.next is None:  # up to the next sibling, closing what ends
            node = node.parent
            if node is None or node.tag == "body":
                node = None
                break
            end(node.tag)
        node = node.next if node is not None else None


LIBS = {"lxml": ("lxml", lxml_events), "selectolax": ("selectolax", selectolax_events)}


def available() -> dict:
    out = {}
    for name, (module, events) in LIBS.items():
        try:
            __import__(module)
        except ImportError:
            print(f"({name} is not installed: skipped)")
            continue
        out[name] = events
    return out


# --- today's writers driven by a library's events ---------------------------------

def discuz_with(events):
    def conv(message: str) -> str:
        w = BBWriter()

        def data(text: str) -> None:  # as modtool.forum.discuz_html feeds its writers
            if "\xa0" in text or "\r" in text:
                text = text.replace("\xa0", " ").replace("\r\n", "\n").replace("\r", "\n")
            w.data(text)

        events(message, w.start, w.end, data)
        return w.finish()[0]

    return conv


def phpbb_with(events):
    def conv(message: str) -> str:
        p = _ToBBCode()
        events(message, lambda tag, attrs: p.handle_starttag(tag, list(attrs.items())), p.handle_endtag, p.handle_data)
        return p.result()

    return conv


def discuz_today(message: str) -> str:
    return convert(message)[0]


# --- the inputs ---------------------------------------------------------------------

def real_phpbb() -> list[tuple[str, str]]:
    out = []
    for f in sorted(glob.glob(str(REAL / "mafiascum" / "*.jsonl"))):
        for line in open(f, encoding="utf-8"):
            rec = json.loads(line)
            out.append((f"MafiaScum #{rec['number']}", rec["content"]))
    return out


def real_discuz() -> list[tuple[str, str]]:
    out = []
    for f in sorted(glob.glob(str(REAL / "discuz" / "*.xml"))):
        for item in ET.parse(f).getroot().iter("item"):
            out.append((f"{Path(f).name} {(item.findtext('title') or '')[:16]}", item.findtext("description") or ""))
    for f in sorted(glob.glob(str(REAL / "discuz" / "*.json"))):
        for post in json.load(open(f, encoding="utf-8"))["Variables"].get("postlist", []):
            if "message" in post:
                out.append((f"{Path(f).name} pid {post.get('pid')}", post["message"]))
    return out


def discuz_cases() -> list[tuple[str, str]]:
    import test_forum_html as T

    out = [(repr(h[:30]), h) for h, _ in T.CASES] + [("QUOTE", T.QUOTE)]
    for f in sorted((ROOT / "tests" / "fixtures" / "forum").glob("*.json")):
        for post in json.loads(f.read_text(encoding="utf-8")).get("Variables", {}).get("postlist", []):
            if "message" in post:
                out.append((f"{f.name} pid {post.get('pid')}", post["message"]))
    return out


def hostile(size: int) -> list[tuple[str, str]]:
    return [(name, H.post_of(H.PLAIN_EN, "<br>", size, piece)) for name, piece in H.HTML_SHAPES.items()]


# --- the measurements ---------------------------------------------------------------

def installed_size(dist: str) -> float:
    files = metadata.distribution(dist).files or []
    return sum((f.locate().stat().st_size for f in files if Path(f.locate()).exists()), 0) / 1e6


def best(fn, items, repeat: int) -> float:
    b = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _, m in items:
            fn(m)
        b = min(b, time.perf_counter() - t0)
    return b


def correctness(libs: dict) -> None:
    sets = []
    if REAL.is_dir():
        sets += [("phpBB, real (MafiaScum 1145)", real_phpbb(), "phpbb"), ("Discuz, real (Stage1st)", real_discuz(), "discuz")]
    else:
        print(f"({REAL} not found: the real pages are skipped)")
    sets += [("Discuz, test cases and fixtures", discuz_cases(), "discuz"),
             ("hostile shapes (3 KB) as Discuz", hostile(3000), "discuz"),
             ("hostile shapes (3 KB) as phpBB", hostile(3000), "phpbb")]
    print("\nCorrectness: posts whose BBCode is the same as today's")
    for lib, events in libs.items():
        for label, items, forum in sets:
            today, new = (html_to_bbcode, phpbb_with(events)) if forum == "phpbb" else (discuz_today, discuz_with(events))
            diff = [(k, a, b) for k, m in items if (a := today(m)) != (b := new(m))]
            print(f"  {lib:10s} {label:34s} {len(items) - len(diff):4d} / {len(items):4d}")
            for k, a, b in diff[:3]:
                i = next((j for j in range(min(len(a), len(b))) if a[j] != b[j]), min(len(a), len(b)))
                print(f"      {k[:40]}: today {a[max(0, i - 20):i + 40]!r}")
                print(f"      {'':{min(len(k), 40)}}  {lib:5s} {b[max(0, i - 20):i + 40]!r}")
            if len(diff) > 3:
                print(f"      … and {len(diff) - 3} more")


# Edge cases the tests pin (tests/test_import_surrogates.py, test_parsers_linear.py,
# test_forum_html.py's hypothesis messages), each as (forum, HTML).
EDGES = {
    "a lone surrogate (an emoji the forum cut)": ("discuz", "投票对象：饺子\ud83d<br />\r\n投票理由：好吃"),
    "a typed [b] never closed": ("discuz", "<strong>投票对象：饺子"),
    "a link inside a link": ("discuz", '<a href="u" target="_blank">x<a href="v" target="_blank">y</a></a>'),
    "a quote's end closes a bold left open": ("phpbb", '<blockquote><div><cite>A wrote:</cite><b>x</div></blockquote>y'),
    "'</' typed in a post": ("phpbb", "a </ b<br>c"),
}


def edges(libs: dict) -> None:
    print("\nEdge cases the tests pin (today, then each library):")
    for label, (forum, html) in EDGES.items():
        today = html_to_bbcode(html) if forum == "phpbb" else discuz_today(html)
        print(f"  {label} ({forum}):\n    {'today':10s} {today!r}")
        for lib, events in libs.items():
            out = (phpbb_with if forum == "phpbb" else discuz_with)(events)(html)
            print(f"    {lib:10s} {out!r}{'' if out == today else '   DIFFERS'}")


def depth(libs: dict) -> None:
    print("\nDepth: a post of N unclosed <b>, then a last line 'LAST' (is the last line read?)")
    for lib, events in libs.items():
        conv = discuz_with(events)
        kept = [n for n in (1000, 2047, 2048, 3000, 10000) if "LAST" in conv("<b>x" * n + "<br>LAST")]
        print(f"  {lib:10s} read whole for N in {kept} of [1000, 2047, 2048, 3000, 10000]")
    if "lxml" in libs:  # a saved page: the post after the deep one
        import lxml.etree as etree

        page = H.discuz_page("<b>x" * 2100 + "<br>LAST").replace(
            "</body>", '<div id="post_2"><table id="pid2"><tr><td class="t_f" id="postmessage_2">2</td></tr></table></div></body>')
        parser = etree.HTMLParser(huge_tree=True)
        root = etree.fromstring(page, parser)
        fatal = "; ".join(e.message for e in parser.error_log if e.level_name == "FATAL") or "no error"
        read = "read" if root.xpath("//td[@id='postmessage_2']") else "LOST"
        print(f"  lxml, a saved Discuz page whose first post opens 2,100 <b>: the next post is {read} ({fatal})")


def speed(libs: dict, repeat: int) -> None:
    print("\nSpeed, one post after another, best of", repeat)
    if REAL.is_dir():
        ph, dz = real_phpbb(), real_discuz() + discuz_cases()
        print(f"  real phpBB posts ({len(ph)}, {sum(len(m) for _, m in ph):,} characters):")
        print(f"    today (htmlscan + _ToBBCode)          {best(html_to_bbcode, ph, repeat) * 1000:8.1f} ms")
        for lib, events in libs.items():
            print(f"    {lib:10s} tree -> the same writer    {best(phpbb_with(events), ph, repeat) * 1000:8.1f} ms")
        print(f"  real Discuz posts and test cases ({len(dz)}):")
        print(f"    today convert (regex path first)      {best(discuz_today, dz, repeat) * 1000:8.1f} ms")
        print(f"    today convert_slow (tokenizer)        {best(convert_slow, dz, repeat) * 1000:8.1f} ms")
        for lib, events in libs.items():
            print(f"    {lib:10s} tree -> BBWriter           {best(discuz_with(events), dz, repeat) * 1000:8.1f} ms")
    import bench_import as B

    rng, pids, msgs = random.Random(7), [], []
    for i in range(100_000):
        msgs.append(("", B.message(rng, i, pids)))
        pids.append(str(i + 1))
    print(f"  the 100,000 messages of bench_import.py's dump ({sum(len(m) for _, m in msgs):,} characters):")
    print(f"    today convert                         {best(discuz_today, msgs, repeat):8.2f} s")
    for lib, events in libs.items():
        print(f"    {lib:10s} tree -> BBWriter           {best(discuz_with(events), msgs, repeat):8.2f} s")


def today_elements(text: str) -> int:
    """How many start tags ``modtool.forum.htmlscan`` reads in ``text``."""
    from modtool.forum.htmlscan import HTMLScanner

    class Count(HTMLScanner):
        n = 0

        def handle_starttag(self, tag, attrs):
            self.n += 1

    c = Count()
    c.feed(text)
    c.close()
    return c.n


def linearity(libs: dict, size: int, repeat: int, skip_slow: float) -> None:
    """The dense hostile posts (the piece alone, repeated), parsed and walked:
    time at ``size`` over time at half of it (linear: about 2)."""
    print(f"\nLinearity: dense hostile posts of {size:,} characters, tree built and walked (no writer); "
          f"growth from {size // 2:,}, and ratio to a plain post of {size:,}")
    plain = H.post_of(H.PLAIN_EN, "<br>", size)
    noop = lambda *a: None  # noqa: E731
    for lib, events in libs.items():
        run = lambda text: events(text, noop, noop, noop)  # noqa: E731
        base = best(run, [("", plain)], repeat)
        print(f"  {lib}: plain post {base * 1000:.1f} ms")
        worst = (0.0, "")
        for name, piece in H.HTML_SHAPES.items():
            half = best(run, [("", H.dense(piece, size // 2))], repeat)
            if half > skip_slow:
                print(f"    {name:40s} {half * 1000:9.1f} ms at {size // 2:,}: whole size skipped")
                worst = max(worst, (half / base, name))
                continue
            text = H.dense(piece, size)
            whole = best(run, [("", text)], repeat)
            worst = max(worst, (whole / base, name))
            flag = "   QUADRATIC" if whole / half > 3 and whole > 0.01 else ""
            # How many elements the tree holds, of those today's tokenizer reads: fewer is text lost.
            count = [0]
            events(text, lambda *a: count.__setitem__(0, count[0] + 1), noop, noop)
            opened = today_elements(text)
            read = f"{count[0]:>7,} of {opened:>7,} elements" if count[0] < opened else ""
            print(f"    {name:40s} {whole * 1000:9.1f} ms   growth {whole / half:5.2f}   ratio {whole / base:8.1f}   {read}{flag}")
        print(f"  {lib}: worst ratio {worst[0]:.1f} ({worst[1]})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=420_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-slow", type=float, default=3.0, help="seconds at half size past which the whole size is not run")
    args = ap.parse_args()
    libs = available()
    print("Installed size (the wheel's files):")
    for lib in libs:
        print(f"  {lib:10s} {metadata.version(lib):8s} {installed_size(lib):6.1f} MB")
    correctness(libs)
    edges(libs)
    depth(libs)
    speed(libs, args.repeat)
    linearity(libs, args.size, args.repeat, args.skip_slow)


if __name__ == "__main__":
    main()
