"""The careful path: ruamel's C-backed safe loader, with every problem turned
into a Chinese message that names the ledger line.

Used for the (small) header always, and for the whole file whenever the fast
reader gives up.
"""

from __future__ import annotations

from modtool.problems import Problem, UserError

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


def yaml_problem(exc: Exception, text: str, source: str, line_offset: int = 0) -> Problem:
    """A ruamel YAMLError as a Chinese problem at ``source:line``."""
    from ruamel.yaml.error import MarkedYAMLError
    from ruamel.yaml.reader import ReaderError

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
    msg = f"YAML 格式错误：{zh}（{raw}）" if zh else f"YAML 格式错误：{raw}"
    return Problem(source, msg, None if line is None else line + line_offset)


def parse_header(text: str):
    """The header text (everything before ``events:``) as Python data.

    Raises ruamel's YAMLError as is."""
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
