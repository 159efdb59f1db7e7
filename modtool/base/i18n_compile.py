"""Compile the core's message catalogues (``modtool/locale/*/LC_MESSAGES/modtool.po``
to ``.mo``) with Babel, a development tool (the ``test`` extra): modtool itself
reads the ``.mo`` files with the standard library's gettext.

    .venv/bin/python -m modtool.base.i18n_compile
"""

from __future__ import annotations

from pathlib import Path

from modtool.base.i18n import LOCALE


def compile_po(po: Path) -> bytes:
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po, "rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main() -> None:
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        po.with_suffix(".mo").write_bytes(compile_po(po))
        print(f"compiled {po}")


if __name__ == "__main__":
    main()
