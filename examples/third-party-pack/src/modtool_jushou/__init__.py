"""举手: a show-of-hands majority game, as a modtool game pack (``modtool_jushou.pack:PACK``)."""

__version__ = "0.1.0"
