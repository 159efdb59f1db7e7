"""Drawing a ``VoteChart`` to PNG or SVG with matplotlib.

Why matplotlib: one figure gives both formats, with real text layout,
anti-aliased PNG and SVG whose glyphs are outlines (``svg.fonttype: path``:
the picture shows the same letters on a machine without the font). It is
heavy (about 120 MB with numpy), so only ``modtool chart`` imports it.

The output is byte-stable for the same chart and font: no creation date or
software version in the metadata, a fixed SVG id salt, a fixed palette.
"""

from __future__ import annotations

from pathlib import Path

from modtool.core.chart.fonts import quiet_matplotlib, visible as v
from modtool.core.chart.model import Bar, Segment, Step, VoteChart
from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError

WIDTH_IN, DPI = 9.0, 100  # 900 pixels: a forum post's width, readable without zoom
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39")
FORMATS = {".png": "png", ".svg": "svg"}
LEGEND_MAX = 14  # targets named in the timeline's legend (the most a palette tells apart); the rest are drawn unnamed


def _setup():
    import matplotlib

    quiet_matplotlib()
    matplotlib.use("Agg", force=True)
    # text.parse_math off: a player named "$x^2$" is drawn as typed, and "$\\frac$" cannot break the chart.
    matplotlib.rcParams.update({"svg.hashsalt": "modtool", "svg.fonttype": "path", "axes.unicode_minus": False,
                                "path.simplify": True, "text.parse_math": False, "text.usetex": False})


def _visible(chart: VoteChart) -> VoteChart:
    """The chart with invisible characters (zero-width space, direction marks) taken out of every text."""
    from dataclasses import replace

    return replace(
        chart, title=v(chart.title), subtitle=v(chart.subtitle),
        bars=[Bar(v(b.target), tuple(Segment(v(s.voter), s.weight) for s in b.segments), b.mark) for b in chart.bars],
        abstained=[v(x) for x in chart.abstained], not_voting=[v(x) for x in chart.not_voting],
        steps=[Step(s.at, {v(k): n for k, n in s.counts.items()}, v(s.who), s.change) for s in chart.steps],
        marks=[(when, v(label)) for when, label in chart.marks])


def figure(chart: VoteChart, font: Path):
    """The chart as a matplotlib Figure (not saved), and every text it draws."""
    _setup()
    chart = _visible(chart)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.text import Text

    def fp(size: float, bold: bool = False) -> FontProperties:
        return FontProperties(fname=str(font), size=size, weight="bold" if bold else "normal")

    w = chart.words
    rows = max(len(chart.bars), 1)
    timeline = bool(chart.steps)
    # The text lines under the bars, wrapped here (matplotlib's own wrapping ignores text.parse_math).
    notes = ([_wrap(w.abstained.format(names=w.separator.join(chart.abstained) or w.none))] if w.abstained else []) \
        + [_wrap(w.not_voting.format(names=w.separator.join(chart.not_voting) or w.none))]
    lines = sum(n.count("\n") + 1 for n in notes)
    # Heights in inches, top to bottom: titles, bars, their axis, the text lines, the timeline.
    head, bars_h, axis_h, text_h, time_h = 1.0, 0.5 * rows + 0.2, 0.55, 0.3 * lines + 0.25, 3.0 if timeline else 0.0
    height = head + bars_h + axis_h + text_h + time_h
    fig = Figure(figsize=(WIDTH_IN, height), dpi=DPI, facecolor="white")
    FigureCanvasAgg(fig)
    fig.text(0.03, 1 - 0.35 / height, chart.title, fontproperties=fp(14, True), va="center")
    fig.text(0.03, 1 - 0.68 / height, _shorten(chart.subtitle, 150), fontproperties=fp(9.5), va="center", color="#444444")
    colour = {b.target: PALETTE[i % len(PALETTE)] for i, b in enumerate(chart.bars)}

    # 1. who voted for whom
    targets = [_shorten(b.target, 24) for b in chart.bars]  # a very long name is cut, its start kept
    names_in = max([_ems(x) for x in targets] + [2]) * 11 / 72 + 0.25  # the target names' column
    left = min(max(names_in / WIDTH_IN, 0.10), 0.42)
    ax = fig.add_axes((left, 1 - (head + bars_h) / height, 0.96 - left, bars_h / height))
    most = max([b.total for b in chart.bars] + [1] + ([chart.threshold[0]] if chart.threshold else [])
               + [b.mark for b in chart.bars if b.mark])
    span = most + 0.6
    unit_px = (0.96 - left) * WIDTH_IN * DPI / span
    for row, bar in enumerate(chart.bars):
        y = rows - 1 - row
        x = 0.0
        for seg in bar.segments:
            double = seg.weight > 1  # the sheriff's vote (M42-R3): darker, framed, marked ×2
            patches = ax.barh(y, seg.weight, left=x, height=0.66, color=colour[bar.target], alpha=1.0 if double else 0.8,
                              edgecolor="#111111" if double else "white", linewidth=2.2 if double else 1.5)
            label, size = _fit(seg.voter + (w.double if double else ""), seg.weight * unit_px)
            text = ax.text(x + seg.weight / 2, y, label, ha="center", va="center", color="white",
                           fontproperties=fp(size, True), path_effects=[_outline()], linespacing=1.0)
            text.set_clip_path(patches[0])  # a name too long for its vote is cut at its edge, never over the next
            x += seg.weight
        ax.text(x + 0.12, y, str(bar.total), va="center", ha="left", fontproperties=fp(11, True), color="#222222")
        if bar.mark:  # this bar's own threshold: a red tick across its row, its number beside it
            ax.plot([bar.mark, bar.mark], [y - 0.42, y + 0.42], color="#aa0000", linestyle="--", linewidth=1.4)
            ax.text(bar.mark + 0.06, y + 0.36, str(bar.mark), ha="left", va="bottom", fontproperties=fp(8), color="#aa0000")
    if chart.threshold:
        count, label = chart.threshold
        ax.axvline(count, color="#aa0000", linestyle="--", linewidth=1.2)
        ax.text(count + 0.06, rows - 0.45, label, ha="left", va="bottom", fontproperties=fp(8.5), color="#aa0000")
    ax.set_yticks(range(rows))
    ax.set_yticklabels(list(reversed(targets)) or [""], fontproperties=fp(11))
    ax.set_xlim(0, span)
    ax.set_ylim(-0.6, rows - 0.4)
    ax.set_xlabel(w.votes_axis, fontproperties=fp(9))
    ax.xaxis.set_major_locator(_integer_locator())
    for label in ax.get_xticklabels():
        label.set_fontproperties(fp(8.5))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if not chart.bars:
        ax.text(span / 2, 0, w.nobody, ha="center", va="center", fontproperties=fp(11), color="#666666")
    below = 1 - (head + bars_h + axis_h + 0.05) / height
    for note in notes:  # a game without abstention (mafia's no lynch is a bar) has only the second
        fig.text(0.03, below, note, fontproperties=fp(9.5), va="top", linespacing=1.5)
        below -= 0.3 * (note.count("\n") + 1) / height

    # 2. the day as a timeline
    if timeline:
        _timeline(fig, chart, colour, fp, height)
    fig.canvas.draw()
    texts = [t.get_text() for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    return fig, texts


def _shorten(text: str, ems: float) -> str:
    """``text`` cut to about ``ems`` wide, with an ellipsis when cut."""
    if _ems(text) <= ems:
        return text
    out = ""
    for ch in text:
        if _ems(out + ch) > ems - 1:
            break
        out += ch
    return out + "…"


def _ems(text: str) -> float:
    """The width of ``text`` in ems, near enough: a wide (CJK) character is one, others about half."""
    import unicodedata

    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)


def _wrap(text: str, ems: float = 62.0) -> str:
    """``text`` broken into lines at most ``ems`` wide (9.5 pt across the picture), at separators where it can."""
    lines, line = [], ""
    for ch in text:
        if _ems(line + ch) > ems:
            cut = max(line.rfind(", "), line.rfind("、"))
            if cut > 0:
                rest = line[cut + 1:].lstrip()
                lines.append(line[:cut + 1])
                line = rest
            else:
                lines.append(line)
                line = ""
        line += ch
    return "\n".join(lines + [line])


def _fit(label: str, width_px: float) -> tuple[str, float]:
    """The label and font size (points) that fit a segment ``width_px`` wide:
    as large as 9.5 pt, broken over two lines at a space when that reads larger."""
    def size(text: str) -> float:
        return 0.9 * width_px / max(max(_ems(part) for part in text.split("\n")), 1) * 72 / DPI

    best = label
    if " " in label:
        mid = min((i for i, ch in enumerate(label) if ch == " "), key=lambda i: abs(i - len(label) / 2))
        two = label[:mid] + "\n" + label[mid + 1:]
        if size(two) > size(label):
            best = two
    return best, max(6.0, min(9.5, size(best)))


def _outline():
    from matplotlib import patheffects

    return patheffects.withStroke(linewidth=2, foreground="#00000055")


def _integer_locator():
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _timeline(fig, chart: VoteChart, colour: dict, fp, height: float) -> None:
    import matplotlib.dates as mdates

    w = chart.words
    ax = fig.add_axes((0.08, 0.5 / height, 0.70, 2.15 / height))
    zone = chart.steps[0].at.tzinfo
    start = chart.start or chart.steps[0].at
    # A chart asked at a moment (--at, --floor) ends there; a whole day runs to its close.
    end = chart.upto or max([chart.steps[-1].at] + [x for x in (chart.close,) if x is not None])
    targets = list(colour)
    for s in chart.steps:
        for target in s.counts:
            if target not in colour:
                colour[target] = PALETTE[len(colour) % len(PALETTE)]
                targets.append(target)
    # Equal counts would hide each other: each line sits a hair above the one before (jitter under a tenth of a vote).
    lift = {target: 0.06 * (i % 4) for i, target in enumerate(targets)}
    drawn = 0
    for target in targets:
        xs, ys = [start], [0]
        changes_x, changes_y = [], []
        for s in chart.steps:
            n = s.counts.get(target, 0)
            if n != ys[-1]:
                xs.append(s.at)
                ys.append(n)
                if s.change:
                    changes_x.append(s.at)
                    changes_y.append(n)
        xs.append(end)
        ys.append(ys[-1])
        if max(ys) == 0:
            continue
        drawn += 1
        up = lift[target]
        ax.step(xs, [y + up for y in ys], where="post", color=colour[target], linewidth=2,
                label=_shorten(target, 14) if drawn <= LEGEND_MAX else None)
        if changes_x:
            ax.plot(changes_x, [y + up for y in changes_y], linestyle="none", marker="D", markersize=5, color=colour[target],
                    markeredgecolor="black", markeredgewidth=0.8)
    ax.plot([], [], linestyle="none", marker="D", markersize=5, color="white", markeredgecolor="black", label=w.change)
    # Labels over the plot, each on its own height so that near moments never print over each other:
    # the last-change line's to its left, the close's to its right, the others above them.
    lines = [(chart.freeze, w.freeze, ":", "right", "#333333"), (chart.close, w.close, "--", "left", "#333333")]
    lines += [(when, label, "-", "center", "#aa0000") for when, label in chart.marks]
    if chart.upto is not None:
        lines.append((chart.upto, w.upto, "-.", "right", "#555555"))
    shown = [x for x in lines if x[0] is not None and start <= x[0] <= end]  # a close after the moment asked is not drawn
    for level, (when, label, style, align, tint) in enumerate(shown):
        ax.axvline(when, color=tint, linestyle=style, linewidth=1.2)
        ax.text(when, 1.01 + 0.075 * level, label, transform=ax.get_xaxis_transform(), ha=align, va="bottom",
                fontproperties=fp(8.5), color=tint)
    ax.set_xlim(start, end + (end - start) * 0.02)
    ax.yaxis.set_major_locator(_integer_locator())
    ax.set_ylim(bottom=0)
    stamp = "%m-%d %H:%M" if start.year == end.year else "%Y-%m-%d"
    ax.xaxis.set_major_formatter(mdates.DateFormatter(stamp, tz=zone))
    ax.xaxis.set_major_locator(mdates.AutoDateLocator(tz=zone, minticks=3, maxticks=8, interval_multiples=True))
    ax.set_xlabel(w.time_axis, fontproperties=fp(9))
    ax.set_ylabel(w.count_axis, fontproperties=fp(9))
    for label in ax.get_xticklabels() + ax.get_yticklabels():
        label.set_fontproperties(fp(8))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.grid(axis="y", color="#dddddd", linewidth=0.8)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, prop=fp(9 if drawn <= 10 else 7.5))


def save(chart: VoteChart, out: Path, font: Path) -> list[str]:
    """Write the chart to ``out`` (PNG or SVG by its suffix); the texts it drew."""
    import io

    kind = FORMATS[out.suffix.lower()]
    metadata = {"Software": None} if kind == "png" else {"Date": None, "Creator": None}
    buf = io.BytesIO()
    try:
        fig, texts = figure(chart, font)
        fig.savefig(buf, format=kind, dpi=DPI, metadata=metadata, facecolor="white")
    except (RuntimeError, OSError, ValueError) as exc:  # FreeType on a damaged font file ("failed to load glyph")
        raise UserError(Problem("--font", "字体文件「{path}」无法使用：{why}", path=font, why=exc)) from None
    from modtool.core.outfile import write_file  # a picture half written is never left

    write_file(out, buf.getvalue(), "-o")
    return texts
