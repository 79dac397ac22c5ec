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
from lang import _

if TYPE_CHECKING:
    from bot.app import CatnipBot


def guide_message(game: Game, page: int = 0) -> Message:
    """Page `page` of `game`'s guide, with Previous/Next buttons when it has more than one page (a
    disabled one names this page, so the two ids always differ)."""
    pages = game.guide
    shown = pages[page]
    embed = discord.Embed(
        title=_("📖 How to play {game} — {page}", game=game.title, page=_(shown.title)),
        description=_(shown.text),
        colour=COLOUR,
    )
    items: list[Item] = []
    if len(pages) > 1:
        embed.set_footer(text=_("Page {page} of {pages}", page=page + 1, pages=len(pages)))
        items = [
            Button(
                label=_("◀ Previous"), custom_id=ids.guide_id(game.key, max(page - 1, 0)), disabled=page == 0
            ),
            Button(
                label=_("Next ▶"),
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
    """What /help says: what Catnip is, how to start a game and the commands (named as the member's
    client shows them)."""
    games = ", ".join(f"**{game.title}**" for game in GAMES.values())
    return "\n".join(
        [
            _(
                "🐾 **Catnip** plays cat-themed board games with you right here in Discord: {games}.",
                games=games,
            ),
            "",
            _(
                "**Start a game:** type `/play`, pick a game, and a table opens (in a new thread when I may "
                "make one). Others press **Join**, the host can add computer players, then presses **Start**."
            ),
            _(
                "**During the game:** the table shows what everyone can see. Press 🃏 to open your private "
                "view — your cards and your decisions — and 📖 **How to play** for the game's guide."
            ),
            "",
            _("**Commands**"),
            _("`/play` — open a table for a game"),
            _("`/rules` — how to play a game"),
            _("`/game status` — show this channel's table again"),
            _("`/game hand` — open your private view"),
            _("`/game log` — what happened recently"),
            _("`/game replay` — step through a finished game, move by move"),
            _("`/game leave` — leave; a computer player takes your seat"),
            _("`/game end` — end the game (the host, or Manage Server)"),
            _("`/stats` — your games on this server"),
            _("`/leaderboard` — the best players here, by rating"),
            _("`/help` — this message"),
        ]
    )
