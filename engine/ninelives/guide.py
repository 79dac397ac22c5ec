"""What `/rules` shows: a readable summary of the game and the rulings this table plays by."""

SUMMARY = """\
**Goal:** keep your lives. 2–6 players, 9 life cards each, ordered privately at the start (NL-1).
**Your turn** (NL-3): you may **wager** your top life card — draw its number of cards and use its power \
once — then play one card. No cat may appear more than 9 times on the table (NL-2).
**Perfect nine** (NL-4): make a cat on your card reach exactly 9 and you are safe for the round.
**Round end** (NL-5): someone can't (or won't) play — they lose a life; only one player isn't safe — \
they lose a life; every cat is at 9+ — everyone loses a life. Lost: the top life and all wagered lives; \
otherwise wagered lives go to the bottom of your stack.
**Next round** (NL-6): the player with most cards becomes Kittyqueen and starts.
**End** (NL-7): after a round in which someone has no lives left; most lives wins.
Limited powers are the default (NL-11); the lobby can switch on the full set."""
