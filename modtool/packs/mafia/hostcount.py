"""A host's published vote count read back from a post (MS-R6: the votes standing when a host
takes over mid-day, or only the last pages were saved).

The common forms, each with its ``Not voting:`` list (any case, ``Not voting (3):`` too):

* the table of Game 1145's Days 1-2 (imported, its cells come as ``Target n voter voter``,
  one row a line);
* the fieldset ``Name [L-n] - voter, voter,`` (the dash before or after the bracket, or
  none; every living player listed, with no voters too);
* ``Name (n) - voter, voter``;
* ``k. Name - n (voter, voter)``.

Only the poster's own text is read (a count inside a quote is someone's quote of it).
Names are the game's: any player of a slot (past ones too) or an alias, in any case, longest
first, so ``Erratus Apathos`` is one name however the cells were joined. Nothing is guessed:
a name that is no player, a row whose number disagrees with its voters, a voter listed twice
is refused, naming the post and the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from modtool.sdk import MarkupError, Problem, UserError
# NO_LYNCH has one home: the day's key for a vote for no lynch.
from modtool.packs.mafia.day import NO_LYNCH, facts, replace_hint, unrecorded_named
from modtool.packs.mafia.messages import Msg

NO_LYNCH_LABELS = ("no lynch", "no-lynch", "nolynch", "no_lynch")  # as hosts and typed standing votes write it
_TAG = regex.compile(r"\[/?[a-z*]+(?:=[^\]\n]*)?\]", regex.I)
_NOT_VOTING = regex.compile(r"not[ \t]+voting[ \t]*(?:\(\s*\d+\s*\))?[ \t]*:", regex.I)
_LEAD_NUMBER = regex.compile(r"^\s*\d+\s*[.)]\s*")
# The bracket as typed, or as an import keeps it from reading as markup (［L-2］, modtool.packs.mafia.phpbb).
_FIELDSET = regex.compile(r"^\s*[-–:]?\s*[\[［]\s*L\s*-?\s*(\d+)\s*[\]］]\s*[-–:]?\s*(.*)$", regex.I)
# A count's title run into its first row: a fieldset's legend has no line break after it ("Vote CountICEninja [L-1]").
_TITLE = regex.compile(r"^\s*(?:incoming\s+)?vote\s*count(?:\s+\d+\.(?:\d+|final))?\s*:?\s*", regex.I)
_PAREN = regex.compile(r"^\s*\((\d+)\)\s*[-–:]?\s*(.*)$")
_NUMBERED = regex.compile(r"^\s*[-–:]\s*(\d+)\s*\((.*)\)\s*$")
_TABLE = regex.compile(r"^\s+(\d+)(?:\s+(.*))?$")
_SEPARATORS = regex.compile(r"^(?:[\s,;/&.]|\band\b)+", regex.I)
_EMPTY_LIST = regex.compile(r"^\s*(?:none|nobody|no one|-|–)?\s*\.?\s*$", regex.I)


@dataclass
class Row:
    target: str  # slot key, or NO_LYNCH
    voters: list[str]  # slot keys, in the host's order
    line: str  # the line as written
    count: int | None = None  # the number the host printed, if the form has one


@dataclass
class Reading:
    post: int
    author: str
    form: str  # "table", "fieldset", "parenthesis", "numbered"
    rows: list[Row] = field(default_factory=list)
    not_voting: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # living slots in neither list: read as not voting

    def votes(self) -> list[tuple[str, str]]:
        """(voter, target) in the host's order: row by row, each row's voters in its order."""
        return [(v, row.target) for row in self.rows for v in row.voters]


def _refuse(post: int, message: str, **args):
    return UserError(Problem(Msg("command line --from-post"), Msg("post #{post}: " + message, post=post, **args)))


class _Names:
    """The game's names for slots, matched at the start of a text, longest first, in any case."""

    def __init__(self, slots, unrecorded=lambda text: None):
        self.unrecorded = unrecorded  # a posting account not in the roster that a text starts with (MS-R4)
        self.labels = sorted({**{k.casefold(): v for k, v in slots.labels.items()},
                              **{lab: NO_LYNCH for lab in NO_LYNCH_LABELS}}.items(), key=lambda kv: -len(kv[0]))

    def at_start(self, text: str) -> tuple[str, int, bool] | None:
        """(slot key, length, whether the name ends at a word boundary) of the longest name ``text`` starts with;
        a name at a boundary wins over a longer one run into the next word."""
        folded = text.casefold()
        run_on = None
        for label, key in self.labels:
            if folded.startswith(label):
                rest = text[len(label):]
                if not rest or not (rest[0].isalnum() or rest[0] == "_"):
                    return key, len(label), True
                run_on = run_on or (key, len(label), False)
        return run_on

    def list(self, text: str, post: int, line: str) -> list[str]:
        """The names of a list ("a, b, c" or "a b c"); a name run into the words after it ends the list."""
        found: list[str] = []
        rest = text.strip()
        while True:
            rest = _SEPARATORS.sub("", rest)
            if not rest or _EMPTY_LIST.match(rest) and not found:
                return found
            hit = self.at_start(rest)
            if hit is None:
                word = regex.split(r"[,;\n]", rest, maxsplit=1)[0].strip()
                account = self.unrecorded(rest)
                if account is not None:  # a replacement the host has not recorded yet: no alias, a replace
                    raise _refuse(post, "in \"{line}\": {hint}", line=line.strip(), hint=replace_hint(account))
                raise _refuse(post, "in \"{line}\", \"{word}\" names no player of the game (declare an alias "
                                    "with modtool alias, or type the votes in)", line=line.strip(), word=word)
            key, length, clean = hit
            found.append(key)
            rest = rest[length:]
            if not clean:
                return found


def read_count(gd, post_number: int, living: list[str]) -> Reading:
    """The vote count the host published in post ``post_number`` (a saved post), checked
    against the slots ``living`` there; refused (``UserError``) when it cannot be read whole."""
    f = facts(gd)
    post = next((p for p in f.posts if p.floor == post_number), None)
    if post is None:
        raise UserError(Problem(Msg("command line --from-post"),
                                Msg("post #{post} is not a saved post of this game (import it first)", post=post_number)))
    split = post.split(keep_tags=True)
    if isinstance(split, MarkupError):
        raise _refuse(post_number, "its text could not be read")
    text = _TAG.sub("\n", split.own)
    names = _Names(f.slots, lambda text: unrecorded_named(gd, text))
    anchor = _NOT_VOTING.search(text)
    rows: list[Row] = []
    forms: list[str] = []
    for raw in (text[:anchor.start()] if anchor else text).splitlines():
        row = _row(raw, names, post_number, forms)
        if row is not None:
            rows.append(row)
    if anchor is None:
        raise _refuse(post_number, "no vote count with a \"Not voting:\" list in the poster's own text (a count "
                                   "in a quote is not read); the forms read: a table, \"Name [L-n] - voters\", "
                                   "\"Name (n) - voters\", \"k. Name - n (voters)\"")
    tail = text[anchor.end():].splitlines()[0] if text[anchor.end():] else ""
    not_voting = names.list(tail, post_number, "Not voting:" + tail)
    reading = Reading(post_number, post.author, forms[0] if forms else "table",
                      [r for r in rows if r.voters or r.count], not_voting)
    _check(reading, rows, living, f.slots, post_number)
    return reading


def _row(raw: str, names: _Names, post: int, forms: list[str]) -> Row | None:
    line = _TITLE.sub("", raw.strip(), count=1)
    numbered = _LEAD_NUMBER.match(line)
    body = line[numbered.end():] if numbered else line
    hit = names.at_start(body)
    if hit is None or not hit[2]:
        return None  # not a row: a title, prose, the host's words
    target, length, _ = hit
    rest = body[length:]
    for form, pattern in (("fieldset", _FIELDSET), ("parenthesis", _PAREN), ("numbered", _NUMBERED), ("table", _TABLE)):
        m = pattern.match(rest)
        if m is None or (form == "numbered") != bool(numbered):
            continue
        count = None if form == "fieldset" else int(m.group(1))
        voters = names.list(m.group(2) or "", post, line)
        forms.append(form)
        return Row(target, voters, line, count)
    return None


def _check(reading: Reading, rows: list[Row], living: list[str], slots, post: int) -> None:
    def name(key: str) -> str:
        return "no lynch" if key == NO_LYNCH else slots.name(key, post)

    seen: dict[str, str] = {}
    for row in rows:
        if row.count is not None and row.count != len(row.voters):
            raise _refuse(post, "\"{line}\" says {n} but names {m} voters", line=row.line, n=row.count, m=len(row.voters))
        if row.target != NO_LYNCH and row.target not in living:
            raise _refuse(post, "\"{line}\": {name} is not alive there", line=row.line, name=name(row.target))
        for v in row.voters:
            if v not in living:
                raise _refuse(post, "\"{line}\": {name} is not alive there", line=row.line, name=name(v))
            if v in seen:
                raise _refuse(post, "{name} votes twice (\"{first}\" and \"{line}\")", name=name(v), first=seen[v], line=row.line)
            seen[v] = row.line
    for k in reading.not_voting:
        if k in seen:
            raise _refuse(post, "{name} both votes (\"{line}\") and is listed as not voting", name=name(k), line=seen[k])
        if k not in living:
            raise _refuse(post, "{name} is listed as not voting but is not alive there", name=name(k))
    reading.added = [k for k in living if k not in seen and k not in reading.not_voting]
