"""A fast, line-based reader for the ``events:`` part of a ledger.

It understands the subset of YAML that ``dump_event`` writes plus the usual
hand edits (comments, blank lines, other indentation). Whenever it meets
anything it is not sure of it raises ``GiveUp`` and the caller reads the whole
file with ruamel's C-backed safe loader instead, so both paths always give
the same data. Plain scalars are resolved as the YAML 1.2 core schema of
ruamel does; anything that could be a float, a timestamp or another type
gives up.
"""

from __future__ import annotations

import re
try:  # the C scanner, without importing the json package
    from _json import scanstring
except ImportError:  # pragma: no cover
    from json.decoder import scanstring

from modtool.ledger._dump import UNSAFE_RE


class GiveUp(Exception):
    """The fast reader is not sure; read the file with ruamel instead."""


# `key: rest` or `key:` at the start of a (de-indented) line.
KEY_RE = re.compile(r"([^\W\d][\w-]*):(?: +(.*))?$")
INT_RE = re.compile(r"-?(?:0|[1-9][0-9]*)$")
_LITERAL_RE = re.compile(r"\|(-?) *(?:#.*)?$")
# The escapes JSON's scanner and YAML read alike: not \u of a surrogate, low
# (\udc00-\udfff) as well as high; libyaml refuses both.
_ESCAPE_RE = re.compile(r"\\(?:[\"\\bfnrt]|u(?![dD][89a-fA-F])[0-9a-fA-F]{4})")
_PLAIN_START_BAD = frozenset("-?:,[]{}#&*!|>'\"%@`+.~<=\t")
_WORDS = {
    "null": None, "Null": None, "NULL": None, "~": None,
    "true": True, "True": True, "TRUE": True,
    "false": False, "False": False, "FALSE": False,
}
_DIGITS = frozenset("0123456789")
_FLOW_STOP_RE = re.compile(r"[,\[\]{}]")
_FLOW_KEY_RE = re.compile(r"([^\W\d][\w-]*): +")


def _no_float(_s):
    raise GiveUp  # YAML and JSON differ on some float spellings


def _pairs(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise GiveUp  # duplicate keys: JSON keeps the last, YAML refuses
    return d


_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F]")


# Collections nested deeper than this are refused by the careful path
# (_slow.MAX_DEPTH: the root mapping is 1, events 2, an event 3), so the fast
# path gives up on them rather than read them.
MAX_DEPTH = 100
ITEM_DEPTH = 3


def _count_keys(value, depth: int = ITEM_DEPTH) -> int:
    """Number of keys in ``value`` (a collection at ``depth``), nested ones too."""
    if depth > MAX_DEPTH:
        raise GiveUp
    n = 0
    if type(value) is dict:
        n = len(value)
        for v in value.values():
            if type(v) is dict or type(v) is list:
                n += _count_keys(v, depth + 1)
    elif type(value) is list:
        for v in value:
            if type(v) is dict or type(v) is list:
                n += _count_keys(v, depth + 1)
    return n


_DECODER = None


def json_item(text: str) -> dict:
    """A one-line ``{...}`` event read as JSON, where that equals what YAML reads."""
    import json

    if not text.startswith("{") or _SURROGATE_ESCAPE_RE.search(text):
        raise GiveUp
    global _DECODER
    if _DECODER is None:
        _DECODER = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_float)
    try:
        value = _DECODER.decode(text)
    except ValueError:
        raise GiveUp from None  # a comment after it, or not JSON: ruamel decides
    if not isinstance(value, dict):
        raise GiveUp
    # Duplicate keys (JSON keeps the last, YAML refuses). Each key in the text
    # is followed by '":', and strings may hold more of them, so the count in
    # the text is (keys kept + duplicates + extra): equal to the keys kept means
    # no duplicate. Otherwise check pair by pair.
    if text.count('":') != _count_keys(value):
        json.loads(text, object_pairs_hook=_pairs, parse_float=_no_float, parse_constant=_no_float)
    return value


# The start of a ledger the fast path takes: blank and comment lines, then a
# line at column 0 that can start a key of a block mapping. The header is read
# on its own (everything before ``events:``): an indented first key, a flow
# mapping, a directive (%YAML 1.1 reads other words as booleans), ``---``, a
# tag or an anchor could read as a mapping alone and not once ``events:`` at
# column 0 follows it.
_START_RE = re.compile(r"(?: *(?:#[^\n]*)?\n)*[^\s#{}\[\],\-%!&*?|>@`]")


def check_text(text: str) -> None:
    """Characters (and a start) the fast reader does not handle anywhere in the file."""
    if UNSAFE_RE.search(text) or "\r" in text or _START_RE.match(text) is None:
        raise GiveUp


def resolve_plain(s: str):
    """The value of a plain scalar ``s`` (already cut at comments, stripped)."""
    v = _WORDS.get(s, _WORDS)
    if v is not _WORDS:
        return v
    c = s[0]
    if c in _DIGITS or c == "-":
        if INT_RE.match(s):
            return int(s)
        if c == "-" or s.isascii():
            raise GiveUp
        return s
    if c in _PLAIN_START_BAD:
        raise GiveUp
    return s


def _block_plain(val: str):
    if "\t" in val:
        raise GiveUp
    cut = val.find(" #")
    if cut >= 0:
        val = val[:cut]
    val = val.rstrip(" ")
    if ": " in val or val.endswith(":"):
        raise GiveUp
    return resolve_plain(val)


def _after(rest: str) -> None:
    """What may follow a quoted scalar or flow collection on its line:
    nothing, spaces, or spaces and a comment."""
    if rest:
        s = rest.lstrip(" ")
        if s and (s[0] != "#" or rest[0] != " "):
            raise GiveUp


def _double(val: str, start: int = 0) -> tuple[str, int]:
    """Decode the double-quoted scalar at ``val[start]``; returns (value, end)."""
    try:
        s, end = scanstring(val, start + 1, False)
    except Exception:  # JSONDecodeError (or SystemError from _json before json is imported)
        raise GiveUp from None
    if "\\" in val[start:end] and "\\" in _ESCAPE_RE.sub("", val[start + 1 : end - 1]):
        raise GiveUp  # a YAML-only escape (\\x, \\N, \\L, ...) or a surrogate
    return s, end


def _single(val: str, start: int = 0) -> tuple[str, int]:
    i = start + 1
    parts = []
    while True:
        j = val.find("'", i)
        if j < 0:
            raise GiveUp  # multi-line single-quoted scalar
        parts.append(val[i:j])
        if val.startswith("'", j + 1):
            parts.append("'")
            i = j + 2
        else:
            return "".join(parts), j + 1


def _flow_scalar(val: str, i: int):
    c = val[i]
    if c == '"':
        return _double(val, i)
    if c == "'":
        return _single(val, i)
    m = _FLOW_STOP_RE.search(val, i)
    if m is None:
        raise GiveUp
    j = m.start()
    raw = val[i:j].rstrip(" ")
    if not raw or "#" in raw or ":" in raw or "\t" in raw or "?" in raw:
        raise GiveUp
    return resolve_plain(raw), j


def _skip(val: str, i: int) -> int:
    n = len(val)
    while i < n and val[i] == " ":
        i += 1
    if i >= n:
        raise GiveUp
    return i


def _flow(val: str, i: int, depth: int):
    """Parse the one-line flow collection at ``val[i]`` (a collection at
    ``depth``); returns (value, end)."""
    if depth > MAX_DEPTH:
        raise GiveUp
    if val[i] == "[":
        out = []
        i = _skip(val, i + 1)
        if val[i] == "]":
            return out, i + 1
        while True:
            if val[i] in "[{":
                item, i = _flow(val, i, depth + 1)
            else:
                item, i = _flow_scalar(val, i)
            out.append(item)
            i = _skip(val, i)
            c = val[i]
            if c == "]":
                return out, i + 1
            if c != ",":
                raise GiveUp
            i = _skip(val, i + 1)
            if val[i] == "]":
                return out, i + 1
    # flow mapping of plain keys
    d: dict = {}
    i = _skip(val, i + 1)
    if val[i] == "}":
        return d, i + 1
    while True:
        m = _FLOW_KEY_RE.match(val, i)
        if m is None:
            raise GiveUp
        key = m.group(1)
        if key in _WORDS or key in d:
            raise GiveUp
        i = _skip(val, m.end())
        if val[i] in "[{":
            item, i = _flow(val, i, depth + 1)
        else:
            item, i = _flow_scalar(val, i)
        d[key] = item
        i = _skip(val, i)
        c = val[i]
        if c == "}":
            return d, i + 1
        if c != ",":
            raise GiveUp
        i = _skip(val, i + 1)
        if val[i] == "}":
            return d, i + 1


# A whole mapping line at a given indentation, its value sorted out in C:
# key, then one of plain string, simple double-quoted string (no escapes),
# int, or the raw rest for ``Reader.value`` (None: nothing after the colon).
_PLAIN = (
    r"[^ \t\n\-?:,\[\]{}#&*!|>'\"%@`+.~<=0-9]"
    r"(?:[^\t\n :]|:(?! |$)| (?! *(?:#|$)))*"
)
_LINE_RES: dict = {}


def _line_re(col: int):
    m = _LINE_RES.get(col)
    if m is None:
        m = _LINE_RES[col] = re.compile(
            " {%d}([^\\W\\d][\\w-]*):(?: *$| +(?:(?:(%s)|\"([^\"\\\\]*)\"|(-?(?:0|[1-9][0-9]*)))"
            "(?: +#.*| *)$|(.+)$))" % (col, _PLAIN)
        ).match
    return m


# Every line of the events part, one tuple each: indent, dash, then as in
# _line_re (with the double-quoted value kept in its quotes, so that "" is seen).
_EVENT_LINE_RE = re.compile(
    r"^( *)(- +)?(?:([^\W\d][\w-]*):(?: *$| +(?:(?:(%s)|(\"[^\"\\\n]*\")|(-?(?:0|[1-9][0-9]*)))"
    r"(?: +#.*| *)$|(.+)$))|.*$)" % _PLAIN,
    re.M,
)


class Reader:
    """Reads block nodes from ``lines`` (the file split on '\\n')."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.n = len(lines)

    def next_significant(self, i: int) -> int:
        """Index of the first line at or after ``i`` that is not blank or a comment."""
        lines, n = self.lines, self.n
        while i < n:
            line = lines[i]
            s = line.lstrip(" ")
            if s and s[0] != "#":
                if s[0] == "\t":
                    raise GiveUp
                return i
            i += 1
        return n

    def indent(self, i: int) -> int:
        line = self.lines[i]
        return len(line) - len(line.lstrip(" "))

    # -- values ---------------------------------------------------------------

    def value(self, val: str | None, i: int, col: int, in_map: bool, depth: int):
        """The value that starts as ``val`` on line ``i`` of a node at ``col``;
        ``depth``: the nesting depth it has if it is a collection.

        Returns (value, index of the next line to look at).
        """
        if not val or val[0] == "#":
            j = self.next_significant(i + 1)
            if j < self.n:
                ind = self.indent(j)
                line = self.lines[j]
                is_dash = line.startswith("-", ind) and (len(line) == ind + 1 or line[ind + 1] == " ")
                if ind > col:
                    if is_dash:
                        return self.sequence(j, ind, depth)
                    return self.mapping(j, ind, False, depth)
                if ind == col and is_dash and in_map:
                    return self.sequence(j, ind, depth)
            return None, i + 1
        c = val[0]
        if c == '"':
            s, end = _double(val)
            _after(val[end:])
            return s, i + 1
        if c == "'":
            s, end = _single(val)
            _after(val[end:])
            return s, i + 1
        if c == "|":
            m = _LITERAL_RE.match(val)
            if m is None:
                raise GiveUp
            return self.literal(i, col, m.group(1) == "-")
        if c == "[" or c == "{":
            v, end = _flow(val, 0, depth)
            _after(val[end:])
            return v, i + 1
        return _block_plain(val), i + 1

    def literal(self, i: int, col: int, strip: bool) -> tuple[str, int]:
        lines, n = self.lines, self.n
        j = i + 1
        if j >= n or not lines[j].strip(" "):
            raise GiveUp  # empty block or leading blank lines: rare, leave to ruamel
        first = lines[j]
        ind = len(first) - len(first.lstrip(" "))
        if ind <= col or first[ind] == "\t":
            # libyaml refuses a tab right after the spaces of the line that
            # sets the block's indentation (later lines may have one there).
            raise GiveUp
        pad = " " * ind
        out = []
        while j < n:
            line = lines[j]
            if line.startswith(pad):
                out.append(line[ind:])
            elif not line.strip(" "):
                out.append("")
            else:
                break
            j += 1
        if j == n and lines[-1]:
            raise GiveUp  # the file ends inside the block without a newline: "|" keeps none
        while out and not out[-1]:
            out.pop()
        text = "\n".join(out)
        if not strip:
            text += "\n"
        return text, j

    # -- collections ----------------------------------------------------------

    def mapping(self, i: int, col: int, on_dash: bool, depth: int):
        """A block mapping whose keys stand at ``col``, starting on line ``i``.

        ``on_dash``: the first key follows a sequence item's dash on line ``i``.
        The common cases (plain string, int, simple double-quoted string, the
        next key on the next line) are recognised by one regex match per line:
        this loop runs once per line of a large ledger."""
        if depth > MAX_DEPTH:
            raise GiveUp
        lines, n = self.lines, self.n
        match = _line_re(col)
        words = _WORDS
        d: dict = {}
        m = _line_re(0)(lines[i], col) if on_dash else match(lines[i])
        while True:
            if m is None:
                raise GiveUp
            key, pl, dq, iv, raw = m.groups()
            if key in d or key in words:
                raise GiveUp
            if pl is not None:
                d[key] = words.get(pl, pl)
                i += 1
            elif dq is not None:
                d[key] = dq
                i += 1
            elif iv is not None:
                d[key] = int(iv)
                i += 1
            else:
                d[key], i = self.value(raw, i, col, True, depth + 1)
            if i < n:
                m = match(lines[i])
                if m is not None:
                    continue
            i = self.next_significant(i)
            if i >= n:
                return d, i
            ind = self.indent(i)
            if ind < col:
                return d, i
            if ind > col:
                raise GiveUp
            m = match(lines[i])

    def sequence(self, i: int, col: int, depth: int):
        if depth > MAX_DEPTH:
            raise GiveUp
        lines = self.lines
        out = []
        while True:
            line = lines[i]
            rest = line[col + 1 :]
            s = rest.lstrip(" ")
            if not s or s[0] == "#":
                v, i = self.value(None, i, col, False, depth + 1)
            else:
                sub = col + 1 + len(rest) - len(s)
                if s.startswith("- ") or s == "-" or s[0] == "\t":
                    raise GiveUp
                if KEY_RE.match(s):
                    v, i = self.mapping(i, sub, True, depth + 1)
                else:
                    v, i = self.value(s, i, col, False, depth + 1)
            out.append(v)
            i = self.next_significant(i)
            if i >= self.n:
                return out, i
            ind = self.indent(i)
            if ind < col:
                return out, i
            if ind > col:
                raise GiveUp
            line = lines[i]
            if not (line.startswith("-", col) and (len(line) == col + 1 or line[col + 1] == " ")):
                return out, i

    def events(self, start: int) -> list[tuple[int, dict]]:
        """The items of the top-level ``events:`` sequence whose key is on line
        ``start - 1``; each with its 1-based line. Nothing may follow them."""
        try:
            return self._events(start)
        except RecursionError:  # thousands of nested [ or {: not ours to read
            raise GiveUp from None

    def _events(self, start: int) -> list[tuple[int, dict]]:
        """The body of ``events``: the hot loop. One ``findall`` sorts every
        line out in C (one tuple per line); the loop then only handles what it
        finds: a new item (dash + key), a key of the current item with a
        simple value, a blank or comment line. Any other value (literal
        block, flow, nested block) goes to ``Reader.value``, which says where
        to go on."""
        lines = self.lines
        toks = _EVENT_LINE_RE.findall("\n".join(lines[start:]))
        if len(toks) != self.n - start:
            raise GiveUp
        words = _WORDS
        value = self.value
        out: list[tuple[int, dict]] = []
        cur: dict | None = None
        col = -1  # column of the items' dashes
        kc = -1  # column of the current item's keys
        i, total = 0, len(toks)
        while i < total:
            ind, dash, key, pl, dq, iv, raw = toks[i]
            if not key and dash:
                # A whole event on one line as a JSON object (dump_event_line).
                if col < 0:
                    col = len(ind)
                elif len(ind) != col:
                    raise GiveUp
                cur = json_item(lines[start + i][col + len(dash):])
                out.append((start + i + 1, cur))
                kc = -2  # no block keys may follow a one-line item
                i += 1
                continue
            if not key:
                s = lines[start + i].lstrip(" ")
                if s and s[0] != "#":
                    raise GiveUp  # not an item of ours: let ruamel read (and report) it
                i += 1
                continue
            if dash:
                if col < 0:
                    col = len(ind)
                elif len(ind) != col:
                    raise GiveUp
                kc = col + len(dash)
                cur = {}
                out.append((start + i + 1, cur))
            elif len(ind) != kc:
                raise GiveUp
            if key in cur or key in words:
                raise GiveUp
            if pl:
                cur[key] = words.get(pl, pl)
            elif dq:
                cur[key] = dq[1:-1]
            elif iv:
                cur[key] = int(iv)
            else:
                cur[key], j = value(raw or None, start + i, kc, True, ITEM_DEPTH + 1)
                i = j - start
                continue
            i += 1
        return out

    def item_indent(self, start: int) -> int | None:
        i = self.next_significant(start)
        return self.indent(i) if i < self.n else None
