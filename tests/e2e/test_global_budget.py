"""Past the bot's share of Discord's global limit, through the emulator enforcing that limit: a burst of
moves on tables whose click tokens have expired (so every table edit, ping and deletion counts) gets no
429, and every table ends showing its latest state, with its ping; two processes of a fleet, one shard
each, keep to the one budget of the token together.

Discord's 50 requests a second is scaled to 15 per 0.3 s, in the emulator and in the bots' budgets
alike, so the bursts take a second or two. The budgets' slack is wide (0.6 s, twice the scaled
window): the emulator shares the bot's event loop, and a loaded machine may read one request's
arrival that late while the next goes straight through (0.2 s of slack at a 0.1 s window drew three
429s beside `stress-ng --cpu 2`). No figure here is a time: the tests wait for the bots and the
emulator to be idle.
"""

from __future__ import annotations

import asyncio

from bot.discord_budget import GlobalBudget, share, trace_config
from cogs.messages import table_message
from emulator import Emulator
from emulator.ratelimits import RateLimits
from tests.e2e.driver import open_table, table_of
from tests.e2e.test_shards import ADDED_GUILDS, guild_id, players, sharded_discord, start_sharded

BUDGET = 50  # the token's, DISCORD_GLOBAL_RATE_LIMIT's default
SCALE = 0.3
TIGHT = RateLimits(int(BUDGET * SCALE), routes={}, other=None, global_window=SCALE)
TOKEN_LIFETIME = 15 * 60
SLACK = 0.6


def scaled_budget(shard_ids: tuple[int, ...] | None = None, shard_count: int | None = None) -> GlobalBudget:
    """The bot's budget (its share of the token's, by its shards) at the emulator's scale."""
    return GlobalBudget(share(BUDGET, shard_ids, shard_count), window=SCALE, slack=SLACK)


async def start_with_budget(emu: Emulator, db, budget: GlobalBudget, seed: int = 1, **shards):
    """A bot held to `budget`, whose turn timers outlast the clicks' tokens: when the test moves the
    clock past the tokens' lifetime, no timer runs out and moves for a seat during the burst."""
    holder: list = []  # the bot, once started: no interaction webhook is called before
    trace = trace_config(budget, lambda: holder[0].application_id if holder else None)
    options = {"http_trace": trace}
    bot = await start_sharded(
        emu, db, seed=seed, client_options=options, turn_timer_seconds=4 * TOKEN_LIFETIME, **shards
    )
    holder.append(bot)
    return bot


async def open_tables(emu: Emulator) -> list:
    """A two-member Cats & Dogs table in every added guild's channel; their threads."""
    threads = []
    for n in range(1, ADDED_GUILDS + 1):
        thread, _ = await open_table(emu, "catsdogs", 2, channel=f"games-{n}", names=players(n))
        threads.append(thread)
    return threads


async def burst(bots: list, rounds: int) -> None:
    """Every live game of every bot moves `rounds` times, all at once."""

    async def moves(bot, game) -> None:
        for _ in range(rounds):
            seat = game.to_act()[0]
            action = game.rules.legal_actions(game.state, seat)[0]
            user = game.record.seats[seat].user_id
            await bot.service.play(game.id, user, game.record.version, action.encode())

    await asyncio.gather(*(moves(bot, game) for bot in bots for game in list(bot.service.live.values())))
    for bot in bots:
        await bot.presenter.settle()


def assert_latest_shown(emu: Emulator, bots: list, threads: list) -> None:
    """Every game's table shows its latest state, and one ping names everyone to act."""
    shown = {int(table_of(emu, t).embeds[0]["title"].split("#")[1].split()[0]): t for t in threads}
    for bot in bots:
        for game in bot.service.live.values():
            thread = shown[game.id]
            table = table_of(emu, thread).embeds[0]
            latest = table_message(game, bot.timers.due(game.id)).embed.to_dict()
            assert (table["footer"], table["description"]) == (latest["footer"], latest["description"])
            assert table["footer"]["text"].endswith(f"move {game.record.version - 1}")
            pings = [m for m in emu.public_messages(thread) if m.content.startswith("🔔")]
            to_act = {game.record.seats[s].user_id for s in game.to_act()}
            assert len(pings) == 1 and all(f"<@{user}>" in pings[0].content for user in to_act)
    assert len(shown) == sum(len(bot.service.live) for bot in bots) == ADDED_GUILDS


async def test_a_burst_past_the_budget_gets_no_429_and_every_table_ends_at_its_latest_state(tmp_path):
    async with sharded_discord(rate_limits=TIGHT) as emu:
        budget = scaled_budget()
        bot = await start_with_budget(emu, tmp_path / "catnip.sqlite3", budget)
        threads = await open_tables(emu)
        emu.advance(TOKEN_LIFETIME + 60)  # the clicks' tokens have expired: every request counts
        held_back = budget.waited
        await burst([bot], rounds=3)
        await emu.settle()

        assert budget.waited > held_back, "the burst went past the budget, so requests waited their turn"
        assert emu.rate_limited == [], "not a single 429"
        assert_latest_shown(emu, [bot], threads)


async def test_two_processes_one_shard_each_keep_to_one_budget_together(tmp_path):
    db = tmp_path / "catnip.sqlite3"
    async with sharded_discord(rate_limits=TIGHT) as emu:
        budgets = [scaled_budget((shard,), 2) for shard in (0, 1)]
        bots = [
            await start_with_budget(
                emu, db, budgets[shard], seed=shard + 1, shard_count=2, shard_ids=(shard,)
            )
            for shard in (0, 1)
        ]
        threads = await open_tables(emu)
        on_shard = [{g.record.guild_id for g in bot.service.live.values()} for bot in bots]
        assert all(on_shard) and not on_shard[0] & on_shard[1], "each process plays its own shard's games"
        assert {guild_id(emu, n) for n in range(1, ADDED_GUILDS + 1)} == on_shard[0] | on_shard[1]
        emu.advance(TOKEN_LIFETIME + 60)
        held_back = [budget.waited for budget in budgets]
        await burst(bots, rounds=3)
        await emu.settle()

        assert all(budget.waited > before for budget, before in zip(budgets, held_back, strict=True)), (
            "each process held its own requests back to its share"
        )
        assert emu.rate_limited == [], "together within the token's limit: not a single 429"
        assert_latest_shown(emu, bots, threads)
