"""The controls around a seat besides the game's own moves, and what the table says about absent members.

🃏 My hand is on the table and on each turn ping; 👋 I'm back and 🤖 Replace a player are on the
table; 🔄 Refresh is on a private view that is waiting, and a game's 📜 more button (the rest of the
seat's view) on every private view of a running game. None carries more than the game's id.
"""

from __future__ import annotations

import discord

from bot.live import LiveGame, describe_players
from cogs import custom_ids as ids
from cogs.components import Button, Item, Select
from lang import N_, _

BACK_LABEL = N_("I'm back")
REPLACE_LABEL = N_("Replace a player")
REFRESH_LABEL = N_("Refresh")
PICK_SEAT = N_("Hand a seat to a computer player…")


def hand_button(game: LiveGame, row: int = 0) -> Button:
    """My hand / My view: opens the clicker's own private view, whoever clicks (if they play)."""
    return Button(
        label=_(game.game.texts.hand_label),
        emoji="🃏",
        style=discord.ButtonStyle.primary,
        custom_id=ids.view_id(game.id),
        row=row,
    )


def table_buttons(game: LiveGame, row: int = 0) -> list[Item]:
    """I'm back (while a computer plays for someone) and Replace a player (the host's)."""
    items: list[Item] = []
    if game.away_seats():
        items.append(
            Button(
                label=_(BACK_LABEL),
                emoji="👋",
                style=discord.ButtonStyle.success,
                custom_id=ids.back_id(game.id),
                row=row,
            )
        )
    items.append(Button(label=_(REPLACE_LABEL), emoji="🤖", custom_id=ids.replace_id(game.id), row=row))
    return items


def away_line(game: LiveGame) -> str | None:
    """Who a computer plays for, and how they get their seat back; None if nobody is away."""
    away = game.away_seats()
    if not away:
        return None
    names = describe_players([game.names[seat] for seat in away])
    hand = _(game.game.texts.hand_label)
    line = _(
        "💤 A computer plays for {names} until they're back: 🃏 **{hand}** or 👋 **{back}**.",
        names=names,
        hand=hand,
        back=_(BACK_LABEL),
    )
    if game.nobody_playing():
        line += " " + _("Everyone is away, so the game waits a few minutes and then ends.")
    return line


def refresh_button(game: LiveGame) -> Button:
    return Button(label=_(REFRESH_LABEL), emoji="🔄", custom_id=ids.refresh_id(game.id), row=0)


TAKE_BACK_LABEL = N_("Take back")


def take_back_button(game: LiveGame, row: int = 0) -> Button:
    """↩️ Take back: the latest move undone by the seat that made it (only that seat's click counts)."""
    return Button(
        label=_(TAKE_BACK_LABEL), emoji="↩️", custom_id=ids.undo_id(game.id, game.record.version), row=row
    )


def more_button(game: LiveGame, row: int = 0) -> Button | None:
    """The private panel's button showing what it leaves out (`Texts.more_fields`), if the game has one."""
    texts = game.game.texts
    if texts.more_label is None:
        return None
    return Button(label=_(texts.more_label), emoji=texts.more_emoji, custom_id=ids.more_id(game.id), row=row)


def seat_picker(game: LiveGame) -> list[Item]:
    """A select of the seats a member is playing, for the host to hand one to a computer player."""
    playing = [seat for seat in game.record.seats if seat.user_id is not None and not seat.computer]
    if not playing:
        return []
    options = [
        discord.SelectOption(
            label=_("Seat {number}: {name}", number=seat.seat + 1, name=seat.name)[:100], value=str(seat.seat)
        )
        for seat in playing
    ]
    return [Select(custom_id=ids.replace_id(game.id), placeholder=_(PICK_SEAT), options=options)]
