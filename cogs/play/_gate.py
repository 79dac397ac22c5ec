"""The one check every click passes before its handler runs.

A modified client can send any custom_id on any message from anywhere, so before a handler
sees a click the gate makes sure that the control is of the type Catnip made it as, that its
game belongs to the server and the channel (or thread) the click came from, and that the
control was clicked on the surface it lives on: private controls (moves, pages) on the
clicker's own private panel, public ones (lobby, "my hand", rematch, "I'm back") on the public message.
Its refusals name nobody.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.errors import BadRequest, GameClosed, Refusal, TableMovedOn
from bot.storage import GameNotFound, GameRecord
from cogs import custom_ids as ids
from lang import N_, _

if TYPE_CHECKING:
    from bot.app import CatnipBot

log = logging.getLogger("catnip.components")

ELSEWHERE = N_("That game belongs to another channel.")
PRIVATE_ONLY = N_("That control works only on your own private panel — open it from the table.")
PUBLIC_ONLY = N_("That control works only on the table itself.")
UNKNOWN_GAME = N_("I can't find that game any more.")


def check_component_type(interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """Refuse a click whose component type is not the one the id was made for (a button's id on a select)."""
    sent = (interaction.data or {}).get("component_type")
    if sent not in component.component_types():
        log.warning(
            "click of kind %r sent as component type %r by user %s in guild %s refused",
            component.kind.value,
            sent,
            interaction.user.id,
            interaction.guild_id,
        )
        raise BadRequest(_(ids.INVALID))


async def admit(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """Raise a refusal unless `component` may be used where and how `interaction` used it.

    A guide page names no table and shows only public words: it may be opened anywhere, by anyone."""
    if component.kind is ids.Kind.GUIDE:
        return
    record = await _record(bot, component.game_id)
    if interaction.guild_id is None or interaction.guild_id != record.guild_id:
        raise Refusal(_(ELSEWHERE))
    if component.kind is ids.Kind.REPLAY:  # `/game replay` opens any game of the server, anywhere in it
        if not on_private_panel(interaction):
            raise Refusal(_(PRIVATE_ONLY))  # a replay may show its viewer's hand: never on a public message
        _check_private_surface(interaction, component)
        return
    if interaction.channel_id not in {record.channel_id, record.thread_id} - {None}:
        raise Refusal(_(ELSEWHERE))
    if on_private_panel(interaction):
        _check_private_surface(interaction, component)
    else:
        _check_public_surface(bot, component, record)


def can_manage(interaction: discord.Interaction) -> bool:
    """Whether the clicker may manage the server (and so end or change any game in it)."""
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


def on_private_panel(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _record(bot: CatnipBot, game_id: int) -> GameRecord:
    game = bot.service.live.get(game_id)
    if game is not None:
        return game.record
    try:
        return await bot.store.games.get_game(game_id)
    except GameNotFound as error:
        raise GameClosed(_(UNKNOWN_GAME)) from error


def _check_private_surface(interaction: discord.Interaction, component: ids.ComponentId) -> None:
    if not component.kind.on_private_view:
        raise Refusal(_(PUBLIC_ONLY))
    metadata = getattr(interaction.message, "interaction_metadata", None)
    owner = getattr(getattr(metadata, "user", None), "id", interaction.user.id)
    if owner != interaction.user.id:
        raise Refusal(_(PRIVATE_ONLY))


def _check_public_surface(bot: CatnipBot, component: ids.ComponentId, record: GameRecord) -> None:
    """On a public message: no page, refresh or more of a private panel; moves only while the table shows
    them."""
    if component.kind in (ids.Kind.PAGE, ids.Kind.REFRESH, ids.Kind.MORE):
        raise Refusal(_(PRIVATE_ONLY))
    if not component.kind.is_action:
        return
    game = bot.service.live.get(record.id)
    if game is None or game.state is None:
        return  # the move's own handler says the game is over or not started yet
    if component.version != record.version:
        raise TableMovedOn()
    to_act = game.to_act()
    if not (len(to_act) == 1 and game.rules.actions_are_public(game.state, to_act[0])):
        raise Refusal(_(PRIVATE_ONLY))
