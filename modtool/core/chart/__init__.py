"""Pictures of a day's votes (``modtool chart``): a game's pack says what the
day was (``model.VoteChart``, from the same replay as its vote post), the
drawing is the core's (``draw``), with a font that has every character it
draws (``fonts``). matplotlib is imported only by ``draw``.

The drawing libraries (matplotlib with numpy, fontTools, Pillow: about 170 MB)
are the optional ``chart`` extra, ``pip install 'modtool[chart]'``; a command
that needs them calls ``require`` first, which says that in one line."""

from __future__ import annotations

from modtool.base.problems import Problem, UserError

EXTRA = "chart"
# Top-level import names of what the extra installs, as the commands use them.
DRAWING = ("matplotlib", "fontTools")  # modtool chart
PICTURES = ("PIL",)  # grimoire --png crops the browser's screenshot with Pillow


def require(modules: tuple[str, ...] = DRAWING, where: str = "modtool chart") -> None:
    """Refuse, in one line of the command's language, when ``modules`` are not
    installed (the ``chart`` extra is left out of a plain ``pip install modtool``)."""
    import importlib

    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise UserError(Problem(where, "需要可选的绘图组件（缺少 {module}），请安装：pip install 'modtool[{extra}]'", extra=EXTRA, module=name)) from None
