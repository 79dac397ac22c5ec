"""The Mad Cat Sad Cat guide players read from "📖 How to play" and /rules."""

from engine.guide import GuidePage
from lang import N_

PAGES = (
    GuidePage(
        N_("The goal"),
        N_(
            "Collect the most VPs (victory points). 2–5 players take turns rolling five dice; while someone "
            "rolls, everyone else **mooches**: they secretly bet on what the roller will make.\n\n"
            "The game ends when the 💰 supply of VPs runs dry: with 2 or 4 players after that turn, with 3 "
            "or 5 once everyone has had the same number of turns. On a tie, whoever rolled last wins."
        ),
    ),
    GuidePage(
        N_("The dice"),
        N_(
            "Each die has three **mad** cats 🔥1 🔥2 🔥3, two **sad** cats 💧1 💧2 and one **wild** cat "
            "🐾.\n\n"
            "You make poker hands with them: **Two pairs**, **Full house**, **Four of a kind**, **Five of a "
            "kind**. A wild 🐾 joins whichever face you need (all your wilds become the same face).\n\n"
            "🔒 **Lock-in:** the first mad or sad die you set aside locks you in to that kind for your turn "
            "— from then on you may set aside only 🔥 mad or only 💧 sad dice, plus wilds. The lock-in puts "
            "fresh VPs on the other kind's cards and on the 🍯 catpot."
        ),
    ),
    GuidePage(
        N_("Your turn"),
        N_(
            "1. 🎲 **Roll** every die you have not set aside.\n"
            "2. **Set aside** at least one of the dice you just rolled. If you can't, your turn fails.\n"
            "3. **Roll again**, or 🛑 **stop** and take every VP on the 🏆 **inner** card of a hand your "
            "set-aside dice show.\n"
            "4. Five dice set aside and nothing to take: your turn fails and you get nothing. Five wilds "
            "take the whole 🍯 catpot.\n\n"
            "The table's card grid shows each hand's VPs as *outer / inner*: 🤫 the outer card is the "
            "moochers', 🏆 the inner card the roller's."
        ),
    ),
    GuidePage(
        N_("Mooching"),
        N_(
            "When the roller locks in, everyone else secretly picks a **mooch card**: 🤫 Two pairs, Full "
            "house, Four of a kind, Five of a kind, or 💥 **Fail**.\n\n"
            "As soon as the roller's set-aside dice *can be read* as your hand, you reveal your card and the "
            "moochers who picked it split the VPs on that hand's 🤫 *outer* card — even if the roller stops "
            "with something else.\n\n"
            "💥 Fail pays if the roller's turn fails: those moochers split the 🍯 catpot. A pick nobody "
            "reads stays secret."
        ),
    ),
)
