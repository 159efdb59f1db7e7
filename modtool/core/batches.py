"""Import batches: every ``modtool import`` that adds posts is one batch.

The batch is a stored fact: an ``import`` marker event (schema.COMMON_EVENTS),
appended in the same write as the posts and right before them, with the
batch id and how many posts follow. A post event carries nothing extra, so a
100,000-post import writes one more line, not one more field per post.
``modtool undo GAME --import ID|last`` appends one ``revert`` of the marker,
and ``gamefile.effective_events`` takes back the marker and its posts.
Ids count up per game and are never reused, not even after an undo.
"""

from __future__ import annotations

from pathlib import Path

from modtool import ledger
from modtool.base.events import Event, event_id
from modtool.core.gamefile import GameDir
from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError


def _markers(gd: GameDir) -> list[Event]:
    """Every import marker in the ledger as written, undone ones too."""
    return [e for e in ledger.load(gd.ledger_path).events if e.type == "import"]


def next_batch(gd: GameDir) -> int:
    ids = [e.data.get("batch") for e in _markers(gd)]
    return max([i for i in ids if isinstance(i, int)], default=0) + 1


def marker(batch: int, thread: str, day: int, posts: int, files: list[Path]) -> dict:
    return {"type": "import", "batch": batch, "thread": thread, "day": day, "posts": posts,
            "files": [Path(f).name for f in files]}


def find_batch(gd: GameDir, spec: str) -> Event:
    """The live marker ``spec`` names: a batch id, or ``last`` (the newest import
    not undone yet); a UserError naming the argument otherwise."""
    live = gd.of_type("import")
    where = t("命令行 --import")
    if spec.strip().lower() in ("last", "最后", "最近"):
        if not live:
            raise UserError(Problem(where, "没有可以撤销的导入（每次导入都已撤销，或还没有导入过）"))
        return live[-1]
    try:
        batch = int(spec)
    except ValueError:
        raise UserError(Problem(where, "应为导入批次号（导入时显示的「导入批次 N」）或 last，而不是「{spec}」", spec=spec)) from None
    for ev in live:
        if ev.data.get("batch") == batch:
            return ev
    if any(e.data.get("batch") == batch for e in _markers(gd)):
        raise UserError(Problem(where, "导入批次 {batch} 已经撤销过了", batch=batch))
    shown = t("、").join(str(e.data.get("batch")) for e in live) or t("无")
    raise UserError(Problem(where, "没有导入批次 {batch}（仍然有效的批次：{shown}）", batch=batch, shown=shown))


def describe(ev: Event) -> str:
    d = ev.data
    files = t("、").join(map(str, d.get("files") or [])) or t("（未记文件名）")
    return t("导入批次 {batch}：第 {day} 天 {thread} 帖 {posts} 帖，来自 {files}").format(batch=d.get('batch'), day=d.get('day'), thread=d.get('thread'), posts=d.get('posts'), files=files)


def _ids(marker: Event) -> range:
    """The event ids of a batch: an import numbers its events right after its marker
    (``gamefile.effective_events`` takes them back by the same range); empty for a
    marker without an id (written by hand)."""
    first = event_id(marker.data)
    return range(0) if first is None else range(first + 1, first + 1 + int(marker.data.get("posts") or 0))


def edited_later(gd: GameDir, found: Event) -> list[int]:
    """The later batches that hold a forum edit (G-R3) of a post of batch ``found``:
    undoing ``found`` alone would leave each such edit naming a post no longer in
    force, so they are undone first. A post's newest version names its edit
    (``version``) and the post (``version_of``)."""
    mine = _ids(found)
    edits = [e.data["version"] for e in gd.of_type("post") if e.data.get("version_of") in mine]
    return [m.data.get("batch") for m in gd.of_type("import")
            if m is not found and any(k in _ids(m) for k in edits)]


def batch_of(gd: GameDir, post_id) -> int | None:
    """The live batch that imported the post with event id ``post_id`` (None: none does,
    or the post was written by hand)."""
    return next((m.data.get("batch") for m in gd.of_type("import") if post_id in _ids(m)), None)
