"""`Results`: what finished games left behind — each member's results and ratings — as read back.

The results and rating changes are written with the move that ends a game (commits.py); the
ratings' rules are ratings.py's.
"""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.models import leaderboard_rows, stats_rows
from bot.storage.ratings import RatingChange

# A result whose seat a computer played for its member at the end (they were away, G-X8) counts as
# played, never as won, and its score is not the member's best.
_BY_COMPUTER = "(CASE WHEN s.computer IS NULL THEN 0 ELSE 1 END)"
STATS_SQL = f"""
SELECT g.game, COUNT(*), SUM(CASE WHEN s.computer IS NULL THEN r.won ELSE 0 END),
       MAX(CASE WHEN s.computer IS NULL THEN r.score END), SUM({_BY_COMPUTER})
  FROM results AS r JOIN games AS g ON g.id = r.game_id
  JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
 WHERE r.user_id = ? AND g.guild_id = ? GROUP BY g.game ORDER BY g.game
"""
LEADERBOARD_SQL = """
SELECT r.user_id, COUNT(*) AS played, SUM(CASE WHEN s.computer IS NULL THEN r.won ELSE 0 END) AS won
  FROM games AS g JOIN results AS r ON r.game_id = g.id
  JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
 WHERE g.guild_id = ? AND g.game = ? AND r.user_id IS NOT NULL
 GROUP BY r.user_id ORDER BY won DESC, played ASC, r.user_id ASC LIMIT ?
"""


class Results:
    """The reads of results and ratings of one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member has results for in this server: {"game", "played", "won", "best",
        "by_computer"} — the last, games a computer finished in their seat (played, never won)."""
        return stats_rows(await self.database.read(STATS_SQL, user_id, guild_id))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by wins at `game` here (fewer played first on a tie): {"user_id", "played", "won"}."""
        return leaderboard_rows(await self.database.read(LEADERBOARD_SQL, guild_id, game, limit))

    async def rating_changes(self, game_id: int) -> dict[int, RatingChange]:
        """What the finished game did to each rated member's rating, by seat; empty if it rated nobody."""
        rows = await self.database.read(
            "SELECT seat, user_id, mu_before, sigma_before, mu_after, sigma_after FROM results "
            "WHERE game_id = ? AND mu_after IS NOT NULL ORDER BY seat",
            game_id,
        )
        return {row[0]: RatingChange(row[0], row[1], (row[2], row[3]), (row[4], row[5])) for row in rows}

    async def member_ratings(self, guild_id: int, user_id: int) -> dict[str, tuple[float, float, int]]:
        """The member's (μ, σ, rated games) per game on this server."""
        rows = await self.database.read(
            "SELECT game, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id = ? AND games > 0",
            guild_id,
            user_id,
        )
        return {game: (mu, sigma, games) for game, mu, sigma, games in rows}

    async def rating_rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
        """The member's place on `game`'s leaderboard here (in its order) and how many it ranks; None for
        a member not rated at that game."""
        rows = await self.database.read(
            "SELECT COUNT(*) FILTER (WHERE r.mu - 3 * r.sigma > me.mu - 3 * me.sigma"
            " OR (r.mu - 3 * r.sigma = me.mu - 3 * me.sigma AND (r.games > me.games"
            " OR (r.games = me.games AND r.user_id < me.user_id)))), COUNT(*) "
            "FROM ratings AS me JOIN ratings AS r ON r.guild_id = me.guild_id AND r.game = me.game "
            "WHERE me.guild_id = ? AND me.game = ? AND me.user_id = ? AND me.games > 0 AND r.games > 0",
            guild_id,
            game,
            user_id,
        )
        before, total = rows[0] if rows else (0, 0)
        return (before + 1, total) if total else None

    async def rating_leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by conservative rating (μ − 3σ) at `game` here: {"user_id", "mu", "sigma", "games"}."""
        rows = await self.database.read(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ? AND games > 0 "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id ASC LIMIT ?",
            guild_id,
            game,
            limit,
        )
        return [{"user_id": u, "mu": mu, "sigma": sigma, "games": games} for u, mu, sigma, games in rows]
