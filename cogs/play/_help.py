"""Help for players: a game's guide, page by page ("📖 How to play" and /rules), and /help."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs import custom_ids as ids
from cogs.components import Button, Controls, Item
from cogs.messages import COLOUR, Message
from cogs.play._gate import on_private_panel
from engine import GAMES
from engine.game import Game

if TYPE_CHECKING:
    from bot.app import CatnipBot


def guide_message(game: Game, page: int = 0) -> Message:
    """Page `page` of `game`'s guide, with Previous/Next buttons when it has more than one page (a
    disabled one names this page, so the two ids always differ)."""
    pages = game.guide
    shown = pages[page]
    embed = discord.Embed(
        title=f"📖 How to play {game.title} — {shown.title}", description=shown.text, colour=COLOUR
    )
    items: list[Item] = []
    if len(pages) > 1:
        embed.set_footer(text=f"Page {page + 1} of {len(pages)}")
        items = [
            Button(
                label="◀ Previous", custom_id=ids.guide_id(game.key, max(page - 1, 0)), disabled=page == 0
            ),
            Button(
                label="Next ▶",
                custom_id=ids.guide_id(game.key, min(page + 1, len(pages) - 1)),
                disabled=page == len(pages) - 1,
            ),
        ]
    return Message(embed=embed, view=Controls(items))


async def on_guide(bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId) -> None:
    """Turn the page of a guide shown privately; from a lobby or table, show the guide privately."""
    message = guide_message(GAMES[component.guide_game], component.page)
    if on_private_panel(interaction):
        await interaction.response.edit_message(embed=message.embed, view=message.view)
    else:
        await interaction.response.send_message(embed=message.embed, view=message.view, ephemeral=True)


def help_text() -> str:
    """What /help says: what Catnip is, how to start a game and the commands."""
    games = ", ".join(f"**{game.title}**" for game in GAMES.values())
    return (
        f"🐾 **Catnip** plays cat-themed board games with you right here in Discord: {games}.\n\n"
        "**Start a game:** type `/play`, pick a game, and a table opens (in a new thread when I may make "
        "one). Others press **Join**, the host can add computer players, then presses **Start**.\n"
        "**During the game:** the table shows what everyone can see. Press 🃏 to open your private view "
        "— your cards and your decisions — and 📖 **How to play** for the game's guide.\n\n"
        "**Commands**\n"
        "`/play` — open a table for a game\n"
        "`/rules` — how to play a game\n"
        "`/game status` — show this channel's table again\n"
        "`/game hand` — open your private view\n"
        "`/game log` — what happened recently\n"
        "`/game replay` — step through a finished game, move by move\n"
        "`/game leave` — leave; a computer player takes your seat\n"
        "`/game end` — end the game (the host, or Manage Server)\n"
        "`/stats` — your games on this server\n"
        "`/leaderboard` — the best players here, by rating\n"
        "`/help` — this message"
    )
