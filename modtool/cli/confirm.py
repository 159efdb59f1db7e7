"""``--force`` on every writing command that may change a result the forum has read (G-R2).

Added to the click tree in one place (``confirm_option``) rather than to each
command's signature: with it, a change to an announced result is written and
listed (``modtool.core.announced``); without it, refused. A command whose own
``--force`` already means "change a settled day" (``close``, ``open``) takes it
for both.
"""

from __future__ import annotations

import functools

from modtool.api import confirmed
from modtool.api import t


def confirm_option(group, guarded) -> None:
    import click

    for name, cmd in getattr(group, "commands", {}).items():
        if name not in guarded or getattr(cmd, "_confirms", False):
            continue
        own = any(p.name == "force" for p in cmd.params)
        if not own:
            cmd.params.append(click.Option(["--force"], is_flag=True, default=False,
                                           help=t("即使会改变论坛上已经公布的结果（G-R2）也记下，并列出这些改变")))
        callback = cmd.callback

        @functools.wraps(callback)
        def run(*args, _callback=callback, _own=own, **kwargs):
            force = kwargs.get("force", False) if _own else kwargs.pop("force", False)
            with confirmed(force):
                return _callback(*args, **kwargs)

        cmd.callback = run
        cmd._confirms = True
