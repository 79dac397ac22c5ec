"""Every click on a Catnip button or select, routed by its custom_id.

One `DynamicItem` matches every custom_id, so each click — including old
buttons after a restart and ids Catnip never made — gets an answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.errors import Refusal, TableMovedOn
from bot.sessions import TIMER_OPTION
from cogs import custom_ids as ids
from cogs.messages import is_seat_option, private_panel
from engine import GAMES, EngineError, OutOfDate

if TYPE_CHECKING:
    from bot.app import CatnipBot

log = logging.getLogger("catnip.components")

T = TypeVar("T")

ANSWER_WITHIN = 1.0
"""Seconds a click's own work may take before the click is acknowledged first.

A move is normally answered with its result in one response. One that is not saved and shown
within this time (a store or a machine under heavy load) is acknowledged first, so Discord's
3-second deadline is never missed, and its result follows as an edit once the move is saved.
"""


class ComponentRouter(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s).+"):
    """Stands in for any Catnip component; its callback hands the click to `handle_click`."""

    def __init__(self, item: discord.ui.Item) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match, /):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await handle_click(interaction, self.item.custom_id)


async def acknowledged_if_slow(interaction: discord.Interaction, work: Awaitable[T]) -> T:
    """The result of `work`; if it is not ready within `ANSWER_WITHIN`, the click is deferred meanwhile.

    `work` runs in the caller's own task and only a timer waits beside it: on a busy event loop
    every extra task or callback between a click and its answer costs a turn of the loop.
    """
    deferring: list[asyncio.Task[None]] = []

    def acknowledge_now() -> None:
        if not interaction.response.is_done():
            deferring.append(asyncio.create_task(interaction.response.defer()))

    timer = asyncio.get_running_loop().call_later(ANSWER_WITHIN, acknowledge_now)
    try:
        return await work
    finally:
        timer.cancel()
        if deferring:
            await deferring[0]


async def show(interaction: discord.Interaction, message) -> None:
    """Replace the clicked message with `message`, whether or not the click was acknowledged already."""
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=message.embed, view=message.view)
    else:
        await interaction.response.edit_message(embed=message.embed, view=message.view)


async def acknowledge(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer()


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def handle_click(interaction: discord.Interaction, custom_id: str) -> None:
    bot: CatnipBot = interaction.client  # type: ignore[assignment]
    try:
        component = ids.parse(custom_id)
        handler = HANDLERS[component.kind]
        await handler(bot, interaction, component)
    except TableMovedOn as refusal:
        await _moved_on(bot, interaction, custom_id, str(refusal))
    except (Refusal, EngineError) as refusal:
        await reply(interaction, str(refusal))
    except Exception:
        game = bot.service.live.get(component.game_id)
        seat = game.seat_of(interaction.user.id) if game else None
        guild = game.record.guild_id if game else interaction.guild_id
        # The component's argument is left out: on a private panel it can name a hidden card.
        log.exception(
            "game=%s guild=%s seat=%s click of kind %r by user %s failed",
            component.game_id,
            guild,
            seat,
            component.kind,
            interaction.user.id,
        )
        await reply(
            interaction, "Sorry — something went wrong on my side. The game is safe; please try again."
        )


async def _moved_on(bot: CatnipBot, interaction: discord.Interaction, custom_id: str, text: str) -> None:
    component = ids.parse(custom_id)
    game = bot.service.live.get(component.game_id)
    if game is None:
        await reply(interaction, text)
        return
    bot.presenter.refresh(game)
    seat = game.seat_of(interaction.user.id)
    if _on_private_panel(interaction) and seat is not None and game.state is not None:
        await show(interaction, private_panel(game, seat, note=f"↻ {text}"))
    else:
        await reply(interaction, text)


def _on_private_panel(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def on_action(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    encoded = component.arg
    values = (interaction.data or {}).get("values") or []
    if component.kind == "s":
        if len(values) != 1:
            raise Refusal("Choose exactly one option.")
        encoded = values[0]
    elif component.kind == "m":
        encoded = await _compose(bot, interaction, component, values)
    game = await acknowledged_if_slow(
        interaction, bot.service.play(component.game_id, interaction.user.id, component.version, encoded)
    )
    seat = game.seat_of(interaction.user.id)
    if _on_private_panel(interaction) and seat is not None:
        await show(interaction, private_panel(game, seat))
    else:
        await acknowledge(interaction)


async def _compose(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId, values: list[str]
) -> str:
    """The action a multi-select's chosen values stand for, as the game's renderer reads them."""
    game = await bot.service.get(component.game_id)
    seat = bot.service.check_player(game, interaction.user.id)
    if game.state is None:
        raise Refusal("The game hasn't started yet.")
    view = game.rules.view(game.state, seat)
    try:
        return GAMES[game.record.game].texts.compose(view, component.arg, values)
    except OutOfDate as error:
        raise TableMovedOn(str(error)) from error


async def on_page(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await bot.service.get(component.game_id)
    seat = bot.service.check_player(game, interaction.user.id)
    if game.record.version != component.version:
        raise TableMovedOn()
    await show(interaction, private_panel(game, seat, page=int(component.arg)))


async def on_view(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await bot.service.get(component.game_id)
    seat = bot.service.check_player(game, interaction.user.id)
    if game.state is None:
        raise Refusal("The game hasn't started yet.")
    message = private_panel(game, seat)
    await interaction.response.send_message(embed=message.embed, view=message.view, ephemeral=True)


async def on_lobby(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    await acknowledged_if_slow(interaction, _lobby_change(bot, interaction, component))
    await acknowledge(interaction)


async def _lobby_change(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    service, user = bot.service, interaction.user
    op, _, arg = component.arg.partition("/")
    game_id = component.game_id
    if op == "join":
        await service.join(game_id, user.id, user.display_name)
    elif op == "leave":
        await service.leave_lobby(game_id, user.id)
    elif op == "addc":
        values = (interaction.data or {}).get("values") or []
        await service.add_computer(game_id, user.id, values[0] if values else "")
    elif op == "rmc":
        await service.remove_computer(game_id, user.id)
    elif op == "shuffle":
        await service.shuffle_seats(game_id, user.id, seed=bot.new_seed())
    elif op == "opt":
        await service.set_option(
            game_id, user.id, arg, await _option_value(service, interaction, game_id, arg)
        )
    elif op == "start":
        await service.start(game_id, user.id, seed=bot.new_seed())
    elif op == "cancel":
        await service.cancel(game_id, user.id, can_manage=_can_manage(interaction))


async def _option_value(service, interaction: discord.Interaction, game_id: int, name: str) -> object:
    """The new value of lobby option `name`: a toggled switch, or the value chosen in its select."""
    game = await service.get(game_id)
    current = game.record.options.get(name)
    if isinstance(current, bool):
        return not current
    values = (interaction.data or {}).get("values") or []
    if name == TIMER_OPTION and len(values) == 1:
        return None if values[0] == "default" else int(values[0]) if values[0].isdigit() else -1
    if is_seat_option(game, name) and len(values) == 1:
        if values[0] == "random":
            return None
        if values[0].isdigit() and int(values[0]) < len(game.record.seats):
            return int(values[0])
    raise Refusal("That isn't a valid setting.")


async def on_rematch(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    game = await acknowledged_if_slow(
        interaction, bot.service.rematch(component.game_id, interaction.user.id, seed=bot.new_seed())
    )
    await reply(interaction, f"🔁 Rematch started: table #{game.id} below.")


def _can_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and permissions.manage_guild)


HANDLERS = {
    "a": on_action,
    "s": on_action,
    "m": on_action,
    "pg": on_page,
    "v": on_view,
    "l": on_lobby,
    "r": on_rematch,
}
