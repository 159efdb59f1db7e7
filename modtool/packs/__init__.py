"""The games shipped with modtool, one package each (``modtool.packs.<id>``)."""
