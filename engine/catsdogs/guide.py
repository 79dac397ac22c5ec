"""The Cats & Dogs guide players read from "📖 How to play" and /rules."""

from engine.guide import GuidePage
from lang import N_

PAGES = (
    GuidePage(
        N_("The goal"),
        N_(
            "Collect 🎀 **ribbons** and be first to 21. 18 cards: 🐱 Cats 1–9 and 🐶 Dogs 1–9, two factions "
            "at war.\n\n"
            "Only the weak cards carry ribbons: a **1** is worth 3🎀, **2–3** 2🎀, **4–6** 1🎀, **7–9** "
            "nothing. After each round you add the ribbons of the cards you collected; after a round in "
            "which someone has 21🎀 or more, the highest total wins (a tie goes to whoever won a trick last)."
        ),
    ),
    GuidePage(
        N_("A trick"),
        N_(
            "1. Everyone plays **any** card from their hand, in turn.\n"
            "2. Add up each faction: all the 🐱 strengths against all the 🐶 strengths.\n"
            "3. The faction with the **higher sum** wins; its **strongest** card's player collects every "
            "card of the losing faction. If all cards are one faction, the strongest collects the weakest.\n"
            "4. Then everyone collects their own card if it is still there. Equal sums: everyone just takes "
            "their own card back into their pile.\n\n"
            "The trick's winner leads the next one; after a tie, the last player leads."
        ),
    ),
    GuidePage(
        N_("Reading the table"),
        N_(
            "**Round · trick** tells where you are; the cards played so far show as 🐱7 or 🐶1·3🎀.\n"
            "**Players**: ▶ marks who plays now; each line shows the total out of 21, this round's ribbons "
            "and collected cards, and the hand size.\n\n"
            "**3–5 players**: 5/4/3 cards each; the rest stay out of play, unseen.\n"
            "**2 players**: five face-up table cards; each trick the table's card plays too. What the table "
            "wins scores for nobody.\n"
            "**Solo**: each trick has a face-up and a hidden card against you; reach 21🎀 within 4 rounds."
        ),
    ),
)
