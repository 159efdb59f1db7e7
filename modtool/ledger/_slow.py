"""The careful path: ruamel's C-backed safe loader, with every problem turned
into a Chinese message that names the ledger line.

Used for the (small) header always, and for the whole file whenever the fast
reader gives up.

A hand-edited file is untrusted: before any Python data is built, its YAML
event stream is scanned (iteratively, by the C parser) and refused when it
nests deeper than ``MAX_DEPTH``, when its aliases stand for more than
``MAX_ALIAS_NODES`` nodes in all or number more than ``MAX_ALIASES`` (the
"billion laughs"), when an alias refers to its own anchor, or when the header
is longer than ``MAX_HEADER_CHARS``. Without this, a few lines of aliases
keep ``modtool check`` busy for minutes and deep nesting ends in a
RecursionError.
"""

from __future__ import annotations

from modtool.base.i18n import Message
from modtool.base.problems import Problem, UserError

MAX_DEPTH = 100  # nested collections; a ledger needs about 6
MAX_ALIASES = 1000  # aliases (*name) in one file
MAX_ALIAS_NODES = 100_000  # nodes the aliases stand for, counted expanded
MAX_HEADER_CHARS = 4 * 1024 * 1024  # the part before events:, in characters

_PROBLEMS_ZH = [
    # (fragment of libyaml/ruamel's message, Chinese explanation)
    ("mapping values are not allowed", "这里不能出现「冒号+空格」；含有「: 」的文字请加引号"),
    ("did not find expected key", "缩进不对，或上一项没有写完整"),
    ("did not find expected '-' indicator", "列表项的缩进不一致"),
    ("did not find expected ',' or ']'", "方括号 [ ] 没有配对"),
    ("did not find expected ',' or '}'", "花括号 { } 没有配对"),
    ("found unexpected end of stream", "引号没有闭合（文件到头了）"),
    ("found character '\\t'", "不能用 Tab 缩进，请改用空格"),
    ("found a tab character", "不能用 Tab 缩进，请改用空格"),
    ("found duplicate key", "同一个映射里有重复的键"),
    ("found undefined alias", "引用了未定义的锚点（*…）"),
    ("found another document", "文件里有第二个文档（---）；账本只能有一个"),
    ("could not find expected ':'", "缺少冒号，或引号没有闭合"),
    ("found unknown escape character", "双引号里有无法识别的转义（\\…）"),
    ("found unexpected ':'", "这里不能出现冒号"),
    ("found character that cannot start any token", "这个字符不能出现在这里（可能需要加引号）"),
    ("block sequence entries are not allowed", "这里不能开始列表（- ）"),
    ("expected <block end>", "缩进不对：这一行和上面的结构对不上"),
    ("could not determine a constructor", "无法识别的标签（!…）"),
    ("control characters are not allowed", "文件里有不可见的控制字符"),
]


def loader_class():
    try:
        from ruamel.yaml.cyaml import CSafeLoader

        return CSafeLoader
    except ImportError:  # no ruamel.yaml.clib: slower, same results
        from ruamel.yaml.loader import SafeLoader

        return SafeLoader


def _limit_error():
    """The YAMLError subclass ``scan_limits`` raises (built lazily: ruamel is
    imported only by the commands that read a ledger)."""
    global _LimitError
    if _LimitError is None:
        from ruamel.yaml.error import YAMLError

        class LimitError(YAMLError):
            """The document is beyond a limit; ``message`` is a message id with
            ``args`` (modtool.base.problems), ``line`` 1-based."""

            def __init__(self, message: str, line: int, **args):
                super().__init__(message)
                self.message = message
                self.line = line
                self.args_ = args

        _LimitError = LimitError
    return _LimitError


_LimitError = None


def scan_limits(text: str, header_only: bool) -> None:
    """Refuse ``text`` if it is beyond the limits above, without building it.

    Walks the event stream of the C parser with an explicit stack (no
    recursion), counting for every anchor the nodes it stands for. With
    ``header_only`` the whole text is the header; otherwise the header is
    what precedes the top-level ``events`` key. Raises the YAMLError
    subclass of ``_limit_error()``; a syntax error is raised by the parser
    as is."""
    if header_only and len(text) > MAX_HEADER_CHARS:
        _too_big(text, MAX_HEADER_CHARS)
    from ruamel.yaml.events import (
        AliasEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    refuse = _limit_error()
    loader = loader_class()(text)
    get_event = loader.get_event
    sizes: dict[str, int] = {}  # anchor -> nodes it stands for (-1 while still open)
    counts = [0]  # nodes so far in each open collection (index 0: the stream)
    anchors: list[str | None] = [None]  # the anchor of each open collection
    depth = 0
    aliases = 0
    expanded = 0
    root_items = 0  # nodes directly in the top-level collection (keys and values)
    try:
        while True:
            event = get_event()
            cls = event.__class__
            if cls is ScalarEvent:
                counts[depth] += 1
                if event.anchor is not None:
                    sizes[event.anchor] = 1
                if depth == 1:
                    if not header_only and root_items % 2 == 0 and event.value == "events":
                        if event.start_mark.index > MAX_HEADER_CHARS:
                            _too_big(text, MAX_HEADER_CHARS)
                    root_items += 1
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                if depth == 1:
                    root_items += 1
                depth += 1
                if depth > MAX_DEPTH:
                    raise refuse(
                        "嵌套太深（超过 {limit} 层的列表或映射）；账本用不到这么多层，请检查这里的括号或缩进",
                        event.start_mark.line + 1, limit=MAX_DEPTH,
                    )
                counts.append(1)
                anchors.append(event.anchor)
                if event.anchor is not None:
                    sizes[event.anchor] = -1  # open: an alias to it now would be a cycle
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                n = counts.pop()
                anchor = anchors.pop()
                depth -= 1
                if anchor is not None:
                    sizes[anchor] = n
                counts[depth] += n
            elif cls is AliasEvent:
                if depth == 1:
                    root_items += 1
                name = event.anchor
                line = event.start_mark.line + 1
                n = sizes.get(name)
                if n is None:
                    continue  # undefined: the composer says so in its own words
                if n < 0:
                    raise refuse("别名 *{name} 引用了包含它自己的锚点 &{name}（循环引用）", line, name=name)
                aliases += 1
                expanded += n
                if aliases > MAX_ALIASES:
                    raise refuse("别名（*…）太多：超过 {limit} 个；请把引用的内容直接写出来", line, limit=MAX_ALIASES)
                if expanded > MAX_ALIAS_NODES:
                    raise refuse(
                        "别名 *{name} 展开后太大：全部别名展开后超过 {limit} 个节点（可能是层层嵌套的别名）；请把引用的内容直接写出来",
                        line, name=name, limit=MAX_ALIAS_NODES,
                    )
                counts[depth] += n
            elif cls is StreamEndEvent:
                return
    finally:
        loader.dispose()


def _too_big(text: str, limit: int):
    line = text.count("\n", 0, limit) + 1
    raise _limit_error()(
        "账本开头的设置部分（events: 之前）太大：超过 {mb} MB；"
        "名单和选项用不到这么多，请检查是否误粘贴了别的内容",
        line, mb=limit // (1024 * 1024),
    )


def yaml_problem(exc: Exception, text: str, source: str, line_offset: int = 0) -> Problem:
    """A ruamel YAMLError as a Chinese problem at ``source:line``."""
    from ruamel.yaml.error import MarkedYAMLError
    from ruamel.yaml.reader import ReaderError

    if _LimitError is not None and isinstance(exc, _LimitError):
        return Problem(source, exc.message, exc.line + line_offset, args=exc.args_)
    line = None
    raw = str(exc)
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            line = mark.line + 1
        raw = " ".join(str(x) for x in (exc.context, exc.problem) if x)
    elif isinstance(exc, ReaderError):
        pos = getattr(exc, "position", None)
        if isinstance(pos, int):
            line = text.count("\n", 0, pos) + 1
        raw = f"{exc.reason}: {exc.character!r}"
    zh = next((z for frag, z in _PROBLEMS_ZH if frag in raw), None)
    msg = Message("YAML 格式错误：{why}（{raw}）", why=Message(zh), raw=raw) if zh else Message("YAML 格式错误：{raw}", raw=raw)
    return Problem(source, msg, None if line is None else line + line_offset)


def parse_header(text: str):
    """The header text (everything before ``events:``) as Python data.

    Raises ruamel's YAMLError as is, and its subclass from ``scan_limits``
    (which ``yaml_problem`` words) for a header beyond the limits."""
    scan_limits(text, header_only=True)
    loader = loader_class()(text)
    try:
        node = loader.get_single_node()
        return None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()


def read_full(text: str, source: str) -> tuple[dict, list[tuple[int, object]], int | None, int]:
    """Read the whole ledger with ruamel: (header, [(line, item)], column of the
    items' dashes, 0-based line of the ``events:`` key).

    Raises UserError with every problem of the file's shape."""
    from ruamel.yaml.error import YAMLError

    try:
        scan_limits(text, header_only=False)
    except YAMLError as exc:
        raise UserError(yaml_problem(exc, text, source)) from None
    except UnicodeEncodeError as exc:  # a str that no file could hold (a lone surrogate)
        line = text.count("\n", 0, exc.start) + 1
        raise UserError(Problem(source, "账本里有无法保存的字符（孤立的代理码位）", line)) from None
    loader = loader_class()(text)
    try:
        try:
            root = loader.get_single_node()
        except YAMLError as exc:
            raise UserError(yaml_problem(exc, text, source)) from None
        if root is None:
            raise UserError(Problem(source, "账本是空的：应有开头的设置和最后的 events: 列表", 1))
        if root.id != "mapping":
            raise UserError(
                Problem(source, "账本开头应是映射（game: …、roster: … 这样的「键: 值」）", root.start_mark.line + 1)
            )
        pairs = root.value
        idx = next(
            (k for k, (key, _) in enumerate(pairs) if key.id == "scalar" and key.value == "events"
             and key.tag.endswith(":str")),
            None,
        )
        if idx is None:
            raise UserError(
                Problem(source, "账本缺少 events: 列表（它应是文件的最后一项）", root.end_mark.line + 1)
            )
        problems = []
        key_node, seq = pairs[idx]
        if idx != len(pairs) - 1:
            after = pairs[idx + 1][0]
            problems.append(
                Problem(source, "events: 必须是账本的最后一项；请把它后面的内容移到它前面", after.start_mark.line + 1)
            )
        if seq.id == "scalar" and seq.tag.endswith(":null"):
            item_nodes = []
        elif seq.id != "sequence":
            problems.append(Problem(source, "events: 应是事件列表（每项以「- type: …」开头）", seq.start_mark.line + 1))
            item_nodes = []
        else:
            item_nodes = seq.value
        col = seq.start_mark.column if item_nodes else None
        try:
            data = loader.construct_document(root)
        except YAMLError as exc:
            raise UserError(problems + [yaml_problem(exc, text, source)]) from None
        if problems:
            raise UserError(problems)
        items = data.pop("events", None) or []
        lines = [n.start_mark.line + 1 for n in item_nodes]
        _check_tail(text, root, source)
        return data, list(zip(lines, items)), col, key_node.start_mark.line
    finally:
        loader.dispose()


def _check_tail(text: str, root, source: str) -> None:
    """Only comments and blank lines may follow the events (no '...' marker)."""
    lines = text.split("\n")
    for n in range(root.end_mark.line, len(lines)):
        if lines[n].startswith("..."):
            raise UserError(Problem(source, "events: 列表之后只能有注释或空行，不能有「...」", n + 1))
