"""Write one ledger event as block YAML, without ruamel (it is too slow to import
and to run for every appended event).

The output is the subset of YAML that ``_fast`` reads: block mappings under
``- ``, plain scalars only where they cannot be mistaken for anything but a
string, double-quoted scalars with JSON-compatible escapes, ``|-``/``|``
literal blocks for multi-line text that round-trips exactly, and one-line flow
collections of simple scalars.

A value YAML cannot hold (a lone surrogate: half of a UTF-16 pair, e.g. an
emoji cut in two) raises ``Unstorable`` before any text is made; every other
string is written so that it reads back exactly.
"""

from __future__ import annotations

import re

# Plain keys: an identifier (Unicode letters allowed), as _fast.KEY_RE reads it.
KEY_RE = re.compile(r"[^\W\d][\w-]*")

# Words a YAML reader (1.2 core, or 1.1 in other tools) would not read as text.
SPECIAL_WORDS = frozenset(
    "null Null NULL true True TRUE false False FALSE "
    "y Y yes Yes YES n N no No NO on On ON off Off OFF".split()
)

# Words the YAML 1.2 core schema reads as null or bool: keys must avoid them.
CORE_WORDS = frozenset("null Null NULL true True TRUE false False FALSE".split())

# Characters that never appear raw in what we write: C0 controls except tab and
# newline, DEL and C1 controls, the Unicode line/paragraph separators, BOM and
# the non-characters. In double quotes they are written as \uXXXX.
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff"
UNSAFE_RE = re.compile(f"[{_UNSAFE}]")
_NEEDS_ESCAPE_RE = re.compile(f"[\r{_UNSAFE}]")
# A plain scalar may contain none of these (tab and newline included).
_NOT_PLAIN_RE = re.compile(f"[\t\n\r{_UNSAFE}]|: |:$| #")
# libyaml also ends a plain scalar at '?' inside […] / {…}.
_FLOW_NOT_PLAIN_RE = re.compile(f"[\t\n\r{_UNSAFE},\\[\\]{{}}:#?]")
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`.+~<=\\ ")

FLOW_MAX = 100  # longest one-line flow collection written as {…} / […]

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


class Unstorable(ValueError):
    """A value of the event cannot be written to the ledger exactly.

    The message names the field (``body``, ``reply_to.author``,
    ``quotes[0].text``) and the character, in Chinese."""

    def __init__(self, field: str, char: str):
        self.field = field
        self.char = char
        from modtool.base.i18n import t

        super().__init__(t("字段 {field} 含有无法保存的字符 U+{code}（孤立的代理码位）").format(field=field, code=f"{ord(char):04X}"))


class _Surrogate(Exception):
    """Raised where a lone surrogate is met; ``dump_event`` names its field."""


def _show_key(k) -> str:
    text = k if isinstance(k, str) else repr(k)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _find_surrogate(v, path: str = "") -> tuple[str, str] | None:
    """(field path, character) of the first lone surrogate in ``v``, keys included."""
    if isinstance(v, str):
        m = _SURROGATE_RE.search(v)
        return (path, m.group()) if m else None
    if isinstance(v, dict):
        for k, x in v.items():
            sub = f"{path}.{_show_key(k)}" if path else _show_key(k)
            if isinstance(k, str):
                m = _SURROGATE_RE.search(k)
                if m:
                    return sub, m.group()
            found = _find_surrogate(x, sub)
            if found:
                return found
    elif isinstance(v, (list, tuple)):
        for n, x in enumerate(v):
            found = _find_surrogate(x, f"{path}[{n}]")
            if found:
                return found
    return None


def _refuse(event: dict) -> Unstorable:
    found = _find_surrogate(event)
    if found is None:  # pragma: no cover - only called after one was seen
        raise AssertionError("no surrogate found")
    return Unstorable(found[0] or "?", found[1])


def _json_escape_extra(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def double_quoted(s: str) -> str:
    import json

    out = json.dumps(s, ensure_ascii=False)
    if _NEEDS_ESCAPE_RE.search(out):
        # Every string with a surrogate ends up here (plain_ok and literal_ok
        # refuse it): the common path pays nothing for the check.
        if _SURROGATE_RE.search(s):
            raise _Surrogate
        out = _NEEDS_ESCAPE_RE.sub(_json_escape_extra, out)
    return out


def plain_ok(s: str, flow: bool = False) -> bool:
    """True if ``s`` written bare reads back as exactly the string ``s``."""
    if not s or s in SPECIAL_WORDS:
        return False
    c = s[0]
    if c in _INDICATORS or s[-1] == " ":
        return False
    if c.isdigit() and s.isascii():
        return False  # could be an int, float or timestamp
    if (_FLOW_NOT_PLAIN_RE if flow else _NOT_PLAIN_RE).search(s):
        return False
    return True


def literal_ok(s: str) -> str | None:
    """The block indicator ('|-' or '|') if ``s`` can be a literal block, else None."""
    if "\n" not in s or s[0] in " \t\n" or _NEEDS_ESCAPE_RE.search(s):
        return None
    if s[-1] != "\n":
        return "|-"
    if s.endswith("\n\n"):
        return None
    return "|"


def scalar(v, flow: bool = False) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        if v != v:
            return ".nan"
        if v in (float("inf"), float("-inf")):
            return ".inf" if v > 0 else "-.inf"
        r = repr(v)
        if "e" in r and "." not in r:
            mant, exp = r.split("e")
            r = f"{mant}.0e{exp}"
        return r
    if isinstance(v, str):
        return v if plain_ok(v, flow) else double_quoted(v)
    raise TypeError(f"账本里不能写入 {type(v).__name__} 类型的值：{v!r}")


def key_text(k) -> str:
    if isinstance(k, str):
        if KEY_RE.fullmatch(k) and k not in CORE_WORDS:
            return k
        return double_quoted(k)
    if isinstance(k, (bool, int)) or k is None:
        return scalar(k)
    raise TypeError(f"账本里的键只能是文字或整数：{k!r}")


def _simple(v) -> bool:
    return not isinstance(v, (dict, list, tuple)) and not (isinstance(v, str) and "\n" in v)


def flow(v) -> str | None:
    """One-line flow text of a list/dict of simple scalars, or None."""
    if isinstance(v, dict):
        if not all(_simple(x) for x in v.values()):
            return None
        parts = []
        for k, x in v.items():
            kt = key_text(k)
            if kt[0] == '"':
                return None
            parts.append(f"{kt}: {scalar(x, True)}")
        text = "{" + ", ".join(parts) + "}"
    else:
        if not all(_simple(x) for x in v):
            return None
        text = "[" + ", ".join(scalar(x, True) for x in v) + "]"
    return text if len(text) <= FLOW_MAX else None


def _emit_value(out: list[str], head: str, col: int, v) -> None:
    """``head`` is everything before the value ('    key:' or '  -'); the
    value's own lines (if any) are indented to ``col``."""
    if isinstance(v, str) and "\n" in v:
        ind = literal_ok(v)
        if ind is not None:
            out.append(f"{head} {ind}")
            pad = " " * col
            body = v[:-1] if ind == "|" else v
            out.extend(pad + line if line else "" for line in body.split("\n"))
            return
        out.append(f"{head} {double_quoted(v)}")
    elif isinstance(v, dict):
        text = "{}" if not v else flow(v)
        if text is not None:
            out.append(f"{head} {text}")
        else:
            out.append(head)
            _emit_mapping(out, " " * col, col, v)
    elif isinstance(v, (list, tuple)):
        text = "[]" if not v else flow(v)
        if text is not None:
            out.append(f"{head} {text}")
        else:
            out.append(head)
            _emit_sequence(out, col, v)
    else:
        out.append(f"{head} {scalar(v)}")


def _emit_mapping(out: list[str], first: str, col: int, m: dict) -> None:
    """Keys at column ``col``; the first line starts with ``first`` (which may
    end in a '- ' of the sequence item holding this mapping)."""
    prefix = first
    pad = " " * col
    for k, v in m.items():
        _emit_value(out, f"{prefix}{key_text(k)}:", col + 2, v)
        prefix = pad


def _emit_sequence(out: list[str], col: int, seq) -> None:
    pad = " " * col
    for item in seq:
        if isinstance(item, dict) and item:
            _emit_mapping(out, pad + "- ", col + 2, item)
        else:
            _emit_value(out, pad + "-", col + 2, item)


def dump_event(event: dict, *, indent: int = 2) -> str:
    """The YAML text of one event as an item of the ``events:`` block sequence.

    Keys keep the order given; the dash stands at column ``indent`` (2, as in
    a fresh ledger). The text ends with a newline. Raises ``Unstorable`` for
    a lone surrogate anywhere in the event.
    """
    if not isinstance(event, dict) or not event:
        raise TypeError(f"事件应是非空映射：{event!r}")
    out: list[str] = []
    try:
        _emit_mapping(out, " " * indent + "- ", indent + 2, event)
    except _Surrogate:
        raise _refuse(event) from None
    out.append("")
    return "\n".join(out)


_JSON_UNSAFE_RE = re.compile(f"[{_UNSAFE}]")


def _json_escape(m: re.Match) -> str:
    return "\\u%04x" % ord(m.group())


_LINE_ENCODER = None


def _line_encoder():
    """json's C encoder itself, made once: ``JSONEncoder.encode`` builds a new
    one on every call, which is most of the cost of an import's hundred
    thousand events. Same output as JSONEncoder(ensure_ascii=False,
    allow_nan=False, separators=(",", ":")), and so as orjson (``event_lines``)."""
    global _LINE_ENCODER
    if _LINE_ENCODER is None:
        import json
        from json import encoder as _enc

        if _enc.c_make_encoder is not None:
            def _default(o):
                raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

            c = _enc.c_make_encoder({}, _default, _enc.encode_basestring, None, ":", ",", False, False, False)
            _LINE_ENCODER = lambda o: "".join(c(o, 0))  # noqa: E731
        else:  # pragma: no cover - a Python without the C accelerator
            _LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
    return _LINE_ENCODER


# _UNSAFE as UTF-8 in JSON text (where C0 controls are always escaped): each
# pattern starts with a fixed lead byte, which the regex engine finds quickly,
# and none matches across characters. tests/test_ledger_roundtrip.py checks
# them code point by code point.
_UNSAFE_IN_JSON = (
    re.compile(rb"\x7f"),
    re.compile(rb"\xc2[\x80-\x9f]"),
    re.compile(rb"\xe2\x80[\xa8\xa9]"),
    re.compile(rb"\xef(?:\xbb\xbf|\xbf[\xbe\xbf])"),
    re.compile(rb"\xed[\xa0-\xbf]"),
)


def json_bytes_unsafe(data: bytes) -> bool:
    """JSON text (UTF-8) holds a character of _UNSAFE."""
    return any(r.search(data) for r in _UNSAFE_IN_JSON)


def event_lines(events: list[dict], pad: str) -> tuple[bytes, bytes] | None:
    """``events`` as ledger lines (``pad``, the JSON object, LF), UTF-8, and
    as one JSON array, from a single orjson call for them all: an import's
    hundred thousand events in a twentieth of the time of one call each.

    The caller has checked the events are plain JSON data (``_json_plain``).
    None when this way does not apply and the caller goes event by event
    (``event_json``): orjson refuses a value (a lone surrogate, an integer
    beyond 64 bits), a character needs an escape, or the split is not sure.
    The split: between two events the array holds '},{"'. A string never
    holds those bytes (a quote inside a string is always escaped) but a list
    of mappings inside an event does, so the split is made only when the
    array holds exactly one per boundary."""
    try:
        import orjson

        array = orjson.dumps(events)
    except (ImportError, TypeError):  # orjson.JSONEncodeError is a TypeError
        return None
    if json_bytes_unsafe(array):
        return None
    p = pad.encode()
    sep = b'}\n' + p + b'{"'
    lines = array.replace(b'},{"', sep)
    if len(lines) - len(array) != (len(events) - 1) * (len(sep) - 4):  # one '},{"' per boundary, counted by the growth
        return None
    return b"".join((p, memoryview(lines)[1:-1], b"\n")), array  # one copy of the lines, not three


def event_json(event: dict) -> str:
    """The JSON object text of one event, with YAML-unsafe characters escaped.

    Raises ``Unstorable`` for a lone surrogate (JSON would write it as an
    escape that YAML refuses)."""
    text = (_LINE_ENCODER or _line_encoder())(event)
    if _JSON_UNSAFE_RE.search(text):
        if _SURROGATE_RE.search(text):  # raw in the text: ensure_ascii=False keeps them
            raise _refuse(event)
        text = _JSON_UNSAFE_RE.sub(_json_escape, text)
    return text


def dump_event_line(event: dict, *, indent: int = 2) -> str:
    """One event on one line, as a JSON object (valid YAML flow mapping).

    Used for bulk imports: one saved post per line is quick to write and to
    read back (``_fast`` hands the line to the C JSON scanner), and undoing an
    import by hand is deleting lines. Characters YAML does not read raw are
    escaped, so YAML and JSON readers give the same value. Raises
    ``Unstorable`` for a lone surrogate anywhere in the event.
    """
    if not isinstance(event, dict) or not event:
        raise TypeError(f"事件应是非空映射：{event!r}")
    return " " * indent + "- " + event_json(event) + "\n"
