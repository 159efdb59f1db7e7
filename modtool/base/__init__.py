"""The base: what every other part of modtool stands on and that speaks of no
game, no ledger and no forum: words in the director's language and their
catalogues (``i18n``), problems with their place (``problems``), names and
text folding (``text``), times and the wall clock (``times``), the shipped
data files (``paths``) and the ledger's record of one fact (``events``).
Nothing here imports anything of modtool outside this package."""
