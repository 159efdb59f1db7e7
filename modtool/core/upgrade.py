"""``modtool upgrade``: a ledger written before stable ids, made to name events by id.

Ledgers written before ids undid an event with ``revert`` + ``line: N``: one
comment line added above it moved every undo. The upgrade rewrites each such
reference in place, and nothing else: ``line: N`` becomes ``of: REF``, where
REF is the target's id (or, for an event without one, its fingerprint;
modtool.base.events), resolved exactly as the old reference resolves today. The
file is written whole by rename under the folder's lock, only if it is still
the bytes that were read; the acknowledged record is told the old reverts
were rewritten, so they are not reported missing.
"""

from __future__ import annotations

import re
from pathlib import Path

from modtool import ledger
from modtool.base.events import Event, ref_of
from modtool.core.gamefile import ledger_path, legacy_reverts
from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError
from modtool.ledger import _cache, _journal
from modtool.ledger._cache import signature
from modtool.ledger._store import _key, _memo

# `line: 197` in a block mapping, or `"line": 197` / `line: 197` inside a flow mapping.
_LINE_RE = re.compile(r'(?P<key>"line"|\bline)(?P<sep>\s*:\s*)(?P<n>\d+)')


def plan(events: list[Event]) -> list[tuple[Event, int | str]]:
    """Each legacy revert with the reference that names the same target now."""
    legacy = {id(e) for e in legacy_reverts(events)}
    if not legacy:
        return []
    out = []
    by_line: dict = {}
    for ev in events:
        if id(ev) in legacy:
            target = by_line.get(ev.data.get("line"))
            if target is not None:
                out.append((ev, ref_of(target)))
            continue
        if ev.type != "revert":
            by_line[ev.line] = ev
    return out


def id_warnings(gd) -> list[str]:
    """What ``check`` reminds of the ledger's references: line reverts (name the
    upgrade) and ids copied in an editor with their event (references ambiguous)."""
    raw = ledger.load(gd.ledger_path).events
    out = []
    seen: dict = {}
    for ev in raw:
        i = ev.data.get("id")
        if type(i) is int:
            if i in seen:
                out.append(t("第 {line} 行的事件与第 {first} 行的用了同一个 id {id}（多半是在编辑器里复制的）；请删掉复制出来的那条的 id 行，modtool 会按内容认出它")
                           .format(line=ev.line, first=seen[i], id=i))
            else:
                seen[i] = ev.line
    old = legacy_reverts(raw)
    if old:
        out.append(t("{n} 条撤销记录按行号指向事件（旧版写法，加一行注释就会指错）；运行 modtool upgrade {game} 改为按编号（只改写这些引用）")
                   .format(n=len(old), game=gd.folder_arg))
    return out


def _rewrite(text_lines: list[str], ev: Event, end: int, ref) -> bool:
    """Replace the ``line`` field of the revert on lines [ev.line, end) by ``of``."""
    value = str(ref) if type(ref) is int else ref
    for i in range(ev.line - 1, min(end, len(text_lines))):
        line = text_lines[i]
        m = _LINE_RE.search(line)
        if m is None or int(m.group("n")) != ev.data.get("line"):
            continue
        quoted = m.group("key").startswith('"')
        key = '"of"' if quoted else "of"
        val = value if type(ref) is int or not quoted else f'"{value}"'
        text_lines[i] = line[:m.start()] + key + m.group("sep") + val + line[m.end():]
        return True
    return False


def upgrade(game_dir: Path) -> list[tuple[Event, int | str]]:
    """Rewrite the ledger's line references; returns what was rewritten."""
    path = ledger_path(game_dir)
    if not path.is_file():
        raise UserError(Problem(str(path), "找不到账本；先用 modtool new 建立游戏"))
    with ledger.locked(path, ledger.EXCLUSIVE):
        data = ledger.load(path)
        if data.vanished:
            raise UserError(Problem(str(path), "账本里少了 modtool 确认过的记录；先用 modtool restore 恢复（或 --forget），再升级"))
        todo = plan(data.events)
        if not todo:
            return []
        raw = path.read_bytes()
        if raw.count(b"\r"):
            nl = "\r\n" if b"\r\n" in raw else "\r"
        else:
            nl = "\n"
        text = raw.decode("utf-8", "surrogatepass")
        lines = text.split(nl)
        starts = sorted(e.line for e in data.events if e.line is not None)
        nexts = {a: b for a, b in zip(starts, starts[1:] + [len(lines) + 1])}
        for ev, ref in todo:
            if not _rewrite(lines, ev, nexts.get(ev.line, len(lines) + 1) - 1, ref):
                raise UserError(Problem(str(path), "第 {line} 行的 revert 写法特殊，无法自动改写；请手工把 line: {n} 改为 of: {ref}", ev.line, n=ev.data.get("line"), ref=ref, args={"line": ev.line}))
        new = nl.join(lines).encode("utf-8", "surrogatepass")
        if path.read_bytes() != raw:
            raise UserError(Problem(str(path), "账本在本命令读取之后被改动过（可能是编辑器保存了），这次什么也没写；请重新运行命令"))
        old = [_journal.canonical(ev.type, ev.data) for ev, _ in todo]
        ledger.atomic_write(path, new)
        _journal.rebase(path, lambda a, b: new[a:b], len(new), signature(path.stat()), old)

        _memo.pop(_key(path), None)
        _cache.drop(path)
        return todo
