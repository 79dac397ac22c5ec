"""What a whole game costs in Discord requests: played through the emulator (lobby, start, every move,
the end and the rematch), counted from the emulator's log of the bot's requests, split into those the
global limit counts and those it exempts (interaction callbacks and interaction-token webhooks)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from bench.members import Table, open_table, table_of
from emulator import Emulator
from emulator.usage import EXEMPT_ROUTES
from engine import Rng

PLAYER_COUNTS = {
    "catsdogs": [1, 2, 3, 4, 5],
    "catsanity": [2, 3, 4, 5],
    "madcat": [2, 3, 4, 5],
    "ninelives": [2, 3, 4, 5, 6],
}
"""Every game and the player counts it is played with, whole, here and in tests/e2e/test_games.py."""
MAX_STEPS = 3000
MOVE = re.compile(r"move (\d+)")


def exempt(label: str) -> bool:
    """Whether a request ("METHOD /template") of the bot is exempt from the global limit, as the emulator
    rules (every interaction webhook in its log is the bot's own application's)."""
    method, template = label.split(" ", 1)
    return (method, template) in EXEMPT_ROUTES


@dataclass
class GameCost:
    """The requests of one whole game, by route."""

    game: str
    players: int
    moves: int = 0
    counted: Counter[str] = field(default_factory=Counter)
    exempt: Counter[str] = field(default_factory=Counter)
    table_edits: int = 0
    """Edits of the game's table message, by any route."""

    @property
    def counted_per_move(self) -> float:
        return sum(self.counted.values()) / max(self.moves, 1)

    @property
    def exempt_per_move(self) -> float:
        return sum(self.exempt.values()) / max(self.moves, 1)

    def by_kind(self) -> Counter[str]:
        """Requests of every route by what they do: "edit" (of the table message), "post" (new messages
        and followups: lobby, tables, pings, warnings), "deletion"."""
        every = self.counted + self.exempt
        return Counter(
            edit=self.table_edits,
            post=sum(n for label, n in every.items() if label.startswith("POST ") and "messages" in label)
            + every["POST /webhooks/{app_id}/{token}"],
            deletion=sum(n for label, n in every.items() if label.startswith("DELETE ")),
        )

    def describe(self) -> str:
        counted = ", ".join(f"{label} {n}" for label, n in self.counted.most_common())
        exempt = ", ".join(f"{label} {n}" for label, n in self.exempt.most_common())
        return (
            f"{self.game} {self.players}p: {self.moves} moves, counted {sum(self.counted.values())} "
            f"({self.counted_per_move:.2f} a move: {counted}), exempt {sum(self.exempt.values())} "
            f"({self.exempt_per_move:.2f} a move: {exempt}); table edits {self.table_edits}"
        )


def moves_shown(emu: Emulator, channel) -> int:
    """The move number in the footer of the table shown in `channel`."""
    table = table_of(emu, channel)
    found = MOVE.findall((table.embeds[0].get("footer") or {}).get("text", "")) if table else []
    return int(found[-1]) if found else 0


async def play_whole_game(emu: Emulator, key: str, players: int, seed: int = 1) -> GameCost:
    """/play, joins, Start, every move to the end, and Rematch until the new table is up."""
    return (await play_whole_games(emu, key, players, seed))[0]


async def play_whole_games(
    emu: Emulator, key: str, players: int, seed: int = 1, rematches: int = 0
) -> list[GameCost]:
    """/play, joins, Start, every move to the end, and Rematch until the new table is up; then each of
    `rematches` rematch games the same way, from its table to its own rematch. One cost a game."""
    log = emu.server.requests
    first = len(log)
    edited: Counter[int] = Counter()
    emu.on_message(lambda kind, message: edited.update([message.id]) if kind == "update" else None)
    thread, members = await open_table(emu, key, players)
    table = Table(emu, thread, members, Rng.seeded(seed * 97 + players))
    costs = []
    for _ in range(1 + rematches):
        for _ in range(MAX_STEPS):
            if table.over():
                break
            await table.step()
        assert table.over(), f"{key} with {players} did not finish in {MAX_STEPS} steps"
        moves = moves_shown(emu, thread)
        final = table_of(emu, thread)
        assert (await members[0].click(final, "Rematch")).ok
        await emu.wait_for(lambda final=final: table_of(emu, thread).id != final.id)
        await emu.settle()
        cost = GameCost(key, players, moves, table_edits=edited[final.id])
        for label in log[first:]:
            (cost.exempt if exempt(label) else cost.counted)[label] += 1
        costs.append(cost)
        first = len(log)
    return costs
