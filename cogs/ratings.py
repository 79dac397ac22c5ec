"""How skill ratings read to players: the change beside a result, the /stats line, the /leaderboard.

Players see 1000 + 20 × (μ − 3σ) (bot/storage/ratings.py, `shown`): a cautious figure that starts at
1000 and rises as the bot grows surer of a member's skill, so the leaderboard's order (μ − 3σ) and
the figures shown always agree.
"""

from __future__ import annotations

from bot.storage.ratings import PROVISIONAL_GAMES, RatingChange, shown
from lang import _, n_, number


def change_note(change: RatingChange | None) -> str:
    """ " · 📈 rating +23 → 1,412" after a member's score on a rated game's result; nothing for anyone
    unrated."""
    if change is None:
        return ""
    delta = change.shown_after - change.shown_before
    arrow = "📈" if delta >= 0 else "📉"
    return " · " + _(
        "{arrow} rating {change} → {rating}",
        arrow=arrow,
        change=number(delta, signed=True),
        rating=number(change.shown_after),
    )


def games_count(games: int) -> str:
    """ "3 rated games (provisional)": provisional below `PROVISIONAL_GAMES`."""
    if games < PROVISIONAL_GAMES:
        return n_("{count} rated game (provisional)", "{count} rated games (provisional)", games)
    return n_("{count} rated game", "{count} rated games", games)


def rating_text(mu: float, sigma: float, games: int) -> str:
    """ "rating 1,412 from 12 rated games", for /stats."""
    return _("rating {rating} from {games}", rating=number(shown(mu, sigma)), games=games_count(games))


def rank_line(user_id: int, place: int, ranked: int) -> str:
    """ "<@id> is #7 of 23 here.": the asking member's place, under /leaderboard's top."""
    mention = f"<@{user_id}>"
    return _("{member} is #{place} of {ranked} here.", member=mention, place=place, ranked=ranked)


def rank_text(place: int, ranked: int) -> str:
    """ "#2 of 9 here", beside a game's rating in /stats."""
    return _("#{place} of {ranked} here", place=place, ranked=ranked)


def leaderboard_lines(rows: list[dict]) -> list[str]:
    """/leaderboard's lines: members by conservative rating, with their rated games."""
    return [
        f"{place}. <@{row['user_id']}> — {number(shown(row['mu'], row['sigma']))}"
        f" · {games_count(row['games'])}"
        for place, row in enumerate(rows, 1)
    ]
