"""Clicks about a seat rather than a move: I'm back, Replace a player, Refresh, the rest of one's own view;
and what a private view says after a decision (its result, above the next decision when there is one at
once)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import BadRequest, Refusal
from bot.live import LiveGame
from cogs import custom_ids as ids
from cogs.components import Controls
from cogs.panel import more_message, private_panel
from cogs.play._answers import reply, show
from cogs.play._gate import can_manage, on_private_panel
from cogs.ratings import rank_text, rating_text
from cogs.seat_controls import seat_picker
from engine import GAMES, Event, events_for
from lang import N_, _, n_

if TYPE_CHECKING:
    from bot.app import CatnipBot

WELCOME_BACK = N_("👋 Welcome back — you play your seat again.")


async def welcome_back(bot: CatnipBot, game_id: int, user_id: int) -> str | None:
    """Give `user_id` their seat back if a computer plays it for them; the note saying so, else None."""
    return _(WELCOME_BACK) if await bot.absence.come_back(game_id, user_id) is not None else None


def fresh_events(game: LiveGame, seat: int, seen: Event | None) -> int:
    """How many events `seat` may see came after `seen` (the newest event before its decision)."""
    events = game.events
    start = next((index + 1 for index in range(len(events) - 1, -1, -1) if events[index] is seen), 0)
    return len(events_for(events[start:], seat))


async def _seated(bot: CatnipBot, game_id: int, user_id: int) -> tuple[LiveGame, int]:
    game = await bot.service.games.get(game_id)
    seat = bot.service.moves.check_player(game, user_id)
    if game.state is None:
        raise Refusal(_("The game hasn't started yet."))
    return game, seat


async def on_refresh(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """The clicker's private view as it is now, in place of the one clicked."""
    game, seat = await _seated(bot, component.game_id, interaction.user.id)
    note = await welcome_back(bot, game.id, interaction.user.id)
    await show(interaction, private_panel(game, seat, note=note))


async def on_more(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """The rest of the clicker's own view, in a private message of its own: the panel stays as it is."""
    game, seat = await _seated(bot, component.game_id, interaction.user.id)
    message = more_message(game, seat)
    await interaction.response.send_message(embed=message.embed, ephemeral=True)


async def on_back(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """I'm back: the seat is the member's again, and their private view opens to say so."""
    game, seat = await _seated(bot, component.game_id, interaction.user.id)
    if await welcome_back(bot, game.id, interaction.user.id) is None:
        raise Refusal(_("You're already playing your seat: no computer is playing it for you."))
    message = private_panel(game, seat, note=_(WELCOME_BACK))
    await interaction.response.send_message(embed=message.embed, view=message.view, ephemeral=True)


async def on_replace(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """The table's button shows the host a select of seats; the seat chosen there goes to a computer."""
    game = await bot.service.games.get(component.game_id)
    manager = can_manage(interaction)
    values = ids.chosen_values(interaction.data)
    if not values:
        bot.absence.check_may_replace(game, interaction.user.id, manager)
        picker = seat_picker(game)
        if not picker:
            raise Refusal(_("Nobody is playing a seat a computer player could take."))
        question = _("Whose seat should a computer player take until they're back?")
        await interaction.response.send_message(question, view=Controls(picker), ephemeral=True)
        return
    if len(values) != 1 or not (values[0].isascii() and values[0].isdigit()):
        raise BadRequest(ids.INVALID)
    seat = int(values[0])
    game = await bot.absence.replace(game.id, interaction.user.id, seat, can_manage=manager)
    done = _("🤖 A computer player now plays for {player} until they're back.", player=game.names[seat])
    if on_private_panel(interaction):
        await interaction.response.edit_message(content=done, view=None)
    else:
        await reply(interaction, done)


def stats_line(
    row: dict,
    *,
    yours: bool = True,
    rating: tuple[float, float, int] | None = None,
    rank: tuple[int, int] | None = None,
) -> str:
    """One game's line of /stats; games a computer finished in the member's seat are played, not won.
    With the member's (μ, σ, rated games) at that game, their rating too, and their place among the
    rated members here (`rank`)."""
    title = GAMES[row["game"]].title if row["game"] in GAMES else row["game"]
    line = _("**{game}**: {won} won of {played}", game=title, won=row["won"], played=row["played"])
    if row["best"] is not None:
        line += _(" (best score {score})", score=row["best"])
    if rating is not None:
        line += f" · {rating_text(*rating)}"
        if rank is not None:
            line += f" · {rank_text(*rank)}"
    if count := row.get("by_computer"):
        # Translators: the English says the same for one game and for several.
        if yours:
            line += n_(
                " · {count} finished by a computer for you",
                " · {count} finished by a computer for you",
                count,
            )
        else:
            line += n_(
                " · {count} finished by a computer for them",
                " · {count} finished by a computer for them",
                count,
            )
    return line
