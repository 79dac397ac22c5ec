"""`/game replay id:<n>`: a finished game stepped through move by move in a private viewer.

Each step shows the public table as it stood after that move — its text and picture — with the
move's narration; a member who played also sees their own hand (only they see the viewer). The
game is rebuilt from its seed and move log, nothing being stored for replays, so games finished
before replays existed replay too. A control's custom_id carries only the game and the step it
shows, so an old viewer's buttons keep working after a restart; every click is answered by editing
the viewer (an interaction response, outside the bot's share of Discord's limit).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import discord

import pictures
from bot.errors import BadRequest, GameClosed
from bot.live import LiveGame
from bot.storage import GameNotFound, GameRecord, GameStore, MoveRecord
from cogs import custom_ids as ids
from cogs.components import Button, Controls, Item, Select
from cogs.messages import COLOUR, Message, add_fields, final_text, own_names
from cogs.panel import your_fields
from cogs.phone import FIELD_GAP_PIXELS, LINE_PIXELS, SCREEN, screen_of
from cogs.play._pictures import Scene, show_picture
from cogs.play._replay_fit import DEGREES, cut_table
from engine import GAMES, Event, Frozen, events_for
from engine.decisions import your_words
from engine.history import played
from lang import _, current, n_, p_

if TYPE_CHECKING:
    from bot.app import CatnipBot

REPLAYS_KEPT = 8
"""Rebuilt games kept in memory: a viewer's clicks step through one game, each rebuilt once."""
MARKS_SHOWN = 25
"""Discord's most options in a select: the places to jump to."""

_kept: WeakKeyDictionary[GameStore, OrderedDict[int, Replay]] = WeakKeyDictionary()
"""Per store (a process may run several bots, each on its own database), the games last rebuilt."""


@dataclass(frozen=True)
class Replay:
    """A finished game rebuilt: its state after each move (`states[0]` the start) and its log."""

    record: GameRecord
    states: tuple[Frozen, ...]
    moves: tuple[MoveRecord, ...]
    marks: tuple[tuple[int, int], ...]
    """(number, step) of each place to jump to: where each round (or turn) starts."""
    by_rounds: bool = True
    """Whether the marks are rounds (else turns, in games without rounds)."""
    tallest: dict[tuple[int | None, bool, str], float] = field(default_factory=dict, compare=False)
    """Per viewer's seat, picture or not and language, the height of the tallest step: what every step
    is padded to."""

    @property
    def last(self) -> int:
        return len(self.moves)

    def game_at(self, step: int) -> LiveGame:
        """The game as it stood after `step` moves, with that move's events."""
        events = [Event.model_validate(data) for data in self.moves[step - 1].events] if step else []
        return LiveGame(
            record=self.record, rules=GAMES[self.record.game].rules, state=self.states[step], events=events
        )


async def load_replay(store: GameStore, game_id: int, guild_id: int | None) -> Replay:
    """The finished game `game_id` of this server, rebuilt (or kept from a viewer's earlier click)."""
    shelf = _kept.setdefault(store, OrderedDict())
    kept = shelf.get(game_id)
    if kept is not None and kept.record.guild_id == guild_id:
        shelf.move_to_end(game_id)
        return kept
    try:
        record = await store.games.get_game(game_id)
    except GameNotFound as error:
        raise GameClosed(_("There is no game #{id} on this server.", id=game_id)) from error
    if record.guild_id != guild_id:
        raise GameClosed(_("There is no game #{id} on this server.", id=game_id))
    if record.status != "finished":
        raise GameClosed(
            _(
                "Game #{id} is {status}: only a game played to its end can be replayed.",
                id=game_id,
                status=_status(record.status),
            )
        )
    moves = tuple(await store.games.moves(game_id))
    replay = rebuild(record, moves)
    shelf[game_id] = replay
    while len(shelf) > REPLAYS_KEPT:
        shelf.popitem(last=False)
    return replay


def _status(status: str) -> str:
    """A game's status as a replay's refusal names it."""
    named = {
        "lobby": p_("a game's status", "lobby"),
        "active": p_("a game's status", "active"),
        "cancelled": p_("a game's status", "cancelled"),
        "abandoned": p_("a game's status", "abandoned"),
    }
    return named.get(status, status)


def rebuild(record: GameRecord, moves: tuple[MoveRecord, ...]) -> Replay:
    """Every state of the game, from its seed, options and logged moves."""
    rules = GAMES[record.game].rules
    options = LiveGame(record=record, rules=rules).options()
    states = [rules.setup(len(record.seats), record.seed, options)]
    log = [(move.seat, move.action) for move in moves]
    states += [state for state, _ in played(rules, len(record.seats), record.seed, options, log)]
    by_rounds = hasattr(states[0], "round")
    return Replay(record, tuple(states), moves, _marks(states, by_rounds), by_rounds)


def _marks(states: list[Frozen], by_rounds: bool) -> tuple[tuple[int, int], ...]:
    """Where each round starts (each turn, in games without rounds), numbered from 1; at most
    `MARKS_SHOWN`, spread evenly over the game."""
    field = "round" if by_rounds else "turns"
    if not hasattr(states[0], field):
        return ()
    marks, value = [], object()
    for step, state in enumerate(states):
        if getattr(state, field) != value:
            value = getattr(state, field)
            marks.append((len(marks) + 1, step))
    if len(marks) > MARKS_SHOWN:
        marks = [marks[i * (len(marks) - 1) // (MARKS_SHOWN - 1)] for i in range(MARKS_SHOWN)]
    return tuple(marks)


ROOM = SCREEN - 2 * LINE_PIXELS
"""Where a step's first control may stand at most, by `cogs.phone`'s model: two lines spare, as a
browser lays a step out up to 39 px lower (`python -m bench.phone_view --view replay --measure`)."""
BLANK = "\u200b"
"""A line that shows nothing (Discord drops an empty one)."""
FITTINGS = (
    (None, 9, 0),
    (None, 3, 0),
    (None, 1, 0),
    (1, 1, 0),
    (1, 1, 1),
    (1, 1, 2),
    *((0, 1, degree) for degree in range(2, DEGREES + 1)),
    (0, 0, DEGREES),
)
"""What a step shows, most first, until its first control is on a phone's first screen: (how many of
the viewer's own fields, None for all; lines of the move's narration; how much the table's text is
cut, `cogs.play._replay_fit.cut_table`, when it is the table's one view). A step that fits with none
of them shows the least."""


def replay_message(replay: Replay, step: int, seat: int | None, picture: bool = False) -> Message:
    """The viewer at `step`: what the move did first (said to `seat`, the viewer if they played), then
    one view of the table — its picture, or with `picture` off its text — and `seat`'s own hand, as
    much as keeps the controls on a phone's first screen. Every step is padded to the height of the
    game's tallest, so the controls stay in one place."""
    controls = Controls(_controls(replay, step))
    components = controls.to_components()
    embed = _fitted(replay, step, seat, picture, components)
    key = (seat, picture, current())
    if key not in replay.tallest:
        replay.tallest[key] = max(
            _bottom(_fitted(replay, at, seat, picture, components), picture, components)
            for at in range(replay.last + 1)
        )
    room = replay.tallest[key] - _bottom(embed, picture, components)
    lines = int((room - FIELD_GAP_PIXELS) / LINE_PIXELS)
    if lines > 1:  # blank lines above the picture (or under the text), where a taller step has more
        embed.add_field(name=BLANK, value="\n".join([BLANK] * (lines - 1)), inline=False)
    elif room >= LINE_PIXELS:
        embed.description = f"{embed.description}\n{BLANK}"
    return Message(embed=embed, view=controls)


def _fitted(
    replay: Replay, step: int, seat: int | None, picture: bool, components: list[dict]
) -> discord.Embed:
    """The step's embed showing as much as keeps its first control on a phone's first screen."""
    parts = _step_parts(replay, step, seat, picture)
    fittings = FITTINGS if not picture else dict.fromkeys((own, said, 0) for own, said, _ in FITTINGS)
    tables: dict[int, list[tuple[str, str]]] = {}
    for own, said, degree in fittings:
        if degree not in tables:
            tables[degree] = cut_table(parts.table, degree)
        embed = parts.embed(own, said, tables[degree])
        if _bottom(embed, picture, components) <= ROOM:
            break
    return embed


def _bottom(embed: discord.Embed, picture: bool, components: list[dict]) -> float:
    """Where the first control stands on a phone under `embed`, its picture included (`screen_of`)."""
    shown = {**embed.to_dict(), "image": {"url": ""}} if picture else embed.to_dict()
    screen = screen_of(None, shown, components[:1], pictures.SIZE if picture else None)
    return screen.buttons[components[0]["components"][0]["custom_id"]]


@dataclass(frozen=True)
class _StepParts:
    """All a step may show, worked out once for the fittings tried: its title, its first line, the
    move's narration, the result's line, the table's text (none with a picture) and the viewer's own
    fields (those that repeat the table's left out)."""

    game_id: int
    title: str
    head: str
    told: list[str]
    result: str | None
    table: list[tuple[str, str]]
    mine: list[tuple[str, str]]

    def embed(self, own: int | None, said: int, table: list[tuple[str, str]]) -> discord.Embed:
        """The step with `own` of the viewer's fields (None: all), `said` lines of narration and `table`."""
        lines = [self.head, *self.told[:said]]
        if 0 < said < len(self.told):
            lines[-1] += " …"
        if self.result is not None:
            lines.append(self.result)
        embed = discord.Embed(title=self.title, colour=COLOUR, description="\n".join(lines))
        mine = self.mine[:own]
        add_fields(embed, [*table, *mine])
        footer = _("Game #{id} · replay", id=self.game_id)
        embed.set_footer(text=footer + (_(" · only you see your hand") if mine else ""))
        return embed


def _step_parts(replay: Replay, step: int, seat: int | None, picture: bool) -> _StepParts:
    game = replay.game_at(step)
    renderer = game.game.texts
    names = own_names(game, seat) if seat is not None else game.names
    told: list[str] = []
    if step == 0:
        head = n_("**The start** · {count} move in all", "**The start** · {count} moves in all", replay.last)
    else:
        mover = names[replay.moves[step - 1].seat]
        head = your_words(
            _("**This move** · Move {step} of {last} · {mover}", step=step, last=replay.last, mover=mover)
        )
        told = [your_words(event.render(names)) for event in events_for(game.events, seat)]
    outcome = game.rules.outcome(game.state)
    result = final_text(game, outcome, with_breakdown=False).split("\n")[0] if outcome is not None else None
    public = game.view(None)
    table = [] if picture else renderer.compact_fields(public, game.names)
    mine = your_fields(renderer.private_fields(game.view(seat), public, names)) if seat is not None else []
    shown = {part for field in table for part in field}
    mine = [(name, value) for name, value in mine if name not in shown and value not in shown]
    title = _("{emoji} {game} replay", emoji=renderer.emoji, game=game.rules.title)
    return _StepParts(game.id, title, head, told, result, table, mine)


def _controls(replay: Replay, step: int) -> list[Item]:
    game_id, last = replay.record.id, replay.last
    buttons: list[Item] = [
        Button(
            p_("the replay's first step", "Start"),
            ids.replay_id(game_id, 0, "first"),
            emoji="⏮",
            disabled=step == 0,
            row=0,
        ),
        Button(
            p_("the replay's step before", "Back"),
            ids.replay_id(game_id, max(step - 1, 0), "prev"),
            emoji="◀",
            disabled=step == 0,
            row=0,
        ),
        Button(
            p_("the replay's step after", "Next"),
            ids.replay_id(game_id, min(step + 1, last), "next"),
            emoji="▶",
            disabled=step == last,
            row=0,
        ),
        Button(
            p_("the replay's last step", "End"),
            ids.replay_id(game_id, last, "last"),
            emoji="⏭",
            disabled=step == last,
            row=0,
        ),
    ]
    if len(replay.marks) > 1:
        options = [
            discord.SelectOption(
                label=_("Round {number}", number=number)
                if replay.by_rounds
                else _("Turn {number}", number=number),
                value=str(at),
            )
            for number, at in replay.marks
        ]
        placeholder = _("Jump to a round…") if replay.by_rounds else _("Jump to a turn…")
        buttons.append(Select(ids.replay_id(game_id, 0, "jump"), options, placeholder=placeholder, row=1))
    return buttons


async def step_message(bot: CatnipBot, replay: Replay, step: int, user_id: int) -> tuple[Message, list]:
    """The viewer at `step` for `user_id`, and its picture as files to attach (none if the table had none)."""
    game = replay.game_at(step)
    picture = game.pictures(bot.service.pictures)
    message = replay_message(replay, step, replay.record.seat_of(user_id), picture)
    if not picture:
        return message, []
    content = pictures.scene_of(game.record.game, game.view(None), game.names, game.rules.outcome(game.state))
    picture = await bot.presenter.pictures.draw_now(
        Scene(game.record.game, content, pictures.scene_key(content))
    )
    show_picture(message.embed, picture)
    return message, [picture.file()]


async def on_replay(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """A viewer's control: show the step its id names (a jump: the step chosen)."""
    replay = await load_replay(bot.store, component.game_id, interaction.guild_id)
    step = component.version
    if component.arg == "jump":
        values = ids.chosen_values(interaction.data)
        if len(values) != 1 or not (values[0].isascii() and values[0].isdigit()):
            raise BadRequest(ids.INVALID)
        step = int(values[0])
    if step > replay.last:
        raise BadRequest(ids.INVALID)
    message, files = await step_message(bot, replay, step, interaction.user.id)
    await interaction.response.edit_message(embed=message.embed, view=message.view, attachments=files)
