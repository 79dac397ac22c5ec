"""Every click on a Catnip button or select, routed by its custom_id.

`route_click` hears every component interaction the bot receives, so each click — including
old buttons after a restart and ids Catnip never made — gets an answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.errors import BadRequest, Busy, Refusal, TableMovedOn
from bot.live import LANGUAGE_OPTION, LiveGame
from bot.storage import StoreUnavailable
from cogs import custom_ids as ids
from cogs.lobby_settings import next_language, setting_value
from cogs.panel import confirmation_message, private_panel
from cogs.play._answers import (
    MESSAGE,
    acknowledge,
    defer_update,
    note_lost_token,
    reply,
    show,
    token_lost,
    too_late,
)
from cogs.play._details import on_details
from cogs.play._gate import admit, can_manage, check_component_type, on_private_panel
from cogs.play._help import on_guide
from cogs.play._replay import on_replay
from cogs.play._seat import fresh_events, on_back, on_more, on_refresh, on_replace, welcome_back
from cogs.play._settings import choose_setting
from cogs.play._tokens import InteractionBook, noting
from discord_door import release_response, respond
from engine import EngineError, InvalidInput, OutOfDate
from lang import N_, _, language_of, speak

if TYPE_CHECKING:
    from bot.app import CatnipBot
    from cogs.play._presenter import TablePresenter

log = logging.getLogger("catnip.components")

T = TypeVar("T")

TAKEN_BACK = N_("↩️ Your move is taken back.")

ANSWER_WITHIN = 1.0
"""Seconds a click's own work may take before the click is acknowledged first.

A move is normally answered with its result in one response. One that is not saved and shown
within this time (a store or a machine under heavy load) is acknowledged first, so Discord's
3-second deadline is never missed, and its result follows as an edit once the move is saved.
"""


async def route_click(bot: CatnipBot, interaction: discord.Interaction, presenter: TablePresenter) -> None:
    """Hands every button or select click to `handle_click`, by its custom_id, whether or not the
    clicked message shows it (a forged or stale client's click is answered too); `presenter` holds its
    tables back while the click waits too long for its answer.

    The play cog's interaction listener rather than a discord.py `DynamicItem`: to call a dynamic
    item, discord.py rebuilds a whole view from the clicked message's components on every click,
    only to find the one that was clicked.
    """
    if interaction.type is discord.InteractionType.component:
        speak(language_of(interaction.locale))  # its private answer; a public table speaks its game's
        try:
            with bot.overload.handling():
                custom_id = str(interaction.data.get("custom_id", ""))
                await handle_click(bot, interaction, custom_id, presenter.tokens)
        finally:
            release_response(interaction)


async def acknowledged_if_slow(bot: CatnipBot, interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """The result of `work`; if it is not ready within `ANSWER_WITHIN`, the click is deferred meanwhile.

    `work` runs in the caller's own task and only a timer waits beside it: on a busy event loop
    every extra task or callback between a click and its answer costs a turn of the loop.
    """
    deferring: list[asyncio.Task[bool]] = []

    def acknowledge_now() -> None:
        # A click on a table gone meanwhile (posted again) is answered once the work is done.
        if not interaction.response.is_done():
            gone = clicked_message_gone(bot, interaction)
            deferring.append(asyncio.create_task(defer_update(interaction, message_gone=gone)))

    timer = asyncio.get_running_loop().call_later(ANSWER_WITHIN, acknowledge_now)
    try:
        return await work
    finally:
        timer.cancel()
        if deferring:
            await deferring[0]


def clicked_message_gone(bot: CatnipBot, interaction: discord.Interaction) -> bool:
    """Whether the clicked message is one Catnip deleted or is deleting (a table posted again further
    down): an update of it would be refused."""
    message = interaction.message
    return message is not None and bot.presenter.deleted(message.id)


async def handle_click(
    bot: CatnipBot, interaction: discord.Interaction, custom_id: str, tokens: InteractionBook | None = None
) -> None:
    """Answer one click: parsed, let through the gate, then handled by its kind's handler.

    Every click gets exactly one answer: a refusal is a short private sentence, an id Catnip
    did not make gets the same "not valid any more" whatever it holds. An answer that comes too
    late for Discord (its move, if any, made and shown all the same) is one warning line. `tokens`
    keeps the click's interaction token once it is answered, for the table and pings of its game.
    """
    component: ids.ComponentId | None = None
    try:
        component = _parsed(interaction, custom_id)
        with noting(tokens, interaction, component.game_id if component else None):
            await _answer(bot, interaction, component)
    except discord.NotFound as error:
        if not too_late(error):
            raise
        # Not a fault of the click: the bot was too busy to answer it in time. The player sees
        # "This interaction failed" and clicks again.
        log.warning(
            "click of kind %r by user %s in guild %s answered too late for Discord (over 3 s): the "
            "bot is behind its clicks",
            component.kind.value if component else None,
            interaction.user.id,
            interaction.guild_id,
        )


def _parsed(interaction: discord.Interaction, custom_id: str) -> ids.ComponentId | None:
    """The click's component id, or None (logged) for an id Catnip did not make."""
    try:
        return ids.parse(custom_id)
    except BadRequest:
        log.info(
            "click with an unknown id (%d characters) by user %s in guild %s",
            len(custom_id) if isinstance(custom_id, str) else 0,
            interaction.user.id,
            interaction.guild_id,
        )
        return None


async def _answer(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId | None
) -> None:
    """Handle a parsed click (None: an id Catnip did not make) and give it its one answer."""
    try:
        if component is None:
            raise BadRequest(ids.INVALID)
        check_component_type(interaction, component)
        if bot.overload.busy():
            raise Busy()
        await admit(bot, interaction, component)
        await HANDLERS[component.kind](bot, interaction, component)
    except TableMovedOn as refusal:
        await _moved_on(bot, interaction, component, str(refusal))
    except (Refusal, EngineError) as refusal:
        bot.metrics.refused(refusal)
        await reply(interaction, _(str(refusal)))  # a constant's message is translated only here
    except StoreUnavailable as outage:
        bot.metrics.refused(outage)
        log.debug("click by user %s in guild %s not saved: %s", interaction.user.id, interaction.guild_id,
                    repr(outage.__cause__ or outage))  # fmt: skip
        await reply(interaction, _(str(outage)))
    except Exception as error:
        if too_late(error):
            raise  # `handle_click` says so in one line
        if token_lost(error):
            note_lost_token(interaction)
            return
        kind = component.kind.value if component else None
        game = bot.service.live.get(component.game_id) if component else None
        seat = game.seat_of(interaction.user.id) if game else None
        guild = game.record.guild_id if game else interaction.guild_id
        # The component's argument is left out: on a private panel it can name a hidden card.
        log.exception(
            "game=%s guild=%s seat=%s click of kind %r by user %s failed",
            component.game_id if component else None,
            guild,
            seat,
            kind,
            interaction.user.id,
        )
        await reply(
            interaction, _("Sorry — something went wrong on my side. The game is safe; please try again.")
        )


async def _moved_on(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId | None, text: str
) -> None:
    game = bot.service.live.get(component.game_id) if component else None
    if game is None:
        await reply(interaction, text)
        return
    bot.presenter.refresh(game)
    seat = game.seat_of(interaction.user.id)
    if on_private_panel(interaction) and seat is not None and game.state is not None:
        await show(interaction, private_panel(game, seat, note=f"↻ {text}"))
    else:
        await reply(interaction, text)


async def on_action(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    encoded = component.arg
    values = ids.chosen_values(interaction.data)
    if component.kind is ids.Kind.SELECT:
        if len(values) != 1:
            raise Refusal(_("Choose exactly one option."))
        encoded = values[0]
    elif component.kind is ids.Kind.MULTI:
        encoded = await _compose(bot, interaction, component, values)
    live = bot.service.live.get(component.game_id)
    if component.kind is not ids.Kind.CONFIRM and await _asked_first(interaction, live, component, encoded):
        return
    seen = live.events[-1] if live is not None and live.events else None

    async def move() -> LiveGame:
        await bot.absence.come_back(component.game_id, interaction.user.id)  # a move says they're here
        return await bot.service.play(component.game_id, interaction.user.id, component.version, encoded)

    try:
        game = await acknowledged_if_slow(bot, interaction, move())
    except InvalidInput as error:
        raise BadRequest(ids.INVALID) from error  # no control Catnip made carries a move it can't read
    seat = game.seat_of(interaction.user.id)
    if on_private_panel(interaction) and seat is not None:
        await show(interaction, private_panel(game, seat, fresh=fresh_events(game, seat, seen)))
    else:
        await acknowledge(interaction, message_gone=clicked_message_gone(bot, interaction))


async def _asked_first(
    interaction: discord.Interaction, game: LiveGame | None, component: ids.ComponentId, encoded: str
) -> bool:
    """Whether the move `encoded` is a costly, rarely meant one (`Texts.confirmation`), now asked about
    in the click's own private answer (the panel it was clicked on, or a new one under the table)."""
    if game is None or game.state is None or game.record.version != component.version:
        return False  # the move's own handler answers
    seat = game.seat_of(interaction.user.id)
    if seat is None or seat not in game.to_act() or len(game.rules.legal_actions(game.state, seat)) < 2:
        return False  # a move that is the only one left is meant
    question = game.game.texts.confirmation(game.view(seat), encoded)
    if question is None:
        return False
    message = confirmation_message(game, seat, component.version, encoded, question)
    if on_private_panel(interaction):
        await show(interaction, message)
    else:
        await respond(interaction, MESSAGE, embed=message.embed, view=message.view, ephemeral=True)
    return True


async def on_undo(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """↩️ Take back: the clicker's last move undone, answered like a move (their panel shows the result)."""
    game = await acknowledged_if_slow(
        bot, interaction, bot.service.take_back(component.game_id, interaction.user.id, component.version)
    )
    seat = game.seat_of(interaction.user.id)
    if on_private_panel(interaction) and seat is not None:
        await show(interaction, private_panel(game, seat, note=_(TAKEN_BACK)))
    else:
        await acknowledge(interaction, message_gone=clicked_message_gone(bot, interaction))


async def _compose(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId, values: list[str]
) -> str:
    """The action a multi-select's chosen values stand for, as the game's renderer reads them."""
    game = await bot.service.games.get(component.game_id)
    seat = bot.service.moves.check_player(game, interaction.user.id)
    if game.state is None:
        raise Refusal(_("The game hasn't started yet."))
    view = game.view(seat)
    try:
        return game.game.texts.compose(view, component.arg, values)
    except OutOfDate as error:
        raise TableMovedOn(str(error)) from error


async def on_page(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await bot.service.games.get(component.game_id)
    seat = bot.service.moves.check_player(game, interaction.user.id)
    if game.record.version != component.version or game.state is None:
        raise TableMovedOn()
    await show(interaction, private_panel(game, seat, page=component.page))


async def on_view(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await bot.service.games.get(component.game_id)
    seat = bot.service.moves.check_player(game, interaction.user.id)
    if game.state is None:
        raise Refusal(_("The game hasn't started yet."))
    message = private_panel(game, seat, note=await welcome_back(bot, game.id, interaction.user.id))
    # Acknowledged as an update of the table (which stays as it is), the click's token can edit the
    # table for the next moves; the panel follows as the click's private followup. A table posted
    # again as it was clicked has no update: the panel is the click's reply.
    if bot.presenter.tokens.lacks_original(game, interaction.message) and await defer_update(
        interaction, message_gone=clicked_message_gone(bot, interaction)
    ):
        await interaction.followup.send(embed=message.embed, view=message.view, ephemeral=True)
        return
    await respond(interaction, MESSAGE, embed=message.embed, view=message.view, ephemeral=True)


async def on_lobby(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    change = LOBBY_CHANGES[component.op]
    await acknowledged_if_slow(bot, interaction, change(bot, interaction, component))
    await acknowledge(interaction, message_gone=clicked_message_gone(bot, interaction))


async def _join(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await bot.service.lobby.join(component.game_id, interaction.user.id, interaction.user.display_name)


async def _leave(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await bot.service.lobby.leave_lobby(component.game_id, interaction.user.id)


async def _add_computer(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    values = ids.chosen_values(interaction.data)
    await bot.service.lobby.add_computer(component.game_id, interaction.user.id, values[0] if values else "")


async def _remove_computer(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId
) -> None:
    await bot.service.lobby.remove_computer(component.game_id, interaction.user.id)


async def _shuffle(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await bot.service.lobby.shuffle_seats(component.game_id, interaction.user.id, seed=bot.new_seed())


async def _set_option(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    service, name = bot.service, component.arg
    value = await _option_value(service, interaction, component.game_id, name)
    await service.lobby.set_option(component.game_id, interaction.user.id, name, value)


async def _start(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await bot.service.start(component.game_id, interaction.user.id, seed=bot.new_seed())


async def _cancel(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await bot.service.lobby.cancel(component.game_id, interaction.user.id, can_manage=can_manage(interaction))


async def _option_value(service, interaction: discord.Interaction, game_id: int, name: str) -> object:
    """The new value of lobby option `name`: a toggled switch, or the value chosen in its select."""
    game = await service.games.get(game_id)
    current = game.record.options.get(name)
    from_select = (interaction.data or {}).get("component_type") == ids.ComponentType.SELECT
    if isinstance(current, bool) and not from_select:
        return not current
    if name == LANGUAGE_OPTION and not from_select:
        return next_language(game.language)
    values = ids.chosen_values(interaction.data) if from_select else []
    if len(values) != 1 or isinstance(current, bool):
        raise Refusal(_("That isn't a valid setting."))
    return setting_value(game, name, values[0])


async def on_rematch(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await acknowledged_if_slow(
        bot, interaction, bot.service.rematch(component.game_id, interaction.user.id, seed=bot.new_seed())
    )
    await reply(interaction, _("🔁 Rematch started: table #{id} below.", id=game.id))


Handler = Callable[["CatnipBot", discord.Interaction, ids.ComponentId], Awaitable[None]]

LOBBY_CHANGES: dict[ids.LobbyOp, Handler] = {
    ids.LobbyOp.JOIN: _join,
    ids.LobbyOp.LEAVE: _leave,
    ids.LobbyOp.ADD_COMPUTER: _add_computer,
    ids.LobbyOp.REMOVE_COMPUTER: _remove_computer,
    ids.LobbyOp.SHUFFLE: _shuffle,
    ids.LobbyOp.OPTION: _set_option,
    ids.LobbyOp.SETTINGS: choose_setting,
    ids.LobbyOp.START: _start,
    ids.LobbyOp.CANCEL: _cancel,
}

HANDLERS: dict[ids.Kind, Handler] = {
    ids.Kind.ACTION: on_action,
    ids.Kind.SELECT: on_action,
    ids.Kind.MULTI: on_action,
    ids.Kind.CONFIRM: on_action,
    ids.Kind.UNDO: on_undo,
    ids.Kind.PAGE: on_page,
    ids.Kind.VIEW: on_view,
    ids.Kind.LOBBY: on_lobby,
    ids.Kind.REMATCH: on_rematch,
    ids.Kind.GUIDE: on_guide,
    ids.Kind.REFRESH: on_refresh,
    ids.Kind.BACK: on_back,
    ids.Kind.REPLACE: on_replace,
    ids.Kind.DETAILS: on_details,
    ids.Kind.REPLAY: on_replay,
    ids.Kind.MORE: on_more,
}
