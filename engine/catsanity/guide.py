"""The CatSanity guide players read from "📖 How to play" and /rules."""

from engine.catsanity._cards import KIND_EMOJI, TOKENS_BY_PLAYERS
from engine.catsanity._scoring import (
    CHORUS_MIN,
    CHORUS_POINTS,
    FIBONACCI,
    HOUSE_POINTS,
    PRECIOUS_POINTS,
    TWIN_SET,
)
from engine.catsanity.texts import MOON_MARK, SUN_MARK
from engine.guide import GuidePage

_E = KIND_EMOJI
_TOKENS = "/".join(str(TOKENS_BY_PLAYERS[n]) for n in sorted(TOKENS_BY_PLAYERS))

PAGES = (
    GuidePage(
        "The goal",
        "Adopt cats into your home; when play ends, the best-scoring home wins. 2–5 players.\n\n"
        f"Everyone starts with a few 🧠 **sanity tokens** ({_TOKENS} for 2/3/4/5 players) and never gets "
        "any back. With none left you are 😵 **insane**: your turns are skipped until the end.\n\n"
        "Play ends when the deck is empty at the start of a turn, or when nobody is sane any more.",
    ),
    GuidePage(
        "Your turn",
        "1. If your home holds the 💍 Precious Cat, you lose a 🧠.\n"
        "2. The 🌃 **alley** refills to 3 cats from the deck.\n"
        f"3. Three {MOON_MARK} Moon Cats in the alley is **CatSanity!** — everyone loses a 🧠, they go "
        "back into the deck and your turn is over.\n"
        f"4. Otherwise **adopt** one cat from the alley ({SUN_MARK} Sun Cats are free, a {MOON_MARK} Moon "
        "Cat costs a 🧠), **or** shout 🔨 **Mine! Mine! Mine!** to auction every Sun Cat in the alley.\n\n"
        "**Auction:** once around the table, starting on your left and ending with you, each player bids "
        "more 🧠 than the last bid or passes. The highest bidder pays and takes all the Sun Cats. "
        "If everyone passes, nobody takes anything.",
    ),
    GuidePage(
        f"{SUN_MARK} Sun Cats — the points",
        f"{_E['house']} **House Cat**: {HOUSE_POINTS} points each.\n"
        f"{_E['twinA']} **Twin Cats** (letters A–H): {TWIN_SET[1]} alone, {TWIN_SET[2]} for a pair of "
        f"one letter, {TWIN_SET[3]} for three (only with a Copy Cat).\n"
        f"{_E['chorus']} **Chorus Cats**: nothing until you have {CHORUS_MIN}, then {CHORUS_POINTS}.\n"
        f"{_E['fib']} **Fibonacci Cats**: {', '.join(str(p) for p in FIBONACCI[1:])} points for 1, 2, 3 … of "
        "them.\n\n"
        "Your home on the table shows each set with its running score (→ **points**), and buttons show "
        "what a cat would add to your score.",
    ),
    GuidePage(
        f"{MOON_MARK} Moon Cats — powers for your sanity",
        "Each costs a 🧠 when you adopt it.\n"
        f"{_E['copycat']} **Copy Cat**: becomes any Sun Cat you name (e.g. the missing half of a pair).\n"
        f"{_E['ninja']} **Ninja Cat**: steals a random Sun Cat from the home of an opponent you pick.\n"
        f"{_E['recall']} **Recall Cat**: every opponent sends 2 cats of their choice back to the deck.\n"
        f"{_E['cthulhu']} **Cat of Cthulhu**: every opponent loses a 🧠, two if their home is bigger than "
        "yours.\n"
        f"{_E['precious']} **Precious Cat**: {PRECIOUS_POINTS} points, but costs you a 🧠 at the start of "
        "each of your turns.\n"
        f"{_E['moonking']} **Moon King** and {_E['moonqueen']} **Moon Queen**: 2 points, plus 2 for each "
        "other Moon Cat in your home.\n\n"
        "⚠️ The alley warns you when two Moon Cats lie there: a third one means CatSanity!",
    ),
)
