"""`METRICS_PORT`: /livez, /readyz and /metrics answer real HTTP requests, and `catnip fleet` restarts a
process that stops answering /livez (hung: alive, its event loop not running), counting why."""

from __future__ import annotations

import asyncio
import os
import re
import signal

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bench.postgres_server import fresh_schema_url, start_server, stop_server
from bot.app import create_bot
from bot.config import SettingsError, load_settings
from emulator import Emulator
from engine import Rng
from tests.bot.test_fleet import REPO, bot_environment, fleet_process, stop_cleanly
from tests.bot.test_fleet_failures import free_port
from tests.e2e.driver import Table, open_table, settings_for


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a Prometheus text page: (name, sorted labels) → value."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def served_names(text: str) -> set[str]:
    """Every metric a Prometheus text page names, by its family's name and by its samples' names (a
    counter with no sample yet, such as 429s before any, is named `<family>_total`)."""
    names = set()
    for family in text_string_to_metric_families(text):
        names |= {family.name, *(sample.name for sample in family.samples)}
        if family.type == "counter":
            names.add(f"{family.name}_total")
    return names


def readme_metrics() -> set[str]:
    """The metrics the README's "For operators" section names."""
    section = (REPO / "README.md").read_text().split("## For operators", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(catnip_[a-z0-9_]+)`", section))


async def test_readyz_says_whether_the_shards_and_the_store_answer_and_metrics_count_the_play(
    tmp_path, postgres_server
):
    url = await fresh_schema_url(postgres_server.get_uri())
    port = free_port()
    settings = settings_for(tmp_path / "unused.sqlite3", database_url=url).model_copy(
        update={"metrics_port": port}
    )
    async with Emulator.start(members=["Ann", "Bo", "Cy"], rate_limits=None) as emu:
        with emu.point_discord_py():
            bot = create_bot(settings, guild_ready_timeout=0.05)
            await emu.run_bot(bot)
            emu.busy.append(bot.busy)  # settled: the tables and pings of each click are shown too
            pings_posted = []
            emu.on_message(
                lambda kind, message: (
                    pings_posted.append(message.id)
                    if kind == "create" and message.content.startswith("🔔")
                    else None
                )
            )
            try:
                assert await get(port, "/readyz") == (200, "ok\n")
                assert await get(port, "/livez") == (200, "ok\n")
                thread, members = await open_table(emu, "catsdogs", 3)
                table = Table(emu, thread, members, Rng.seeded(1))
                for _ in range(6):
                    await table.step()
                status, text = await get(port, "/metrics")
                assert status == 200
                seen = samples(text)
                assert seen[("catnip_games_live", ())] == 1
                assert seen[("catnip_leases_held", ())] == 1
                moves = seen[("catnip_moves_total", (("by", "member"),))]
                assert moves >= 1 and seen[("catnip_store_commit_seconds_count", ())] == moves
                interactions = emu.interaction_timings()
                assert seen[("catnip_clicks_total", ())] == len(interactions) >= 6
                # Every click and command answered is timed once, from its arrival to its answer.
                answered = [timing for timing in interactions if timing.seconds is not None]
                assert seen[("catnip_click_answer_seconds_count", ())] == len(answered)
                assert seen[("catnip_click_answer_seconds_sum", ())] > 0
                # Each showing of the table after the game started or moved (moves in a row: one showing).
                shown = seen[("catnip_table_lag_seconds_count", ())]
                assert 1 <= shown <= moves + 1 and seen[("catnip_table_lag_seconds_sum", ())] > 0
                assert pings_posted and seen[("catnip_pings_sent_total", (("kind", "turn"),))] == len(
                    pings_posted
                )
                routes = {labels[0][1] for name, labels in seen if name == "catnip_discord_requests_total"}
                assert "POST /api/v10/interactions/{id}/{token}/callback" in routes, routes
                assert "POST /api/v10/channels/{id}/messages" in routes, routes
                listed = readme_metrics()
                assert len(listed) >= 12 and listed <= served_names(text), listed - served_names(text)
                assert "_created" not in text, "no start time beside each counter"
                # The library's own process collectors; 0 for what has not happened yet.
                assert seen[("process_resident_memory_bytes", ())] > 0
                assert seen[("process_cpu_seconds_total", ())] > 0
                assert seen[("process_start_time_seconds", ())] > 0
                assert [name for name, _ in seen if name == "python_info"]
                for scope in ("user", "global", "shared"):
                    assert seen[("catnip_discord_429_total", (("scope", scope),))] == 0
                assert seen[("catnip_try_again_refusals_total", (("reason", "store_away"),))] == 0
                # Every request to Discord's API counted against the global rate limit or exempt from it.
                counted = seen[("catnip_discord_requests_budget_total", (("budget", "counted"),))]
                exempt = seen[("catnip_discord_requests_budget_total", (("budget", "exempt"),))]
                api = sum(  # the gateway's websocket opens with an HTTP request too: not one of them
                    v for (name, labels), v in seen.items()
                    if name == "catnip_discord_requests_total" and " /api/" in dict(labels)["route"]
                )  # fmt: skip
                assert counted >= 1 and exempt >= len(answered) and counted + exempt == api
                assert seen[("catnip_discord_budget_size", ())] == 50
                assert 0 <= seen[("catnip_discord_budget_in_use", ())] <= 50

                await asyncio.to_thread(stop_server, postgres_server)
                try:
                    status, text = await get(port, "/readyz")
                    assert status == 503 and "the store does not answer" in text
                    assert await get(port, "/livez") == (200, "ok\n"), "alive: no reason to restart it"
                    refused = 0
                    for _ in range(10):  # a click the rules refuse before the store is asked is not one
                        result = await table.step()
                        message = result.message if result is not None else None
                        if message is not None and "try again in a moment" in message.content:
                            refused += 1
                            break
                    assert refused == 1
                    _, text = await get(port, "/metrics")
                    reason = ("reason", "store_away")
                    assert samples(text)[("catnip_try_again_refusals_total", (reason,))] == refused
                finally:
                    await asyncio.to_thread(start_server, postgres_server)
                assert await get(port, "/readyz") == (200, "ok\n")
            finally:
                await bot.close()


def test_metrics_port_is_validated_like_every_setting(monkeypatch):
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(SettingsError, match="METRICS_PORT: Input should be less than or equal to 65535"):
        load_settings(_env_file=None)


async def test_the_fleet_restarts_a_process_that_stops_answering_livez_and_counts_why(tmp_path):
    port = free_port()
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "METRICS_PORT": str(port)}
        arguments = ["--processes", "1", "--shard-count", "1", "--hang-timeout", "2"]
        async with fleet_process(arguments, env, tmp_path) as (fleet, output):
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 1)
            await output.wait_for(lambda _: output.count("answers /livez") == 1)
            # stopped only once connected, so that the second "connected" below is the new process's
            await output.wait_for(lambda _: output.count("has connected to Gateway") == 1)
            ((_, hung),) = output.started()[0]
            os.kill(hung, signal.SIGSTOP)  # alive, and answering nothing
            await output.wait_for(lambda _: output.count("has not answered /livez") == 1)
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 2)
            await output.wait_for(lambda _: output.count("has connected to Gateway") == 2)
            assert len(output.started()[0]) == 2
            _, text = await get(port, "/metrics")
            seen = samples(text)
            restarts = {labels: v for (name, labels), v in seen.items() if name.startswith("catnip_fleet")}
            assert restarts == {
                (("cause", "hung"),): 1, (("cause", "killed"),): 0, (("cause", "exited"),): 0
            }, restarts
            await stop_cleanly(fleet, output)
