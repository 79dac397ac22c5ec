"""What `/rules` shows: a readable summary of the game and the rulings this table plays by."""

SUMMARY = """\
**Goal:** adopt the best-scoring cats into your home. 2–5 players; sanity tokens 5/7/7/6 for 2/3/4/5 \
players.
**Your turn** (CS-1): lose a token if you own the Precious Cat → skip if insane → refill the alley to 3 \
→ three Moon Cats in the alley is **CatSanity!** (everyone loses a token, alley shuffled back, turn \
over) → call an auction *or* adopt one cat.
**Adopt** (CS-5): Sun Cats are free, Moon Cats cost 1 token and do something: Copy Cat copies a Sun \
type (declare it), Ninja steals a random Sun Cat, Recall makes each opponent return 2 cats, Cthulhu \
costs everyone else a token (2 if their home is bigger), Precious scores 9 but bites every turn.
**Mine! Mine! Mine!** (CS-4): bid tokens for every Sun Cat in the alley, once around, caller last. \
**House rule: the minimum winning bid is 1 — if everyone passes nobody takes anything.**
**End** (CS-2): when the deck is empty at the start of a turn, or nobody is sane.
**Scoring** (CS-11): House 3 · Twins 2/8/12 per letter · Chorus 25 for 5+ · Fibonacci 1/4/9/20/40/48 · \
Precious 9 · King/Queen 2 + 2 per other Moon Cat.
The 2-player 28-card variant is not offered (CS-12)."""
