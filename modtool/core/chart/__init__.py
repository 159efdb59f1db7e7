"""Pictures of a day's votes (``modtool chart``): a game's pack says what the
day was (``model.VoteChart``, from the same replay as its vote post), the
drawing is the core's (``draw``), with a font that has every character it
draws (``fonts``). matplotlib is imported only by ``draw``."""
