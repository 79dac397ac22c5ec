"""Catnip under Discord's real rate limits: a game at its normal pace keeps every channel within them,
and moves faster than a rate-limited channel takes edits end in one table showing the last of them."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.app import create_bot
from bot.config import Settings
from cogs.messages import table_message
from emulator import Emulator
from emulator.entities import StandingClock
from emulator.ratelimits import DISCORD, EDIT
from engine import Rng
from tests.e2e.driver import MEMBERS, EmulatorClock, Table, catnip, open_table, table_of

CHANNEL_ROUTES = ("POST /channels/{channel_id}/messages", EDIT, "DELETE /channels/{channel_id}/messages")


class FastForwardClock(EmulatorClock):
    """The bot's pauses cost no real time: a pause waits until the bot has shown everything and is
    done, then moves the emulator's clock, on which Discord's rate limits and the bot's timers run.
    That clock stands still otherwise (`StandingClock`): bot work takes no emulated time, which is near
    the truth beside a 1.5 s pause, however slow the machine."""

    bot = None

    async def sleep(self, seconds: float) -> None:
        await self.bot.presenter.settle()
        await self.emu.settle()
        self.emu.advance(seconds)


@pytest.mark.parametrize("pictures", [False, True], ids=["text", "pictures"])
async def test_a_five_seat_game_with_computers_at_their_default_pace_stays_within_every_limit(
    tmp_path, pictures
):
    assert Settings(_env_file=None).computer_delay_seconds == 1.5, "the pace this test is about"
    async with (
        Emulator.start(members=MEMBERS, rate_limits=DISCORD, clock=StandingClock()) as emu,
        catnip_at_default_pace(emu, tmp_path, pictures=pictures),
    ):
        bot = emu.bots[0][0]
        ann = emu.member("Ann")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        for _ in range(4):
            emu.advance(1.5)  # a host picks four computer players in a few seconds
            assert (await ann.select(lobby, "Add computer player (host)…", ["easy"])).ok
        emu.advance(1.5)
        assert (await ann.click(lobby, "Start")).ok
        game = next(iter(bot.service.live.values()))
        table = Table(emu, thread, [ann], Rng.seeded(8))
        moves = 0

        def anns_turn_or_over() -> bool:
            over = game.rules.outcome(game.state) is not None
            return over or any(game.record.seats[s].user_id == ann.id for s in game.to_act())

        while game.rules.outcome(game.state) is None:
            await emu.wait_for(anns_turn_or_over, timeout=30)  # the computers move meanwhile
            if game.rules.outcome(game.state) is None:
                await bot.presenter.settle()
                await emu.settle()
                emu.advance(3)  # Ann sees her ping and thinks
                await table.step()
            moves = game.record.version
            assert moves < 400, "the game ends"
        await bot.presenter.settle()
        await emu.settle()
        assert any(b.get("label") == "Rematch" for b in table_of(emu, thread).buttons())
        assert emu.rate_limited == [], "not a single 429"
        dry = [route for route in emu.buckets_run_dry if route.startswith(CHANNEL_ROUTES)]
        assert dry == [], "no channel bucket ran dry, so discord.py never held a table or a ping back"


@contextlib.asynccontextmanager
async def catnip_at_default_pace(emu: Emulator, tmp_path, *, pictures: bool):
    """Catnip with its default settings (computer players pause 1.5 s) on a fast-forward clock."""
    settings = Settings(
        discord_token="emulator-token",
        database_path=tmp_path / "c.sqlite3",
        pictures=pictures,
        _env_file=None,
    )
    counter = iter(range(5000, 6000))
    clock = FastForwardClock(emu)
    with emu.point_discord_py():
        bot = clock.bot = create_bot(
            settings, guild_ready_timeout=0.05, seed_source=lambda: next(counter), clock=clock
        )
        await emu.run_bot(bot)
        try:
            yield bot
        finally:
            await bot.close()


ORIGINAL_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"


@pytest.mark.parametrize(
    ("route", "minutes"),
    [(ORIGINAL_EDIT, 0), (EDIT, 15)],
    ids=["through-the-start-click-token", "through-the-bot-route-once-the-token-is-too-old"],
)
async def test_moves_while_the_table_is_rate_limited_end_in_one_edit_showing_the_last(
    tmp_path, route, minutes
):
    async with catnip(tmp_path, rate_limits=DISCORD) as (emu, bot):
        thread, _members = await open_table(emu, "catsdogs", 2)
        emu.advance(minutes * 60)
        game = next(iter(bot.service.live.values()))
        table_id = table_of(emu, thread).id
        edits = []
        emu.on_message(lambda kind, message: edits.append(message.id) if kind == "update" else None)
        emu.force_429(route, retry_after=0.5)  # the next table edit is told to wait half a second
        for _ in range(10):
            seat = game.to_act()[0]
            action = game.rules.legal_actions(game.state, seat)[0]
            user = game.record.seats[seat].user_id
            await bot.service.play(game.id, user, game.record.version, action.encode())
            await asyncio.sleep(0.01)
        await bot.presenter.settle()
        await emu.settle()

        assert emu.rate_limited == [route]
        assert edits.count(table_id) <= 2, (
            "the edit held back by the 429, then the latest: no queue of stale ones"
        )
        shown = table_of(emu, thread)
        assert shown.id == table_id
        latest = table_message(game, bot.timers.due(game.id)).embed.to_dict()
        assert (
            shown.embeds[0]["footer"] == latest["footer"]
            and shown.embeds[0]["description"] == latest["description"]
        )
        assert shown.embeds[0]["footer"]["text"].endswith(f"move {game.record.version - 1}")
        pings = [m for m in emu.public_messages(thread) if m.content.startswith("🔔")]
        to_act = {game.record.seats[s].user_id for s in game.to_act()}
        assert len(pings) == 1 and pings[0].content.count("<@") == len(to_act)
        assert all(f"<@{user}>" in pings[0].content for user in to_act)
