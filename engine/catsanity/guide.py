"""The CatSanity guide players read from "📖 How to play" and /rules (each text marked here, worded
in the reader's language where it is shown)."""

from engine.guide import GuidePage
from lang import N_

PAGES = (
    GuidePage(
        N_("The goal"),
        N_(
            "Adopt cats into your home; when play ends, the best-scoring home wins. 2–5 players.\n\n"
            "Everyone starts with a few 🧠 **sanity tokens** (5/7/7/6 for 2/3/4/5 players) and never gets "
            "any back. With none left you are 😵 **insane**: your turns are skipped until the end.\n\n"
            "Play ends when the deck is empty at the start of a turn, or when nobody is sane any more."
        ),
    ),
    GuidePage(
        N_("Your turn"),
        N_(
            "1. If your home holds the 💍 Precious Cat, you lose a 🧠.\n"
            "2. The 🌃 **alley** refills to 3 cats from the deck.\n"
            "3. Three 🌙 Moon Cats in the alley is **CatSanity!** — everyone loses a 🧠, they go "
            "back into the deck and your turn is over.\n"
            "4. Otherwise **adopt** one cat from the alley (☀️ Sun Cats are free, a 🌙 Moon "
            "Cat costs a 🧠), **or** shout 🔨 **Mine! Mine! Mine!** to auction every Sun Cat in the "
            "alley.\n\n"
            "**Auction:** once around the table, starting on your left and ending with you, each player bids "
            "more 🧠 than the last bid or passes. The highest bidder pays and takes all the Sun Cats. "
            "If everyone passes, nobody takes anything."
        ),
    ),
    GuidePage(
        N_("☀️ Sun Cats — the points"),
        N_(
            "🏠 **House Cat**: 3 points each.\n"
            "👯 **Twin Cats** (letters A–H): 2 alone, 8 for a pair of one letter, 12 for three (only with a "
            "Copy Cat).\n"
            "🎶 **Chorus Cats**: nothing until you have 5, then 25.\n"
            "🌀 **Fibonacci Cats**: 1, 4, 9, 20, 40, 48 points for 1, 2, 3 … of them.\n\n"
            "Your home on the table shows each set with its running score (→ **points**), and buttons show "
            "what a cat would add to your score."
        ),
    ),
    GuidePage(
        N_("🌙 Moon Cats — powers for your sanity"),
        N_(
            "Each costs a 🧠 when you adopt it.\n"
            "🪞 **Copy Cat**: becomes any Sun Cat you name (e.g. the missing half of a pair).\n"
            "🥷 **Ninja Cat**: steals a random Sun Cat from the home of an opponent you pick.\n"
            "🕊️ **Recall Cat**: every opponent sends 2 cats of their choice back to the deck.\n"
            "🐙 **Cat of Cthulhu**: every opponent loses a 🧠, two if their home is bigger than yours.\n"
            "💍 **Precious Cat**: 9 points, but costs you a 🧠 at the start of each of your turns.\n"
            "👑 **Moon King** and 👸 **Moon Queen**: 2 points, plus 2 for each other Moon Cat in your "
            "home.\n\n"
            "⚠️ The alley warns you when two Moon Cats lie there: a third one means CatSanity!"
        ),
    ),
)
