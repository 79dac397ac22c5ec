"""What `/rules` shows: a readable summary of the game and the rulings this table plays by."""

SUMMARY = """\
**Goal:** most VPs when the supply runs dry. 2–5 players.
**Rolling:** roll the dice you haven't set aside and set aside at least one (MC-2) — only mad *or* only \
sad cats, plus wilds. The first mad/sad die **locks you in** (MC-3): 2 VPs go onto the catpot and the \
other kind's cards.
**Mooching** (MC-4): after lock-in everyone else secretly picks a mooch card — two pairs, full house, \
four or five of a kind, or fail. As soon as your set-aside dice *can be read* as a moocher's \
combination they split that outer card (MC-5, MC-6).
**Stopping** (MC-7): after a roll you set dice aside from, take all VPs of an inner card your dice can \
be read as. Can't set aside a die, or five dice and nothing to take: **fail** (MC-9) — fail-moochers \
split the catpot. Five wilds take the catpot (MC-8).
**End** (MC-10): with 2 or 4 players the game ends after the turn that empties the supply; with 3 or 5 \
play continues until the starting player would roll again. Ties go to the most recent roller."""
