"""One parser for vote forms, configured by each game: labelled post forms
(``投票对象：X`` + ``投票理由：…``: ``VoteForm``, ``parse``) and inline actions
(``[b]VOTE: X[/b]``: ``InlineForm``, ``inline_actions``, at the end).

A game describes its forms declaratively and calls ``parse``:

    FORM = VoteForm(
        kinds=(Kind("vote", ("投票对象",), ("投票理由",)),
               Kind("change", ("改票对象",), ("改票理由",))),
        words=Words(not_a_vote="不是投票帖：没有「{vote_target}」", ...),
    )
    parse(own_text, FORM) -> FormAction | FormatError

The rules every form shares (M42-R5, ZH-R11):

- labels and colons are compared after width folding (``modtool.base.text.fold``),
  so ``：`` and ``:`` are the same; a label counts only when a colon follows;
- the target runs to the end of its line or to the next label; a reason runs
  to the next label or to the end of the text;
- a label twice, or fields of two kinds in one post, is ambiguous; the kind is
  the first of ``kinds`` that has a field in the post;
- a kind's target is required, its reason when ``reason_required``;
- ``target`` is folded and trimmed (for comparison), ``raw_target`` kept as typed.

A post in a labelled form holds one action, so ``parse`` returns one
``FormAction``. What the target names, and whether the action is allowed
(change limits, once a day, …), is the game's business. Messages are the
game's words (``Words``); ``{<kind>_target}`` placeholders name a kind's shown labels.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from modtool.core.postform import TIMEOUT, FormatError, blank, compile_labels, fold_map, line_end, raw_span
from modtool.base.text import fold_name

__all__ = ["FormAction", "FormatError", "InlineForm", "Kind", "VoteForm", "Words", "inline_actions", "inline_mentions", "parse"]

# Label patterns are escaped literals followed by ``[^\S\n]*:``: linear time,
# microseconds on a text this short, where the regex timeout (which costs more
# than the match itself) cannot fire; longer texts keep it.
_NO_TIMEOUT_BELOW = 4096
_TARGET_SUFFIXES = ("对象", "對象")


@dataclass(frozen=True)
class Kind:
    """One kind of action a post may carry: its target and reason labels."""

    name: str  # e.g. "vote", "change", "nominate"
    target: tuple[str, ...]
    reason: tuple[str, ...]
    reason_required: bool = True


@dataclass(frozen=True)
class Words:
    """The messages a player is shown. In ``not_a_vote``, ``{<kind>_target}`` is
    that kind's first target label and ``{<kind>_reason}`` its first reason label."""

    not_a_vote: str  # no label at all (chatter)
    mixed: str  # fields of two kinds in one post
    twice: str = "格式错误：「{label}」出现了{n}次，无法判断"
    timeout: str = "格式错误：帖子内容无法在限定时间内读取，请导演人工核对"
    # A line opening with a target label's stem and a colon (``投票：X``):
    # a try with the wrong label. None: such a post is chatter.
    wrong_label: str | None = None  # {label}, {reason_label}


@dataclass(frozen=True)
class FormAction:
    """The action a post carries."""

    kind: str  # a ``Kind.name``
    target: str  # folded and trimmed, for comparison
    raw_target: str  # as typed, trimmed, for display
    reason: str = ""  # as typed, trimmed; "" when an optional reason is absent
    line: int | None = None  # 1-based line of the target label


@dataclass(frozen=True)
class VoteForm:
    """A game's post form: the kinds of action, in precedence order, and its words."""

    kinds: tuple[Kind, ...]
    words: Words
    _compiled: object = field(default=None, init=False, repr=False, compare=False)

    def compiled(self):
        """The label patterns, compiled on first use and kept on the form."""
        c = self._compiled
        if c is None:
            c = _compile(self.kinds, self.words.wrong_label is not None)
            object.__setattr__(self, "_compiled", c)
        return c


def _roles(kinds) -> tuple[str, ...]:
    return tuple(r for k in kinds for r in (f"{k.name}_target", f"{k.name}_reason"))


def _attempt_pattern(kinds):
    """A line that opens with a target label's stem and a colon (``投票：石宽``):
    -> (pattern, stem -> kind name) or (None, {})."""
    kind_of: dict[str, str] = {}
    for k in kinds:
        for lab in k.target:
            f = fold_name(lab)
            for suffix in _TARGET_SUFFIXES:
                f = f.removesuffix(fold_name(suffix))
            if f:
                kind_of.setdefault(f, k.name)
    if not kind_of:
        return None, {}
    alts = "|".join(regex.escape(x) for x in sorted(kind_of, key=len, reverse=True))
    pat = regex.compile(rf"(?m)^[^\S\n]*[【\[(]?[^\S\n]*(?P<stem>{alts})[^\S\n]*:", regex.V1)
    return pat, kind_of


@lru_cache(maxsize=32)
def _compile(kinds: tuple[Kind, ...], attempts: bool):
    roles = _roles(kinds)
    key = tuple(labels for k in kinds for labels in (tuple(k.target), tuple(k.reason)))
    with_colon, bare, role_of, shown = compile_labels(roles, key)
    attempt = _attempt_pattern(kinds) if attempts else (None, {})
    return roles, with_colon, bare, role_of, shown, attempt


@lru_cache(maxsize=4096)
def _fold_target(raw_target: str) -> str:
    """``fold_name`` of a target (targets are few distinct names)."""
    return fold_name(raw_target)


def parse(text: str, form: VoteForm) -> FormAction | FormatError:
    """Parse a post's own text (quotes already removed) in ``form``.

    Never raises; every failure is a ``FormatError`` whose reason can be pasted
    back to the player (``not_a_vote`` set when the post has no label at all)."""
    try:
        return _parse(text, form)
    except TimeoutError:
        return FormatError(form.words.timeout)


def _parse(text: str, form: VoteForm) -> FormAction | FormatError:
    roles, with_colon, bare, role_of, shown, (attempt, stem_kind) = form.compiled()
    words = form.words
    F, src = fold_map(text)
    short = len(F) < _NO_TIMEOUT_BELOW
    ms = list(with_colon.finditer(F) if short else with_colon.finditer(F, timeout=TIMEOUT))

    if not ms:
        b = bare.search(F) if short else bare.search(F, timeout=TIMEOUT)
        if b is not None:
            lab = shown[role_of[b.group(1)]]
            return FormatError(f"格式错误：「{lab}」后面缺少冒号（格式：{lab}：…）")
        a = None if attempt is None else attempt.search(F) if short else attempt.search(F, timeout=TIMEOUT)
        if a is not None:  # tries with the wrong label: listed, with the format to use
            k = stem_kind[a.group("stem")]
            return FormatError(words.wrong_label.format(label=shown[f"{k}_target"], reason_label=shown[f"{k}_reason"]))
        return FormatError(words.not_a_vote.format_map(shown), not_a_vote=True)

    found: dict[str, list] = {}
    for m in ms:
        role = role_of[m.group(1)]
        lst = found.get(role)
        if lst is None:
            found[role] = [m]
        else:
            lst.append(m)
    if len(found) < len(ms):  # some label twice
        for role in roles:
            n = len(found.get(role, ()))
            if n > 1:
                return FormatError(words.twice.format(label=shown[role], n=n))
    present = [k for k in form.kinds if f"{k.name}_target" in found or f"{k.name}_reason" in found]
    if len(present) > 1:
        return FormatError(words.mixed)
    kind = present[0]
    t_role, r_role = f"{kind.name}_target", f"{kind.name}_reason"
    if t_role not in found:
        return FormatError(f"格式错误：缺少「{shown[t_role]}」")
    if kind.reason_required and r_role not in found:
        return FormatError(f"格式错误：缺少「{shown[r_role]}」")

    # Matches come in text order: the next label after a field is the next match.
    starts = [m.start() for m in ms]
    n_f = len(F)
    tm = found[t_role][0]
    t_start, t_pos = tm.span()
    i = bisect_left(starts, t_pos)
    t_end = starts[i] if i < len(starts) else n_f
    # Target: to the end of the line or the next label.
    le = line_end(F, t_pos, t_end)
    if le != -1:
        t_end = le
    raw_target = raw_span(text, src, t_pos, t_end).strip()
    target = _fold_target(raw_target)
    line = F.count("\n", 0, t_start) + 1
    # Reason: to the next label or the end of the text.
    reason = ""
    if r_role in found:
        r_pos = found[r_role][0].end()
        i = bisect_left(starts, r_pos)
        reason = raw_span(text, src, r_pos, starts[i] if i < len(starts) else n_f).strip()

    if not target:
        return FormatError(f"格式错误：「{shown[t_role]}」是空的（对象要和标签写在同一行）")
    if kind.reason_required and blank(reason):
        return FormatError(f"格式错误：「{shown[r_role]}」是空的")
    return FormAction(kind=kind.name, target=target, raw_target=raw_target, reason=reason, line=line)


# --- inline actions (forum mafia: bold or tagged, several to a post) ---------------------


@dataclass(frozen=True)
class InlineForm:
    """Actions written inline rather than as labelled fields, as English forum
    mafia writes them: ``[vote]X[/vote]``, ``[unvote][/unvote]``, or inside a
    bold run ``[b]vote: X[/b]``, ``[b]unvote[/b]``; several in one run are
    taken in order (``[b]unvote Pine; Vote Trendall[/b]``). A game configures
    its words; the rules are these:

    - nothing inside a quote counts, at any depth: ``inline_actions`` reads
      the post's own text with its markup, quotes already gone
      (``Post.split(keep_tags=True)``, the one quote splitter);
    - a bold run splits into clauses at new lines and semicolons, and at a
      comma, full stop, exclamation mark or colon that an action word follows
      ("OK then: vote Alice");
    - a clause is an action only when it *is* the action form: bold prose
      that merely contains the word is not one;
    - an action word also starts a clause when it directly follows another
      action (MS-R1a): ``unvote vote kiku`` is ``unvote; vote kiku``, and
      ``unvote Pine vote Trendall`` is ``unvote Pine; vote Trendall`` when
      ``Pine`` names someone (``resolves``, the game's; without one, any words);
      ``vote Pine or vote Trendall`` stays one vote naming ``Pine or vote Trendall``;
    - inside a vote tag the tag is the form; a vote naming ``no_target``
      (e.g. "no lynch") is kind ``no_target_kind``; a vote naming no one is
      nothing.

    ``inline_actions`` gives ``FormAction`` values with ``target`` and
    ``raw_target`` both as written: what a name means is the game's business."""

    vote_words: tuple[str, ...] = ("vote",)
    unvote_words: tuple[str, ...] = ("unvote",)
    vote_tag: str = "vote"
    unvote_tag: str = "unvote"
    marks: tuple[str, ...] = ("b",)  # BBCode tags whose runs may hold actions
    no_target: str = r"no[\s_-]*lynch"
    no_target_kind: str = "no_lynch"


_ANY_TAG = regex.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", regex.I)


@lru_cache(maxsize=16)
def _inline_patterns(form: InlineForm):
    def alt(words) -> str:
        return "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))

    tags = f"{regex.escape(form.vote_tag)}|{regex.escape(form.unvote_tag)}"
    marks = "|".join(regex.escape(m) for m in form.marks)
    runs = regex.compile(rf"\[(?P<tag>{tags})\](?P<tagged>.*?)\[/(?:{tags})\]|\[(?P<mark>{marks})\](?P<marked>.*?)\[/(?P=mark)\]",
                         regex.I | regex.S | regex.V1)
    words = alt((*form.unvote_words, *form.vote_words))
    clauses = regex.compile(rf"[\n;]+|(?<=[.,!:])\s*(?=(?:{words})\b)", regex.I | regex.V1)
    action = regex.compile(rf"(?:(?P<un>{alt(form.unvote_words)})|(?:{alt(form.vote_words)}))\b\s*:?\s*(?P<target>.*?)[\s.!,]*",
                           regex.I | regex.S | regex.V1)
    # An action word inside a clause that is not an action: "I might vote Pine later".
    mention = regex.compile(rf"\b(?:(?P<un>{alt(form.unvote_words)})|(?:{alt(form.vote_words)}))\b\s*:?\s*(?P<rest>[^\s].*)?",
                            regex.I | regex.S | regex.V1)
    word = regex.compile(rf"\b(?:{words})\b", regex.I | regex.V1)  # MS-R1a: where a run-together action starts
    return runs, clauses, action, regex.compile(form.no_target, regex.I | regex.V1), mention, word


def _inline_clause(text: str, form: InlineForm, pats, forced: str | None = None, resolves=None) -> list[tuple[FormAction | None, str]]:
    """(action or None, its text) for one clause, in order: one, or more run together (MS-R1a)."""
    _runs, _clauses, action, no_target, _mention, word = pats
    text = _ANY_TAG.sub("", text).strip()
    rest = None
    if forced is not None:  # inside a vote tag: the tag is the form
        target = text.strip(" .!,:")
    else:
        m = action.fullmatch(text)
        if not m:
            return [(None, text)]
        forced, target = ("unvote" if m.group("un") else "vote"), m.group("target").strip()
        target, cut = _run_together(target, word, no_target, resolves)
        if cut is not None:
            rest = text[m.start("target") + cut:]
    if forced == "vote" and no_target.fullmatch(target):
        first = FormAction(form.no_target_kind, target, target)
    elif forced == "vote" and not target:
        first = None  # "vote:" with nothing after it names no one
    else:
        first = FormAction(forced, target, target)
    if rest is None:
        return [(first, text)]
    return [(first, text[:len(text) - len(rest)].strip()), *_inline_clause(rest, form, pats, None, resolves)]


def _run_together(target: str, word, no_target, resolves) -> tuple[str, int | None]:
    """MS-R1a: (this action's target, where in ``target`` the next action starts,
    or None). The next word starts a clause when it directly follows this
    action: nothing before it, or words that name someone (``resolves``; any
    words when the game gives none). A target that names someone whole stays whole."""
    def names(text: str) -> bool:
        return resolves is None or bool(no_target.fullmatch(text)) or resolves(text)

    if resolves is not None and target and names(target):
        return target, None
    for m in word.finditer(target):
        before = target[:m.start()].strip(" .!,:;")
        if not before or names(before):
            return before, m.start()
    return target, None


def inline_actions(own: str, form: InlineForm, resolves=None) -> list[FormAction]:
    """The actions of a post's own text with its markup (``Post.split(keep_tags=True).own``:
    quotes removed), in the order written (see ``InlineForm``). ``resolves(text)``:
    does ``text`` name someone in the game (MS-R1a: only then does an action word
    right after it start a new action)."""
    return [act for act, _ in _inline_scan(own, form, resolves) if act is not None]


def inline_mentions(own: str, form: InlineForm, resolves=None) -> list[FormAction]:
    """Marked clauses that are not actions but hold an action word with words
    after it ("[b]I might vote Pine later[/b]"): ``FormAction`` values whose
    ``target`` is the text after the word. Never counted; a game may show them
    to its host when that text names a player."""
    mention = _inline_patterns(form)[4]
    out = []
    for act, clause in _inline_scan(own, form, resolves):
        if act is None:
            for m in mention.finditer(_ANY_TAG.sub("", clause)):
                rest = (m.group("rest") or "").strip()
                if rest:
                    out.append(FormAction("unvote" if m.group("un") else "vote", rest, rest))
    return out


def _inline_scan(own: str, form: InlineForm, resolves=None):
    """(action or None, clause) for each action of each clause of each marked run and vote tag, in order."""
    pats = _inline_patterns(form)
    runs, clauses = pats[0], pats[1]
    for m in runs.finditer(own):
        if m.group("tag") is not None:
            forced = "unvote" if m.group("tag").casefold() == form.unvote_tag.casefold() else "vote"
            yield from _inline_clause(m.group("tagged"), form, pats, forced)
            continue
        for piece in clauses.split(m.group("marked")):
            yield from _inline_clause(piece, form, pats, None, resolves)
