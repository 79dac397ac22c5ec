"""Slash commands: /play, /game …, /rules, /help, /stats and /leaderboard."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.config import THREAD_ARCHIVE_MINUTES
from bot.errors import NotInGame, Refusal
from bot.live import LiveGame
from bot.storage import StoreUnavailable
from cogs.messages import COLOUR, table_message
from cogs.panel import private_panel
from cogs.play._answers import note_lost_token, token_lost
from cogs.play._components import reply, route_click
from cogs.play._help import guide_message, help_text
from cogs.play._presenter import TablePresenter
from cogs.play._replay import load_replay, step_message
from cogs.play._seat import stats_line, welcome_back
from cogs.ratings import leaderboard_lines, rank_line
from engine import GAMES, EngineError, Event
from lang import N_, _, language_of, n_, speaking

if TYPE_CHECKING:
    from bot.app import CatnipBot
    from bot.metrics import Metrics

log = logging.getLogger("catnip.commands")

SHOW_TO_CHANNEL = N_("Show it to the channel (only you see it if left out)")
GAME_CHOICES = [app_commands.Choice(name=game.title, value=key) for key, game in GAMES.items()]


async def answer_command_error(interaction: discord.Interaction, error: Exception, metrics: Metrics) -> None:
    """A refusal is said to the member privately (and counted); anything else is logged and apologised
    for."""
    original = getattr(error, "original", error)
    if isinstance(original, Refusal | EngineError | StoreUnavailable):
        metrics.refused(original)
        await reply(interaction, _(str(original)))  # a constant's message is translated only here
        return
    if token_lost(original):  # the command's work is done; only its answer could not follow
        note_lost_token(interaction)
        return
    log.error(
        "command %s by user %s failed",
        interaction.command and interaction.command.name,
        interaction.user.id,
        exc_info=original,
    )
    await reply(interaction, _("Sorry — something went wrong on my side. Please try again."))


class PlayCog(commands.Cog, name="Play"):
    """Opening tables and everything a player asks of a running game."""

    game = app_commands.Group(
        name=locale_str("game"), description=locale_str("Your game in this channel"), guild_only=True
    )

    def __init__(self, bot: CatnipBot) -> None:
        self.bot = bot
        self.presenter = TablePresenter(
            bot,
            bot.service,
            bot.timers,
            clicks=bot.overload,
            picture_cpu_share=bot.settings.picture_cpu_share,
            metrics=bot.metrics,
        )

    async def cog_load(self) -> None:
        """Show the tables as the games change (told after the timers)."""
        self.bot.service.show_with(self.presenter)

    async def cog_unload(self) -> None:
        """Stop hearing of changes, then finish the table updates already under way (their text; no
        new picture is drawn once stopping), and note the pings left standing."""
        self.bot.service.games.presenters.remove(self.presenter)
        self.presenter.pictures.close()
        await self.presenter.settle()
        await self.presenter.note_pings()

    def _showing(self) -> bool:
        """Whether this cog's presenter shows the tables (not once the cog unloads)."""
        return self.presenter in self.bot.service.games.presenters

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_command_error(interaction, error, self.bot.metrics)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.bot.in_charge(interaction):  # in a fleet changing its shard count, one process answers
            await route_click(self.bot, interaction, self.presenter)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        # Catnip's own messages never bury a table: its turn pings and timer warnings are deleted
        # once replaced or due, so only other people's messages count towards a repost.
        if self.bot.user is None or message.author.id != self.bot.user.id:
            self.presenter.message_posted(message.channel.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if self._showing():  # a deletion already on its way while the cog unloads: nothing to show then
            self.presenter.message_deleted(payload.message_id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if self._showing():
            self.presenter.thread_deleted(payload.thread_id)

    # ------------------------------------------------------------------ /play

    @app_commands.command(
        name=locale_str("play"), description=locale_str("Open a table for one of Catnip's games")
    )
    @app_commands.describe(game=locale_str("Which game to play"))
    @app_commands.rename(game=locale_str("game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        rules = GAMES[game.value].rules
        channel = interaction.channel
        thread = None
        self.bot.service.games.check_owner(interaction.guild_id)  # before a thread is made for the table
        await interaction.response.defer(ephemeral=True, thinking=True)
        if isinstance(channel, discord.TextChannel):
            me = channel.guild.me
            if me is not None and channel.permissions_for(me).create_public_threads:
                with speaking(language_of(interaction.guild_locale)):
                    name = _("{game} with {name}", game=rules.title, name=interaction.user.display_name)[:100]
                try:
                    thread = await channel.create_thread(
                        name=name,
                        type=discord.ChannelType.public_thread,
                        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                    )
                except discord.HTTPException:
                    thread = None
        parent_id = channel.parent_id if isinstance(channel, discord.Thread) else channel.id
        live = await self.bot.service.lobby.open_lobby(
            game_key=game.value,
            guild_id=interaction.guild_id,
            channel_id=parent_id,
            thread_id=thread.id if thread else (channel.id if isinstance(channel, discord.Thread) else None),
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            language=language_of(interaction.guild_locale),
        )
        if thread:
            opened = _(
                "🐾 Your {game} table #{id} is open in {thread}.",
                game=rules.title,
                id=live.id,
                thread=thread.mention,
            )
        else:
            opened = _("🐾 Your {game} table #{id} is open below.", game=rules.title, id=live.id)
        await interaction.followup.send(opened, ephemeral=True)

    # ------------------------------------------------------------------ /game

    def _game_here(self, interaction: discord.Interaction) -> LiveGame:
        games = self.bot.service.games.in_channel(interaction.channel_id)
        mine = [g for g in games if g.seat_of(interaction.user.id) is not None]
        chosen = mine or games
        if not chosen:
            raise Refusal(_("There is no game running in this channel. Start one with /play."))
        return chosen[-1]

    @game.command(
        name=locale_str("status"), description=locale_str("Show the current table of this channel's game")
    )
    async def status(self, interaction: discord.Interaction) -> None:
        game = self._game_here(interaction)
        if game.state is None:
            raise Refusal(
                n_(
                    "Table #{id} is still a lobby: {count} seated.",
                    "Table #{id} is still a lobby: {count} seated.",
                    len(game.record.seats),
                    id=game.id,
                )
            )
        message = table_message(game, self.bot.timers.due(game.id), picture=False)
        await interaction.response.send_message(embed=message.embed, ephemeral=True)

    @game.command(name=locale_str("hand"), description=locale_str("Open your private view of your game here"))
    async def hand(self, interaction: discord.Interaction) -> None:
        game = self._game_here(interaction)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise NotInGame(_("You're not playing in this channel's game."))
        if game.state is None:
            raise Refusal(_("The game hasn't started yet."))
        message = private_panel(game, seat, note=await welcome_back(self.bot, game.id, interaction.user.id))
        await interaction.response.send_message(embed=message.embed, view=message.view, ephemeral=True)

    @game.command(
        name=locale_str("leave"), description=locale_str("Leave your game; a computer player takes your seat")
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        game = self._game_here(interaction)
        await self.bot.service.take_over(game.id, interaction.user.id)
        await reply(interaction, _("You left the game; a computer player took your seat."))

    @game.command(
        name=locale_str("end"), description=locale_str("End this channel's game (host or Manage Server)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        game = self._game_here(interaction)
        permissions = getattr(interaction.user, "guild_permissions", None)
        await self.bot.service.end(
            game.id, interaction.user.id, bool(permissions and permissions.manage_guild)
        )
        await reply(interaction, _("Table #{id} was ended.", id=game.id))

    @game.command(name=locale_str("log"), description=locale_str("Recent events of this channel's game"))
    async def log(self, interaction: discord.Interaction) -> None:
        game = self._game_here(interaction)
        seat = game.seat_of(interaction.user.id)
        moves = await self.bot.store.games.recent_moves(game.id, 15)
        lines = []
        for move in moves:
            for data in move.events:
                event = Event.model_validate(data)
                if event.visible(seat):
                    lines.append(event.render(game.names))
        text = "\n".join(lines[-25:]) or _("Nothing has happened yet.")
        embed = discord.Embed(
            title=_("Table #{id} — recent events", id=game.id), description=text[-4000:], colour=COLOUR
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @game.command(
        name=locale_str("replay"), description=locale_str("Step through a finished game, move by move")
    )
    @app_commands.describe(game_id=locale_str("The game's number (its table #)"))
    @app_commands.rename(game_id=locale_str("id"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1]) -> None:
        replay = await load_replay(self.bot.store, game_id, interaction.guild_id)
        message, files = await step_message(self.bot, replay, 0, interaction.user.id)
        await interaction.response.send_message(
            embed=message.embed, view=message.view, files=files, ephemeral=True
        )

    # ------------------------------------------------------------------ info

    @app_commands.command(
        name=locale_str("rules"), description=locale_str("How to play one of Catnip's games")
    )
    @app_commands.describe(game=locale_str("The game to explain"))
    @app_commands.rename(game=locale_str("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        message = guide_message(GAMES[game.value])
        await interaction.response.send_message(embed=message.embed, view=message.view, ephemeral=True)

    @app_commands.command(
        name=locale_str("help"),
        description=locale_str("What Catnip is, its commands and how to start a game"),
    )
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=_("🐾 Catnip — help"), description=help_text(), colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name=locale_str("stats"), description=locale_str("Games played and won on this server")
    )
    @app_commands.describe(
        user=locale_str("Whose games to show (you, if left out)"), show=locale_str(SHOW_TO_CHANNEL)
    )
    @app_commands.rename(user=locale_str("user"), show=locale_str("show"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.Member | None = None, show: bool = False
    ) -> None:
        who, store, guild = user or interaction.user, self.bot.store.results, interaction.guild_id
        rows = await store.stats(guild, who.id)
        ratings = await store.member_ratings(guild, who.id)
        ranks = {game: await store.rating_rank(guild, game, who.id) for game in ratings}
        lines = [
            stats_line(
                row,
                yours=who.id == interaction.user.id,
                rating=ratings.get(row["game"]),
                rank=ranks.get(row["game"]),
            )
            for row in rows
        ]
        embed = discord.Embed(
            title=_("{member}'s games", member=who.display_name),
            colour=COLOUR,
            description="\n".join(lines) or _("No finished games yet."),
        )
        await interaction.response.send_message(embed=embed, ephemeral=not show)

    @app_commands.command(
        name=locale_str("leaderboard"), description=locale_str("The best players on this server, by rating")
    )
    @app_commands.describe(
        game=locale_str("The game whose players to rank"), show=locale_str(SHOW_TO_CHANNEL)
    )
    @app_commands.rename(game=locale_str("game"), show=locale_str("show"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], show: bool = False
    ) -> None:
        store, guild, member = self.bot.store.results, interaction.guild_id, interaction.user.id
        rows = await store.rating_leaderboard(guild, game.value)
        lines = leaderboard_lines(rows)
        rank = await store.rating_rank(guild, game.value, member)
        if rank is not None:
            lines.append(rank_line(member, *rank))
        embed = discord.Embed(
            title=_("{game} leaderboard", game=GAMES[game.value].title),
            colour=COLOUR,
            description="\n".join(lines) or _("No rated games yet."),
        )
        await interaction.response.send_message(
            embed=embed, ephemeral=not show, allowed_mentions=discord.AllowedMentions.none()
        )
