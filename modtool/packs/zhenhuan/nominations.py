"""Forum posts -> nominations and votes of the 甄嬛 script (ZH-R11).

Nomination: ``提名对象：3号`` + ``提名理由：……``
Vote:       ``投票对象：3号`` (``投票理由`` optional, kept when present)

The strict post form (the core's ``modtool.core.voteform``, as the M42 votes):
- labels and colons are compared after width folding (NFKC), so ``：`` and
  ``:`` are the same; a label counts only when followed by a colon;
- the target runs to the end of its line or to the next label
  (``提名对象：3号提名理由：跳得太急`` names 3号); a reason runs to the next
  label or the end of the text;
- a label twice, or a nomination and a vote in one post, is ambiguous;
- quoted text never counts: callers pass ``own_text`` (``parse_forum_post``
  does it for a ``Post``).

Targets are seat numbers (``3号``, ``3``, ``３号``, ``3 号``, ``#3``) or player
names / aliases; ``resolve_target`` turns one into a seat number given the
grimoire's seats. Characters are secret, so a character name never resolves.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache


from modtool.sdk import Body, fold_name, FormatError, Kind, parse_vote, Post, VoteForm, VoteWords as Words

__all__ = [
    "FormatError",
    "Labels",
    "Nomination",
    "Vote",
    "TargetError",
    "parse_post",
    "parse_forum_post",
    "resolve_target",
    "post_event",
]

@dataclass(frozen=True)
class Labels:
    """Field labels (the game YAML may supply others) and the one judgement call."""

    nominate_target: tuple[str, ...] = ("提名对象", "提名對象")
    nominate_reason: tuple[str, ...] = ("提名理由",)
    vote_target: tuple[str, ...] = ("投票对象", "投票對象")
    vote_reason: tuple[str, ...] = ("投票理由",)
    # ZH-R11 names only 投票对象 for votes; a director may require a reason too.
    vote_reason_required: bool = False

    @classmethod
    def from_mapping(cls, m: dict | None, **options) -> Labels:
        """From the game YAML's ``vote_labels`` (keys as the field names; missing keys keep the defaults)."""
        kw = {k: tuple(str(x) for x in v) for k, v in (m or {}).items() if k in _ROLES and v}
        return cls(**kw, **options)

    def key(self) -> tuple:
        return (
            tuple(self.nominate_target),
            tuple(self.nominate_reason),
            tuple(self.vote_target),
            tuple(self.vote_reason),
        )


@dataclass(frozen=True)
class Nomination:
    target: str  # folded and trimmed, for comparison
    raw_target: str  # as typed, for display
    reason: str
    line: int | None = None  # 1-based line of the 提名对象 label


@dataclass(frozen=True)
class Vote:
    target: str
    raw_target: str
    reason: str = ""  # "" when the post has no 投票理由
    line: int | None = None


@dataclass(frozen=True)
class TargetError:
    """A target that names no seat, or more than one (pasteable reason)."""

    reason: str
    target: str = ""
    candidates: tuple[int, ...] = ()


_ROLES = ("nominate_target", "nominate_reason", "vote_target", "vote_reason")

_WORDS = Words(
    not_a_vote="不是提名或投票帖：没有「{nominate_target}」或「{vote_target}」",
    mixed="格式错误：同一帖里既有提名格式又有投票格式，无法判断；请提名和投票分开发帖",
    twice="格式错误：「{label}」出现了{n}次，无法判断",
    timeout="格式错误：帖子内容无法在限定时间内读取，请说书人人工核对",
)


@lru_cache(maxsize=16)
def _form(key: tuple, vote_reason_required: bool) -> VoteForm:
    """The 甄嬛 post form: a nomination (reason required) before a vote."""
    return VoteForm(
        kinds=(Kind("nominate", key[0], key[1]), Kind("vote", key[2], key[3], reason_required=vote_reason_required)),
        words=_WORDS,
    )


def parse_post(text: str, labels: Labels | None = None) -> Nomination | Vote | FormatError:
    """Parse a post's own text (quotes already removed). Never raises."""
    labels = labels or Labels()
    a = parse_vote(text, _form(labels.key(), labels.vote_reason_required))
    if isinstance(a, FormatError):
        return a
    cls = Nomination if a.kind == "nominate" else Vote
    return cls(target=a.target, raw_target=a.raw_target, reason=a.reason, line=a.line)


def parse_forum_post(post: Post, labels: Labels | None = None) -> Nomination | Vote | FormatError:
    """``parse_post`` on the post's own text: quoted text never counts (ZH-R11, as M42-R5)."""
    body = post.split()
    if not isinstance(body, Body):
        return FormatError(body.reason if hasattr(body, "reason") else "格式错误：帖子内容无法读取，请说书人人工核对")
    return parse_post(body.own, labels)


# "3号", "3", "３号" (folded), "3 号", "#3", "3号位", "No.3"
_SEAT = re.compile(r"^(?:#|no\.?\s*)?(\d{1,3})\s*(?:号位|号|號位|號)?$", re.IGNORECASE)


def _names(seats: Iterable, aliases: Mapping[str, Iterable[str]] | Mapping[str, int] | None) -> dict[str, set[int]]:
    """Folded name -> seat numbers: player names, then aliases.

    ``aliases`` maps a player name (or a seat number) to its aliases, or an
    alias directly to a seat number."""
    seats = list(seats)
    by_player = {fold_name(s.player): s.number for s in seats}
    names: dict[str, set[int]] = {}
    for s in seats:
        names.setdefault(fold_name(s.player), set()).add(s.number)
    for k, v in (aliases or {}).items():
        if isinstance(v, int):
            names.setdefault(fold_name(str(k)), set()).add(v)
            continue
        if isinstance(k, int):
            num = k
        else:
            num = by_player.get(fold_name(k))
            if num is None:
                continue
        for a in [v] if isinstance(v, str) else v:
            if fold_name(a):
                names.setdefault(fold_name(a), set()).add(num)
    return names


def resolve_target(target: str, seats: Iterable, aliases=None) -> int | TargetError:
    """A post's target -> a seat number (``Seat.number``), or why not.

    Seat numbers first (``3号``/``3``/``３号``), then player names and aliases,
    compared folded and trimmed; no fuzzy matching decides, a close name is
    only offered as a hint."""
    seats = list(seats)
    t = fold_name(target)
    numbers = {s.number for s in seats}
    m = _SEAT.match(t)
    if m:
        n = int(m.group(1))
        if n in numbers:
            return n
        return TargetError(f"对象错误：没有{n}号座位（本局共{len(seats)}个座位）", target=target)
    names = _names(seats, aliases)
    hit = names.get(t)
    if hit is None:
        # Case-insensitive latin names are the same name.
        low = {k.casefold(): v for k, v in names.items()}
        hit = low.get(t.casefold())
    if hit and len(hit) == 1:
        return next(iter(hit))
    if hit:
        nums = "、".join(f"{n}号" for n in sorted(hit))
        return TargetError(f"对象错误：「{target}」可以指{nums}，请写座位号", target=target, candidates=tuple(sorted(hit)))
    close = difflib.get_close_matches(t, list(names), n=1, cutoff=0.6)
    hint = ""
    if close:
        n = sorted(names[close[0]])[0]
        hint = f"，是不是「{close[0]}」（{n}号）？"
    return TargetError(f"对象错误：「{target}」不是任何玩家的座位号或名字{hint}", target=target)


@dataclass(frozen=True)
class PostError:
    """A post that cannot become a nominate/vote event, with floor and author."""

    floor: int
    author: str
    reason: str
    not_a_vote: bool = False
    extra: dict = field(default_factory=dict, compare=False)


def post_event(post: Post, day: int, seats: Iterable, aliases=None, labels: Labels | None = None) -> dict | PostError:
    """A forum post -> a ``nominate`` or ``vote`` ledger event dict (modtool.packs.zhenhuan.events),
    or a ``PostError``. The poster is the seat whose player (or alias) is the post's author.

    Whether the nomination/vote is allowed (alive, once a day, …) is
    ``modtool.packs.zhenhuan.day``'s business, not this function's."""
    seats = list(seats)
    where = f"{post.floor}楼 {post.author}"
    parsed = parse_forum_post(post, labels)
    if isinstance(parsed, FormatError):
        return PostError(post.floor, post.author, f"{where}：{parsed.reason}", not_a_vote=parsed.not_a_vote)
    hit = _names(seats, aliases).get(fold_name(post.author))
    if not hit or len(hit) != 1:
        return PostError(post.floor, post.author, f"{where}：发帖账号不在本局座位表里（或对应多个座位）")
    who = next(iter(hit))
    target = resolve_target(parsed.raw_target, seats, aliases)
    if isinstance(target, TargetError):
        return PostError(post.floor, post.author, f"{where}：{target.reason}")
    at = post.time.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(parsed, Nomination):
        return {"type": "nominate", "day": day, "nominator": who, "nominee": target, "at": at, "floor": post.floor}
    return {"type": "vote", "day": day, "voter": who, "nominee": target, "at": at, "floor": post.floor}
