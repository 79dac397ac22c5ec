"""The /rules text: a readable summary of each game and the rulings this table plays by."""

from __future__ import annotations

SUMMARIES = {
    "catsanity": """\
**Goal:** adopt the best-scoring cats into your home. 2–5 players; sanity tokens 5/7/7/6 for 2/3/4/5 players.
**Your turn** (CS-1): lose a token if you own the Precious Cat → skip if insane → refill the alley to 3 \
→ three Moon Cats in the alley is **CatSanity!** (everyone loses a token, alley shuffled back, turn over) \
→ call an auction *or* adopt one cat.
**Adopt** (CS-5): Sun Cats are free, Moon Cats cost 1 token and do something: Copy Cat copies a Sun type \
(declare it), Ninja steals a random Sun Cat, Recall makes each opponent return 2 cats, Cthulhu costs \
everyone else a token (2 if their home is bigger), Precious scores 9 but bites every turn.
**Mine! Mine! Mine!** (CS-4): bid tokens for every Sun Cat in the alley, once around, caller last. \
**House rule: the minimum winning bid is 1 — if everyone passes nobody takes anything.**
**End** (CS-2): when the deck is empty at the start of a turn, or nobody is sane.
**Scoring** (CS-11): House 3 · Twins 2/8/12 per letter · Chorus 25 for 5+ · Fibonacci 1/4/9/20/40/48 · \
Precious 9 · King/Queen 2 + 2 per other Moon Cat.
The 2-player 28-card variant is not offered (CS-12).""",
    "madcat": """\
**Goal:** most VPs when the supply runs dry. 2–5 players.
**Rolling:** roll the dice you haven't set aside and set aside at least one (MC-2) — only mad *or* only \
sad cats, plus wilds. The first mad/sad die **locks you in** (MC-3): 2 VPs go onto the catpot and the \
other kind's cards.
**Mooching** (MC-4): after lock-in everyone else secretly picks a mooch card — two pairs, full house, \
four or five of a kind, or fail. As soon as your set-aside dice *can be read* as a moocher's combination \
they split that outer card (MC-5, MC-6).
**Stopping** (MC-7): after a roll you set dice aside from, take all VPs of an inner card your dice can be \
read as. Can't set aside a die, or five dice and nothing to take: **fail** (MC-9) — fail-moochers split \
the catpot. Five wilds take the catpot (MC-8).
**End** (MC-10): with 2 or 4 players the game ends after the turn that empties the supply; with 3 or 5 \
play continues until the starting player would roll again. Ties go to the most recent roller.""",
    "catsdogs": """\
**Goal:** collect cards with ribbons: 1 → 3, 2–3 → 2, 4–6 → 1, 7–9 → 0. First to 21 ribbons.
**A trick** (CD-1, CD-2): everyone plays any card. Sum each faction. The higher faction's strongest \
card wins and collects every card of the losing faction; if all cards are one faction the strongest \
card collects the weakest. Then everyone collects their own card if it's still there. Equal sums: \
everyone just collects their own card.
**Leading** (CD-3): the winner leads; after a tie the last player leads.
**3–5 players** (CD-4, CD-5): 5/4/3 cards each; score your collected ribbons each round; the game ends \
after a round where someone has 21+. Ties go to the most recent trick winner.
**2 players** (CD-6): five face-up table cards take part as a third card; if the table wins, it \
collects and the other player goes first.
**Solo** (CD-7): five tricks of one hidden and one face-up card; four rounds to reach 21 ribbons.""",
    "ninelives": """\
**Goal:** keep your lives. 2–6 players, 9 life cards each, ordered privately at the start (NL-1).
**Your turn** (NL-3): you may **wager** your top life card — draw its number of cards and use its power \
once — then play one card. No cat may appear more than 9 times on the table (NL-2).
**Perfect nine** (NL-4): make a cat on your card reach exactly 9 and you are safe for the round.
**Round end** (NL-5): someone can't (or won't) play — they lose a life; only one player isn't safe — \
they lose a life; every cat is at 9+ — everyone loses a life. Lost: the top life and all wagered lives; \
otherwise wagered lives go to the bottom of your stack.
**Next round** (NL-6): the player with most cards becomes Kittyqueen and starts.
**End** (NL-7): after a round in which someone has no lives left; most lives wins.
Limited powers are the default (NL-11); the lobby can switch on the full set.""",
}


def rules_summary(game: str) -> str:
    return SUMMARIES.get(game, "No summary yet.")
