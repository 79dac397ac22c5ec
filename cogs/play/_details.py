"""The table's Details button: every player's details, the final breakdown and more of what happened,
shown privately to whoever presses it, on a running or a finished table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import GameClosed, Refusal, game_ended
from bot.live import LiveGame
from cogs import custom_ids as ids
from cogs.messages import DETAILS_NARRATION, details_message
from engine import GAMES, Event
from lang import _

if TYPE_CHECKING:
    from bot.app import CatnipBot


async def table_for_details(bot: CatnipBot, game_id: int) -> LiveGame:
    """The game in memory, or a finished game read back from the store with its recent events."""
    game = bot.service.live.get(game_id)
    if game is not None and game.state is not None:
        return game
    if game is not None:
        raise Refusal(_("The game hasn't started yet."))
    record = await bot.store.games.get_game(game_id)
    if record.status != "finished":
        raise GameClosed(game_ended(record.status))
    rules = GAMES[record.game].rules
    events = [
        Event.model_validate(data)
        for move in await bot.store.games.recent_moves(record.id, DETAILS_NARRATION)
        for data in move.events
    ]
    state = await bot.store.games.load_state(record, rules)
    return LiveGame(record=record, rules=rules, state=state, events=events)


async def on_details(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    message = details_message(await table_for_details(bot, component.game_id))
    await interaction.response.send_message(embed=message.embed, ephemeral=True)
