"""A seat's private panel and what its more button shows: its own view said to it, its decision and
hand first, within a phone's first screen (docs/table-budget.md)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.live import LiveGame, describe_players
from cogs import custom_ids as ids
from cogs.components import Button, Controls, Item
from cogs.messages import (
    COLOUR,
    DETAILS_NARRATION,
    Message,
    action_items,
    add_fields,
    fitted_fields,
    label_of,
    narration,
    own_names,
    own_words,
)
from cogs.phone import (
    FIELD_GAP_PIXELS,
    LINE_PIXELS,
    PANEL_BUDGET,
    SCREEN,
    Screen,
    first_control,
    screen_of,
    text_lines,
)
from cogs.seat_controls import more_button, refresh_button, take_back_button
from engine import events_for
from engine.decisions import your_decision, your_words
from lang import N_, _

RECENT_LINES = 4
"""Events a private view recalls under "Recently"."""


def panel_screen(message: Message) -> tuple[Screen, float | None]:
    """Where a private panel stands on a phone, and the bottom of its first control (None if none)."""
    components = message.view.to_components() if message.view is not None else []
    embed = message.embed.to_dict() if message.embed is not None else None
    screen = screen_of(message.content, embed, components)
    return screen, screen.buttons[components[0]["components"][0]["custom_id"]] if components else None


def private_panel(
    game: LiveGame, seat: int, page: int = 0, note: str | None = None, fresh: int = 0
) -> Message:
    """What only `seat` sees: its own view, and its legal actions as controls, said to the seat: what is
    theirs says "you"/"your" ("Your dice", "You play ⚪⚪"), where the table names them.

    `fresh` is how many of the seat's latest events its decision just made: then "Recently" comes
    first, those lines marked ✅, so the decision's result shows above the next one.
    """
    rules, state = game.rules, game.state
    renderer = game.game.texts
    view = game.view(seat)
    public = game.view(None)
    embed = discord.Embed(
        title=view_title(game, seat),
        colour=COLOUR,
    )
    actions = rules.legal_actions(state, seat)
    to_act = rules.to_act(state)
    if rules.outcome(state) is not None:
        embed.description = _("The game is over.")
    elif actions:
        decision = your_decision(game.game, state, view, seat, game.names)
        embed.description = _("**Your decision:** {decision}", decision=decision)
    else:
        waiting = describe_players([game.names[s] for s in to_act])
        embed.description = _("Nothing to decide now — waiting for {players}.", players=waiting)
    if note:
        embed.description = f"{note}\n{embed.description}"
    mine = own_names(game, seat)
    recent = [your_words(event.render(mine)) for event in events_for(game.events, seat, last=RECENT_LINES)]
    lines = [f"✅ {line}" if index >= len(recent) - fresh else line for index, line in enumerate(recent)]
    own = your_fields(renderer.private_fields(view, public, mine))
    if rules.outcome(state) is not None:
        items: list[Item] = []
    else:
        say = own_words(game, seat)
        items = action_items(game, seat, actions, page, say=say) if actions else [refresh_button(game)]
        items = _with_more(game, items, waiting=not actions, take_back=game.undoable_by == seat)
    controls = Controls(items)
    lines = lines[len(lines) - max(fresh, _recent_room(embed, own, controls, lines)) :]
    recently = [(_("Recently"), "\n".join(lines))] if lines else []
    add_fields(embed, [*recently, *own] if fresh else [*own, *recently])
    return Message(embed=embed, view=controls)


def view_title(game: LiveGame, seat: int) -> str:
    """The title of `seat`'s own view of the table."""
    return _(
        "{emoji} {name} — your view (table #{id})",
        emoji=game.game.texts.emoji,
        name=game.names[seat],
        id=game.id,
    )


CANCEL_LABEL = N_("Not now")


def confirmation_message(game: LiveGame, seat: int, version: int, encoded: str, question: str) -> Message:
    """`question` asked of `seat` before its costly move `encoded` (made on the table at `version`): the
    move's own button makes it, Not now shows the seat's view again."""
    embed = discord.Embed(
        title=view_title(game, seat),
        description=f"**{question}**",
        colour=COLOUR,
    )
    label = label_of(game, seat, game.rules.decode_action(encoded), own_words(game, seat))
    items: list[Item] = [
        Button(
            label=label[:80],
            custom_id=ids.confirm_id(game.id, version, encoded),
            style=discord.ButtonStyle.danger,
            row=0,
        ),
        Button(label=_(CANCEL_LABEL), emoji="✖️", custom_id=ids.refresh_id(game.id), row=0),
    ]
    return Message(embed=embed, view=Controls(items))


def your_fields(fields: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Fields built with `own_names`, said to their reader."""
    return [(your_words(name), your_words(value)) for name, value in fields]


def _with_more(game: LiveGame, items: list[Item], waiting: bool, take_back: bool = False) -> list[Item]:
    """The panel's controls and its more button after them (with `take_back`, ↩️ Take back first): before
    🔄 Refresh on a waiting panel, else on a row of its own, else beside the last row's buttons if it
    has room (never before a move)."""
    last = max((item.row or 0 for item in items), default=0)
    on_last = [item for item in items if (item.row or 0) == last]
    if waiting:
        row = 0
    elif last < 4:
        row = last + 1
    elif len(on_last) < 5 and all(isinstance(item, Button) for item in on_last):
        row = last
    else:
        return items
    extra = [button for button in (more_button(game, row),) if button is not None]
    if take_back and len(on_last if row == last and not waiting else []) + len(extra) < 5:
        undo = take_back_button(game, row)
        return [undo, *items, *extra] if waiting else [*items, undo, *extra]
    return [*items, *extra]


def more_message(game: LiveGame, seat: int) -> Message:
    """The rest of `seat`'s own view, which its panel leaves out to keep the decision on a phone's first
    screen (`Texts.more_fields`), and more of what happened: shown privately to the seat."""
    renderer = game.game.texts
    embed = discord.Embed(
        title=_(
            "{emoji} {name} — more of your view (table #{id})",
            emoji=renderer.emoji,
            name=game.names[seat],
            id=game.id,
        ),
        colour=COLOUR,
    )
    mine = own_names(game, seat)
    fields = your_fields(renderer.more_fields(game.view(seat), game.view(None), mine))
    story = your_words(narration(game, seat, limit=DETAILS_NARRATION, names=mine))
    add_fields(embed, [*fields, *([(_("What happened"), story)] if story else [])])
    if not embed.fields:
        embed.description = _("Your panel already shows all of your view.")
    embed.set_footer(text=_("Game #{id} · move {move}", id=game.id, move=game.record.version - 1))
    return Message(embed=embed)


def _recent_room(
    embed: discord.Embed, own: list[tuple[str, str]], controls: Controls, lines: list[str]
) -> int:
    """How many of the newest `lines` "Recently" can show and keep the panel within `PANEL_BUDGET`
    lines with its first control on the first `SCREEN` (the lines a decision just made are shown
    whatever the room: they are its result)."""
    # The panel so far (a title and a description) with its own fields, measured without building it.
    fields = [(name, value) for name, value, _ in fitted_fields(own, len(embed))]
    used, first = first_control(embed.title, embed.description or "", fields, controls.to_components(rows=1))
    room = min(
        PANEL_BUDGET - used - 1,
        int((SCREEN - first - FIELD_GAP_PIXELS) // LINE_PIXELS) - 1,
    )
    count = 0
    for line in reversed(lines):
        room -= text_lines(line)
        if room < 0:
            break
        count += 1
    return count
