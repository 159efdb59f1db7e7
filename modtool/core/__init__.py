"""The core: ledger facts, forum posts, markup, vote forms, names, times, rendering, the
pack registry. It speaks no game; the packs above it do (``modtool.packs``)."""
