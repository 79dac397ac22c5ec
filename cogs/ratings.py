"""How skill ratings read to players: the change beside a result, the /stats line, the /leaderboard.

Players see 1000 + 20 × (μ − 3σ) (bot/storage/ratings.py, `shown`): a cautious figure that starts at
1000 and rises as the bot grows surer of a member's skill, so the leaderboard's order (μ − 3σ) and
the figures shown always agree.
"""

from __future__ import annotations

from bot.storage.ratings import PROVISIONAL_GAMES, RatingChange, shown


def change_note(change: RatingChange | None) -> str:
    """ " · 📈 rating +23 → 1,412" after a member's score on a rated game's result; nothing for anyone
    unrated."""
    if change is None:
        return ""
    delta = change.shown_after - change.shown_before
    return f" · {'📈' if delta >= 0 else '📉'} rating {delta:+,} → {change.shown_after:,}"


def games_count(games: int) -> str:
    """ "3 rated games (provisional)": provisional below `PROVISIONAL_GAMES`."""
    text = f"{games} rated game{'' if games == 1 else 's'}"
    return f"{text} (provisional)" if games < PROVISIONAL_GAMES else text


def rating_text(mu: float, sigma: float, games: int) -> str:
    """ "rating 1,412 from 12 rated games", for /stats."""
    return f"rating {shown(mu, sigma):,} from {games_count(games)}"


def rank_line(user_id: int, place: int, ranked: int) -> str:
    """ "<@id> is #7 of 23 here.": the asking member's place, under /leaderboard's top."""
    return f"<@{user_id}> is #{place} of {ranked} here."


def rank_text(place: int, ranked: int) -> str:
    """ "#2 of 9 here", beside a game's rating in /stats."""
    return f"#{place} of {ranked} here"


def leaderboard_lines(rows: list[dict]) -> list[str]:
    """/leaderboard's lines: members by conservative rating, with their rated games."""
    return [
        f"{place}. <@{row['user_id']}> — {shown(row['mu'], row['sigma']):,} · {games_count(row['games'])}"
        for place, row in enumerate(rows, 1)
    ]
