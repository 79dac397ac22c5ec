"""Golden playthroughs: whole games written out as the players read them, step by step.

A playthrough file holds a header (game, players, seed, options, which panels are recorded) and then,
for the start and after each move, the move made (seat, encoded action, its button label), the public
table and the seats' private panels, each flattened from the very `Message` that `cogs.messages`
builds (`table_message`, `private_panel`) to plain text: embed title, description, fields, footer,
and every control with its label and custom_id.

The games are played on a `LiveGame` held in memory: the engine applies each move, and the table's
record advances its version and keeps its events the way the session layer does after a commit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from bench.table_in_memory import LEVEL, NAMES, Move, TableCase, commit, computer_move, new_table
from bot.live import LiveGame
from cogs.components import Button, Item, Select
from cogs.messages import Message, label_of, table_message
from cogs.panel import private_panel
from engine import GAMES, EngineError

GOLDEN = Path(__file__).resolve().parent

SIZE_LIMIT = 300_000
"""Bytes above which a playthrough records only the panels of the seats to act."""

EVERY_SEAT = "every seat's private panel at every step"
ACTING_SEATS = "at each step only the panels of the seat that moved and the seats to act; all at the end"
RULE = "=" * 24


@dataclass(frozen=True)
class Case(TableCase):
    """One recorded game: which game, how many seats, its seed and the host's options."""

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.game}-{self.players}p-seed{self.seed}.txt"

    @property
    def name(self) -> str:
        return self.path.stem


CASES = (
    Case("catsanity", 2, 1),
    Case("catsanity", 5, 2),
    Case("madcat", 2, 1),
    Case("madcat", 4, 2),
    Case("catsdogs", 1, 1),
    Case("catsdogs", 2, 2),
    Case("catsdogs", 4, 3),
    Case("ninelives", 3, 20, (("limited_powers", True),)),
    Case("ninelives", 4, 83, (("limited_powers", False),)),
)


class Unreplayable(Exception):
    """The recorded moves no longer make a whole game under the current rules."""


@dataclass(frozen=True)
class Recorded:
    """What a playthrough file says: its case, which panels it holds, its moves and its whole text."""

    case: Case
    panels: str
    moves: tuple[Move, ...]
    text: str


# ----------------------------------------------------------------- flattening messages


def item_line(item: Item) -> list[str]:
    row = f"row {item.row}" if item.row is not None else "row -"
    disabled = " (disabled)" if getattr(item, "disabled", False) else ""
    if isinstance(item, Button):
        emoji = f"{item.emoji} " if item.emoji else ""
        style = item.style.name
        return [f"  {row} · button {style}{disabled}: {emoji}{item.label} → {item.custom_id}"]
    if isinstance(item, Select):
        span = f" pick {item.min_values}–{item.max_values}" if item.max_values != 1 else ""
        lines = [f"  {row} · select{span}{disabled}: {item.placeholder} → {item.custom_id}"]
        for option in item.options:
            about = f" — {option.description}" if option.description else ""
            chosen = " (default)" if option.default else ""
            lines.append(f"      • {option.label}{about}{chosen} = {option.value}")
        return lines
    return [f"  {row} · {type(item).__name__}"]


def flatten(message: Message) -> list[str]:
    """A message as lines of plain text, in the order a player reads it."""
    lines = []
    if message.content:
        lines += message.content.split("\n")
    embed = message.embed
    if embed is not None:
        lines.append(f"# {embed.title}")
        if embed.description:
            lines += embed.description.split("\n")
        for field in embed.fields:
            inline = " (inline)" if field.inline else ""
            lines.append(f"## {field.name}{inline}")
            lines += field.value.split("\n")
        if embed.footer.text:
            lines.append(f"footer: {embed.footer.text}")
    children = message.view.children if message.view else []
    if children:
        lines.append("controls:")
        for item in children:
            lines += item_line(item)
    return lines


def snapshot(game: LiveGame, panels: str, mover: int | None) -> list[str]:
    """The table and the recorded seats' panels, as they stand after `mover`'s move."""
    lines = ["---- table ----", *flatten(table_message(game, due=None))]
    over = game.rules.outcome(game.state) is not None
    shown = {*game.to_act(), mover}
    for seat, name in enumerate(game.names):
        if panels == EVERY_SEAT or over or seat in shown:
            lines += [f"---- {name}'s panel ----", *flatten(private_panel(game, seat))]
    return lines


# ----------------------------------------------------------------- whole files


def header(case: Case, panels: str, moves: int) -> list[str]:
    rules = GAMES[case.game].rules
    options = rules.make_options(dict(case.options)).model_dump(mode="json")
    return [
        f"Catnip golden playthrough: {rules.title}, {case.players} player(s).",
        "After a deliberate change: python -m tests.golden.regenerate (see tests/golden/README.md).",
        f"game: {case.game}",
        f"players: {', '.join(NAMES[: case.players])}",
        f"seed: {case.seed}",
        f"options: {json.dumps(options, sort_keys=True)}",
        f"moves: {moves}, chosen by the {LEVEL!r} computer player",
        f"panels: {panels}",
    ]


def play(case: Case, moves: Sequence[Move] | None = None, panels: str = EVERY_SEAT) -> Recorded:
    """Play `case` with the given `moves` (or the computer's, if None) and write out every step."""
    game = new_table(case)
    body = ["", f"{RULE} start {RULE}", *snapshot(game, panels, None)]
    made: list[Move] = []
    while game.rules.outcome(game.state) is None:
        if moves is None:
            move = computer_move(game)
        elif len(made) < len(moves):
            move = moves[len(made)]
        else:
            raise Unreplayable(f"{case.name}: the game is not over after all {len(moves)} recorded moves")
        try:
            label = label_of(game, move.seat, game.rules.decode_action(move.action))
            commit(game, move)
        except EngineError as error:
            raise Unreplayable(f"{case.name}, move {len(made) + 1} ({move.action}): {error}") from error
        made.append(move)
        body += [
            "",
            f"{RULE} move {len(made)} {RULE}",
            f"seat {move.seat} ({game.names[move.seat]}) plays: {move.action}",
            f"button: {label}",
            *snapshot(game, panels, move.seat),
        ]
    if moves is not None and len(made) != len(moves):
        raise Unreplayable(f"{case.name}: the game ended after {len(made)} of {len(moves)} recorded moves")
    text = "\n".join([*header(case, panels, len(made)), *body]) + "\n"
    return Recorded(case, panels, tuple(made), text)


def record(case: Case, moves: Sequence[Move] | None = None) -> Recorded:
    """Every seat's panels, unless that makes the file too big; then only the seats to act."""
    recorded = play(case, moves, EVERY_SEAT)
    if len(recorded.text.encode()) > SIZE_LIMIT:
        recorded = play(case, recorded.moves, ACTING_SEATS)
    return recorded


MOVE_LINE = re.compile(r"seat (\d+) \([^)]*\) plays: (.+)")


def read(path: Path) -> Recorded:
    """A playthrough file read back: its game, seed and options, its panels setting and its moves."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    settings = dict(line.split(": ", 1) for line in lines[: lines.index("")] if ": " in line)
    case = Case(
        game=settings["game"],
        players=len(settings["players"].split(", ")),
        seed=int(settings["seed"]),
        options=tuple(json.loads(settings["options"]).items()),
    )
    moves = []
    for previous, line in pairwise(lines):
        if previous.startswith(f"{RULE} move "):
            found = MOVE_LINE.fullmatch(line)
            if found is None:
                raise ValueError(f"{path.name}: no move after {previous!r}")
            moves.append(Move(int(found[1]), found[2]))
    return Recorded(case, settings["panels"], tuple(moves), text)
