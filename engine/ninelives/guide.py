"""The Nine Lives guide players read from "📖 How to play" and /rules (each text marked here, worded
in the reader's language where it is shown)."""

from engine.guide import GuidePage
from lang import N_

PAGES = (
    GuidePage(
        N_("The goal"),
        N_(
            "Keep your lives. 2–6 players each start with a stack of 9 ❤️ **life cards** and 3 cat cards.\n\n"
            "The game ends after a round in which someone has no life left; whoever has the most lives "
            "wins.\n\n"
            "At the start you put your 9 lives in order, privately. The 🔝 top card is the one you can "
            "wager first — and the one you lose first."
        ),
    ),
    GuidePage(
        N_("Your turn"),
        N_(
            "There are four cats: ⚪ 🟦 🔺 ⭐. The only rule: **no cat may appear more than 9 times** on the "
            "table.\n\n"
            "1. You may **wager** your top life: put it in front of you, draw as many cards as it shows and "
            "use its **power** this turn.\n"
            "2. Play one card from your hand so that no cat goes above 9 (your hand marks the cards that "
            "fit).\n"
            "3. 🎯 **Perfect nine**: if your card brings one of its cats to exactly 9, you are safe and sit "
            "out the rest of the round.\n"
            "4. Can't play (or won't)? Give up the round — and lose a life."
        ),
    ),
    GuidePage(
        N_("End of a round"),
        N_(
            "A round ends when someone gives up (they lose a life), when only one player is not safe (they "
            "lose a life), or when every cat is at 9 (everyone loses a life).\n\n"
            "Losing a life costs your top life **and every life you wagered** this round. If you did not "
            "lose, your wagered lives go back under your stack, in the order you choose.\n\n"
            "👑 The player with the most cards in hand becomes **Kittyqueen** and starts the next round "
            "(on a tie, the Kittyqueen picks among the tied)."
        ),
    ),
    GuidePage(
        N_("Reading the table"),
        N_(
            "Each cat's bar shows how often it appears: ⚪ `▰▰▰▱▱▱▱▱▱` **3**/9.\n"
            "Each player: ❤️ lives left (🖤 lost), 🃏 cards in hand, and their 🔝 top life with its power — "
            "everyone can see every top life. ▶ marks who plays; 👑 the Kittyqueen.\n\n"
            "**Powers** show as an icon, a name and (draw N), e.g. 🪄 Shapeshift, 🔁 Replace, 🚫 Forbid, "
            "➕ More Allowed. *Limited powers* (the default) keeps the simpler ones; the lobby can switch on "
            "the full set."
        ),
    ),
)
