"""The SQL the game store reads with, and how its rows become records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.models import STATUSES, GameRecord, MoveRecord, SeatRecord

_GAME_SELECT = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game, g.options, g.seed, g.status, g.version,
       g.host_id, g.table_message_id, g.table_channel_id, g.created_at, g.updated_at,
       (SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.computer))
          FROM seats AS s WHERE s.game_id = g.id) AS seats
  FROM games AS g
"""
# Must repeat the partial index's condition word for word so SQLite uses `games_live`.
ACTIVE_GAMES_SQL = _GAME_SELECT + " WHERE g.status IN ('lobby', 'active') ORDER BY g.id"
GAME_SQL = _GAME_SELECT + " WHERE g.id = ?"
ENDINGS_TO_SHOW_SQL = _GAME_SELECT + " WHERE g.id IN (SELECT game_id FROM endings_to_show) ORDER BY g.id"
ENDING_REASONS_SQL = "SELECT game_id, reason FROM endings_to_show WHERE reason IS NOT NULL"
GAMES_BY_IDS_SQL = _GAME_SELECT + " WHERE g.id IN (SELECT value FROM json_each(?)) ORDER BY g.id"
CHANNEL_GAMES_SQL = (
    _GAME_SELECT
    + " WHERE (g.channel_id = ? OR g.thread_id = ?)"
    + " AND g.status IN (SELECT value FROM json_each(?)) ORDER BY g.id"
)
MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"
)
RECENT_MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM "
    "(SELECT * FROM moves WHERE game_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq"
)
DEADLINES_SQL = (
    "SELECT d.game_id, d.decision, d.due FROM deadlines AS d JOIN games AS g ON g.id = d.game_id "
    "WHERE g.status IN ('lobby', 'active') ORDER BY d.due, d.game_id"
)
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
SNAPSHOT_SQL = """
SELECT s.state, s.seq, g.version, COALESCE((SELECT MAX(m.seq) FROM moves AS m WHERE m.game_id = g.id), 0)
  FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id
 WHERE g.id = ?
"""


def numbered(sql: str) -> str:
    """`sql` with PostgreSQL's numbered parameters ($1, $2, ...) in place of SQLite's `?`."""
    parts = sql.split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))


def stats_rows(rows: Sequence[Sequence[Any]]) -> list[dict]:
    return [
        {"game": game, "played": played, "won": won, "best": best, "by_computer": by_computer}
        for game, played, won, best, by_computer in rows
    ]


def leaderboard_rows(rows: Sequence[Sequence[Any]]) -> list[dict]:
    return [{"user_id": user_id, "played": played, "won": won} for user_id, played, won in rows]


def to_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def seat_records(seats_json: str) -> tuple[SeatRecord, ...]:
    seats = [
        SeatRecord(seat=seat, user_id=user_id, name=name, computer=computer)
        for seat, user_id, name, computer in json.loads(seats_json)
    ]
    return tuple(sorted(seats, key=lambda s: s.seat))


def game_record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        game=row[4],
        options=json.loads(row[5]),
        seed=row[6],
        status=row[7],
        version=row[8],
        host_id=row[9],
        table_message_id=row[10],
        table_channel_id=row[11],
        created_at=row[12],
        updated_at=row[13],
        seats=seat_records(row[14]),
    )


def move_record(row: Sequence[Any]) -> MoveRecord:
    return MoveRecord(seq=row[0], seat=row[1], action=row[2], events=json.loads(row[3]), at=row[4])


def lobby_seats(host: SeatRecord, seats: Sequence[SeatRecord] | None) -> list[SeatRecord]:
    """The seats of a new lobby: the host alone, or `seats` (a rematch's) with the host among them."""
    if host.user_id is None:
        raise ValueError("a lobby's host must be a member, not a computer player")
    seated = list(seats) if seats is not None else [host]
    if host.user_id not in {seat.user_id for seat in seated}:
        raise ValueError("the host must have a seat")
    return seated


def check_numbered(seats: Sequence[SeatRecord]) -> None:
    """A started game's seats are numbered 0, 1, 2, ..."""
    if sorted(seat.seat for seat in seats) != list(range(len(seats))):
        raise ValueError(f"seats must be numbered 0..{len(seats) - 1}, got {[s.seat for s in seats]}")


def check_distinct(seats: Sequence[SeatRecord]) -> None:
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"two seats share a number: {numbers}")


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"{status!r} is not a game status ({', '.join(STATUSES)})")
