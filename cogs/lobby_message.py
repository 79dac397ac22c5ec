"""The lobby: what the game is, who sits, the options, and the buttons to join and start."""

from __future__ import annotations

import discord

from bot.live import LANGUAGE_OPTION, LiveGame
from cogs import custom_ids as ids
from cogs.components import Button, Controls, Item, Select
from cogs.lobby_settings import option_value, setting_label, settings_items
from cogs.messages import COLOUR, Message, add_fields, guide_button
from lang import N_, _, in_its_language

LEVELS = (N_("easy"), N_("normal"), N_("hard"))
"""The computer players' levels, as the engine names them; each reads in the table's language."""


def seat_list(game: LiveGame) -> str:
    lines = []
    for seat in game.record.seats:
        who = f"<@{seat.user_id}>" if seat.user_id else seat.name
        level = f" ({_(seat.computer)})" if seat.computer else ""
        host = " 👑" if seat.user_id == game.record.host_id else ""
        lines.append(f"{seat.seat + 1}. {who}{level}{host}")
    return "\n".join(lines) or "—"


@in_its_language
def lobby_message(game: LiveGame) -> Message:
    """The lobby, in its game's language."""
    rules = game.rules
    renderer = game.game.texts
    count = len(game.record.seats)
    embed = discord.Embed(
        title=_("{emoji} {game} — table #{id}", emoji=renderer.emoji, game=rules.title, id=game.id),
        description=_("{about}\nJoin, then the host starts the game.", about=_(game.game.about)),
        colour=COLOUR,
    )
    seats = _("Seats ({count}/{most})", count=count, most=rules.max_players)
    add_fields(embed, [(seats, seat_list(game))])
    option_lines = [
        setting_label(name, f"**{option_value(name, value, game)}**")
        for name, value in game.record.options.items()
        if name != LANGUAGE_OPTION  # the lobby's own words show it
    ]
    if option_lines:
        add_fields(embed, [(_("Options"), "\n".join(option_lines))])
    gid = game.id
    full = count >= rules.max_players
    items: list[Item] = [
        Button(
            label=_("Join"),
            style=discord.ButtonStyle.success,
            custom_id=ids.lobby_id(gid, "join"),
            disabled=full,
            row=0,
        ),
        Button(label=_("Leave"), custom_id=ids.lobby_id(gid, "leave"), row=0),
        Button(
            label=_("Start"),
            style=discord.ButtonStyle.primary,
            custom_id=ids.lobby_id(gid, "start"),
            disabled=not rules.min_players <= count <= rules.max_players,
            row=0,
        ),
        Button(
            label=_("Cancel"),
            style=discord.ButtonStyle.danger,
            custom_id=ids.lobby_id(gid, "cancel"),
            row=0,
        ),
        guide_button(game),
    ]
    items.append(
        Select(
            custom_id=ids.lobby_id(gid, "addc"),
            placeholder=_("Add computer player (host)…"),
            options=[
                discord.SelectOption(label=_("Computer player: {level}", level=_(level)), value=level)
                for level in LEVELS
            ],
            disabled=full,
            row=1,
        )
    )
    items += settings_items(game)
    return Message(embed=embed, view=Controls(items))
