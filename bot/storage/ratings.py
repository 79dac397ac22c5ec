"""Skill ratings: a Weng–Lin rating (μ, σ) per member, per game, per server, with openskill's
Plackett–Luce model, updated in the transaction that stores a game's result.

Who is rated, and how (README "Ratings", docs/rulings.md G-X10):

- Only a game played to its end with a result is rated; an abandoned game has none (G-X5).
- Every seat takes part, ranked by the final standings: the winners first (tied with each other),
  then the other seats by score, equal scores tied.
- A computer seat (a computer player added in the lobby, or one that took the seat of a member who
  left, G-X4) plays at its level's fixed rating, `COMPUTER_RATINGS`, which never changes.
- A member whose seat a computer finished for them (they were away, G-X8) is rated below every seat
  played to the end by its own player: the game counts as played, never won, as in /stats.
- A game rates nobody unless at least two members hold seats at its end: a member alone against
  computers is not rated.

A game's rating changes are stored with its result, on each rated seat's row of `results`; a game
that already has them is never rated again, whether its result is written twice or after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.storage.models import FinalResult

MODEL = PlackettLuce()
"""openskill's defaults: a new member starts at μ = 25, σ = 25/3."""
COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (20.0, 1.0),
    "normal": (25.0, 1.0),
    "hard": (30.0, 1.0),
}
"""(μ, σ) of each computer level; fixed, so beating a computer moves only its human opponents."""
PROVISIONAL_GAMES = 5
"""A member with fewer rated games than this at a game is shown as provisional."""


def conservative(mu: float, sigma: float) -> float:
    """μ − 3σ: what the member's skill is almost surely above; leaderboards order by it."""
    return mu - 3 * sigma


def shown(mu: float, sigma: float) -> int:
    """The rating players see: 1000 + 20 × (μ − 3σ), openskill's ordinal scaled; a new member has 1000."""
    return round(MODEL.rating(mu, sigma).ordinal(3.0, 20.0, 1000.0))


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one member's rating."""

    seat: int
    user_id: int
    before: tuple[float, float]
    after: tuple[float, float]

    @property
    def shown_before(self) -> int:
        return shown(*self.before)

    @property
    def shown_after(self) -> int:
        return shown(*self.after)


def standings(scores: Sequence[int], winners: Sequence[int], away: Sequence[int] = ()) -> list[int]:
    """Each seat's place (0 best, ties share a place): winners, then the others by score, then the
    `away` seats (finished by a computer for their member), tied last."""

    def key(seat: int) -> tuple[int, int]:
        if seat in away:
            return (2, 0)
        return (0 if seat in winners else 1, -scores[seat])

    keys = sorted({key(seat) for seat in range(len(scores))})
    return [keys.index(key(seat)) for seat in range(len(scores))]


GAME_ENDS = (
    "SELECT g.id, s.seat, s.user_id, s.computer, g.guild_id, g.game, "
    "EXISTS (SELECT 1 FROM results AS c WHERE c.game_id = g.id AND c.mu_after IS NOT NULL), "
    "r.mu, r.sigma, r.games "
    "FROM games AS g LEFT JOIN seats AS s ON s.game_id = g.id LEFT JOIN ratings AS r "
    "ON r.guild_id = g.guild_id AND r.game = g.game AND r.user_id = s.user_id "
    "WHERE g.id {ids} ORDER BY g.id, s.seat"
)
"""The seats of the games at their end, (game, seat, user_id, computer level), each with what rating
needs: its server, its game, whether it is rated already and the seat's member's rating (μ, σ, rated
games), or NULLs for a member with none yet; one row with no seat for a game that has none, none for
a game that does not exist. Nothing is locked: the ratings are written only if unchanged since
(`RATINGS_WRITE`)."""
GAME_END = GAME_ENDS.replace("{ids}", "= ?")
"""`GAME_ENDS` of one game: the usual case, which PostgreSQL plans better than a list of one."""
RATINGS_WRITE = (
    "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) "
    "SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 + v.column7, v.column8 "
    "FROM {rows} WHERE true "
    "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = excluded.games, updated_at = excluded.updated_at "
    "WHERE ratings.games = (SELECT v.column6 FROM {rows} WHERE v.column1 = ratings.guild_id "
    "AND v.column2 = ratings.game AND v.column3 = ratings.user_id) "
    "RETURNING user_id"
)
"""Each member's new rating, from the one read at the game's end, whose number of rated games it
names: created if they had none, replaced if they still have that many. A member whose rating
another game changed since (or created) is left out of the rows returned (`RatingsChanged`). The
rows go in one order in every transaction, so two writing the same members wait in turn."""
RATINGS_WRITE_KINDS = ("id", "text", "id", "real", "real", "int", "int", "time")
Change = tuple[float, float, float, float]
"""(μ, σ) of a seat's member before a game and after it: what the game did to their rating."""

Member = tuple[int, str, int]
"""(guild_id, game, user_id): whose rating, at which game, on which server."""
Rating = tuple[float, float, int]
"""(μ, σ, rated games) of a member."""


class RatingsChanged(Exception):
    """A member's rating changed (or was created) between a game's end reading it and rating the game
    from it: another game of theirs ended meanwhile. The transaction is undone and run again
    (postgres.py `again_after_conflicts`), from the new rating."""


@dataclass(frozen=True)
class GameEnd:
    """What rating a finished game needs, read with its result (`GAME_ENDS`, by `game_ends`)."""

    game_id: int
    guild_id: int
    game: str
    seats: tuple[tuple[int, int | None, str | None], ...]
    """(seat, user_id, computer level) of each seat at the end."""
    result: FinalResult
    rated: bool
    """The game already has its rating changes (its result is written again)."""
    ratings: dict[Member, Rating]
    """The rating of each member at the table who has one, read with the seats."""

    @property
    def members(self) -> set[Member]:
        return {(self.guild_id, self.game, user) for _, user, _ in self.seats if user is not None}

    @property
    def to_rate(self) -> bool:
        """Not rated yet, and at least two members, each in one seat, at its end."""
        users = [user for _, user, _ in self.seats if user is not None]
        return not self.rated and len(users) >= 2 and len(set(users)) == len(users)


def game_ends(rows: Sequence[Sequence], results: dict[int, FinalResult]) -> dict[int, GameEnd]:
    """Each game's end from the `GAME_ENDS` rows (a game with no row is left out)."""
    by_game: dict[int, list[Sequence]] = {}
    for row in rows:
        by_game.setdefault(row[0], []).append(row)
    ends = {}
    for game_id, seats in by_game.items():
        guild_id, game = seats[0][4], seats[0][5]
        ends[game_id] = GameEnd(
            game_id,
            guild_id,
            game,
            tuple((row[1], row[2], row[3]) for row in seats if row[1] is not None),
            results[game_id],
            bool(seats[0][6]),
            {(guild_id, game, row[2]): (row[7], row[8], row[9]) for row in seats if row[7] is not None},
        )
    return ends


def rating_writes(ends: Sequence[GameEnd], now: float) -> tuple[list[tuple], dict[tuple[int, int], Change]]:
    """The rows of `RATINGS_WRITE` that rate the games just given their results, one after the
    other, from the ratings read with them (a member with none starts at openskill's default), sorted
    by member as `RATINGS_WRITE` wants them; and each rated seat's change by (game, seat), which its
    result row keeps."""
    read = {member: rating for end in ends for member, rating in end.ratings.items()}
    ratings = {member: (mu, sigma) for member, (mu, sigma, _) in read.items()}
    played: dict[Member, int] = {}
    changes: dict[tuple[int, int], Change] = {}
    for table in ends:
        if not table.to_rate:
            continue
        for change in _rate(table, ratings):
            key = (table.guild_id, table.game, change.user_id)
            ratings[key] = change.after
            played[key] = played.get(key, 0) + 1
            changes[table.game_id, change.seat] = (*change.before, *change.after)
    writes = [
        (*key, *ratings[key], read[key][2] if key in read else 0, count, now)
        for key, count in sorted(played.items())
    ]
    return writes, changes


def _rate(table: GameEnd, ratings: dict[Member, tuple[float, float]]) -> list[RatingChange]:
    """The members' changes from one game, given the (μ, σ) before it of every member who has one."""
    teams, members = [], []
    for seat, user, level in table.seats:
        if user is None:
            mu, sigma = COMPUTER_RATINGS.get(level or "normal", COMPUTER_RATINGS["normal"])
        else:
            mu, sigma = ratings.get((table.guild_id, table.game, user), (MODEL.mu, MODEL.sigma))
            members.append((seat, user))
        teams.append([MODEL.rating(mu, sigma)])
    away = [seat for seat, user, level in table.seats if user is not None and level is not None]
    ranks = standings(table.result.scores, table.result.winners, away)
    rated = MODEL.rate(teams, ranks=ranks)
    return [
        RatingChange(
            seat, user, (teams[seat][0].mu, teams[seat][0].sigma), (rated[seat][0].mu, rated[seat][0].sigma)
        )
        for seat, user in members
    ]
