"""What `/rules` shows: a readable summary of the game and the rulings this table plays by."""

SUMMARY = """\
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
**Solo** (CD-7): five tricks of one hidden and one face-up card; four rounds to reach 21 ribbons."""
