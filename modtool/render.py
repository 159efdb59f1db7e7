"""Posts from jinja2 templates, with player text made harmless.

Built-in templates live in ``templates/``; a template of the same path in
``GAME_DIR/templates/`` overrides it. Everything renders in jinja's immutable
sandbox with StrictUndefined. Every ``{{ value }}`` passes through
``finalize``: player text cannot open a BBCode tag (``[`` and ``]`` become
full-width ``［`` ``］``, which reads naturally in Chinese) nor Markdown
markup. Text the template builds itself is wrapped in ``Safe``.
"""

from __future__ import annotations

from pathlib import Path

from modtool.games import data_dir
from modtool.problems import UserError

FORMATS = {"bbcode": "bbcode", "markdown": "md"}


class Safe(str):
    """Text produced by modtool itself (links, tags): not escaped."""


_BB = str.maketrans({"[": "［", "]": "］"})
_MD = str.maketrans({"[": "［", "]": "］", "*": "＊", "_": "＿", "`": "｀", "|": "｜", "<": "＜", ">": "＞", "#": "＃"})


def neutralise(value, fmt: str) -> str:
    if value is None:
        return ""
    if isinstance(value, Safe):
        return str(value)
    text = str(value)
    return text.translate(_BB if fmt == "bbcode" else _MD)


def environment(fmt: str, game_dir: Path | None = None):
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    loaders = []
    if game_dir is not None and (Path(game_dir) / "templates").is_dir():
        loaders.append(jinja2.FileSystemLoader(str(Path(game_dir) / "templates")))
    loaders.append(jinja2.FileSystemLoader(str(data_dir("templates"))))
    env = ImmutableSandboxedEnvironment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=lambda v: neutralise(v, fmt),
    )
    env.globals["safe"] = Safe
    return env


def render(game_id: str, kind: str, fmt: str, context: dict, game_dir: Path | None = None) -> str:
    import jinja2

    if fmt not in FORMATS:
        raise UserError(f"未知的格式「{fmt}」；可用：{'、'.join(FORMATS)}")
    name = f"{game_id}/{kind}.{FORMATS[fmt]}.j2"
    env = environment(fmt, game_dir)
    try:
        template = env.get_template(name)
        return template.render(**context)
    except jinja2.TemplateNotFound:
        raise UserError(f"没有「{kind}」帖子的 {fmt} 模板（{name}）") from None
    except jinja2.TemplateSyntaxError as exc:
        raise UserError(f"模板 {exc.filename or name} 第 {exc.lineno} 行有语法错误：{exc.message}") from None
    except jinja2.UndefinedError as exc:
        raise UserError(f"模板 {name} 用了不存在的变量：{exc.message}") from None
    except jinja2.exceptions.SecurityError as exc:
        raise UserError(f"模板 {name} 做了沙箱不允许的事：{exc}") from None
