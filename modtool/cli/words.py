"""click's and typer's own words in help and usage errors, in Chinese.

The commands' help texts are Chinese (English for an English game,
``modtool.core.i18n``); the frame click and typer put around them (``Usage:``,
``Options``, ``[required]``, ``Show this message and exit.``, range errors)
is English and comes through Python's gettext hooks. ``install("zh")`` puts
this message catalogue into those hooks, so a director reads one language;
``install("en")`` leaves click's own English. A word missing here stays as
click wrote it.
"""

from __future__ import annotations

CATALOGUE = {
    "Usage:": "用法:",
    "Options": "选项",
    "Arguments": "参数",
    "Commands": "命令",
    "Positional arguments": "位置参数",
    "Show this message and exit.": "显示这份说明并退出。",
    "required": "必填",
    "default: {default}": "默认：{default}",
    "(dynamic)": "（运行时决定）",
    "env var: {var}": "环境变量：{var}",
    "deprecated": "已弃用",
    "Aborted!": "已中止。",
    "Error: {message}": "错误：{message}",
    "Try '{command} {option}' for help.": "用 '{command} {option}' 查看说明。",
    "Missing argument": "缺少参数",
    "Missing option": "缺少选项",
    "Missing parameter": "缺少参数",
    "Missing parameter: {param_name}": "缺少参数：{param_name}",
    "Missing command.": "缺少命令。",
    "No such command {name!r}.": "没有命令 {name!r}。",
    "No such option {name!r}.": "没有选项 {name!r}。",
    "Invalid value for {param_hint}: {message}": "{param_hint} 的值不对：{message}",
    "Invalid value: {message}": "值不对：{message}",
    "{value} is not in the range {range}.": "{value} 不在范围 {range} 之内。",
    "{value!r} is not a valid {number_type}.": "{value!r} 不是有效的{number_type}。",
    "integer": "整数",
    "float": "小数",
    "Choose from:\n\t{choices}": "可选：\n\t{choices}",
    "{name} {filename!r} does not exist.": "{name} {filename!r} 不存在。",
    "{name} {filename!r} is a directory.": "{name} {filename!r} 是文件夹。",
    "{name} {filename!r} is a file.": "{name} {filename!r} 是文件。",
    "file": "文件",
    "directory": "文件夹",
    "path": "路径",
    # typer's completion options (their help is plain text, not through gettext)
    "Install completion for the current shell.": "为当前的 shell 安装命令补全。",
    "Show completion for the current shell, to copy it or customize the installation.":
        "显示当前 shell 的命令补全脚本，可以复制或自行安装。",
}

_MODULES = ("click.core", "click.formatting", "click.types", "click.exceptions", "click.decorators",
            "click.parser", "click.termui", "click.utils", "typer.core")
_original_help: dict[int, tuple[object, str]] = {}  # id(OptionInfo) -> (info, its English help)


# click writes English: a language without a catalogue here reads click's own words.
CATALOGUES = {"zh": CATALOGUE}


def _words(language: str):
    catalogue = CATALOGUES.get(language, {})
    return lambda message: catalogue.get(message, message)


def install(language: str = "zh") -> None:
    """Put the words of ``language`` into click's and typer's gettext hooks
    (Chinese from this catalogue; any other language: click's own English)."""
    import importlib

    hook = _words(language)
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # a click or typer without that module
            continue
        if hasattr(module, "_"):
            module._ = hook
    try:  # the help of typer's completion options is fixed at import, in their OptionInfo defaults
        import inspect

        from typer import completion

        for fn in (getattr(completion, "_install_completion_placeholder_function", None),
                   getattr(completion, "_install_completion_no_auto_placeholder_function", None)):
            if fn is None:
                continue
            for p in inspect.signature(fn).parameters.values():
                info = p.default
                if isinstance(getattr(info, "help", None), str):
                    info_, english = _original_help.setdefault(id(info), (info, info.help))
                    info.help = hook(english)
    except Exception:  # noqa: BLE001 - words only: a typer that differs keeps its English
        pass
