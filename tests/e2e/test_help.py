"""Help where players need it, over the emulated Discord: the 📖 How to play guide on the lobby and the
table, /rules, /help, and the slash commands as Discord registers them (descriptions, who may see the
admin commands, translations)."""

from __future__ import annotations

import discord
import pytest

from emulator import MemberSpec
from emulator.users import InvalidInvocation
from engine import GAMES
from tests.e2e.driver import MEMBERS, catnip, open_table, start_catnip, table_of
from tests.e2e.test_robustness import crash

MANAGE_SERVER = discord.Permissions(manage_guild=True).value


def options(node):
    """Every option under a synced command, subcommands and their options included."""
    for option in node.get("options") or []:
        yield option
        yield from options(option)


async def open_guide(member, message):
    """Click How to play on a public message; the guide's first page, seen by the clicker only."""
    result = await member.click(message, "How to play")
    assert result.ok, result.failed
    guide = result.message
    assert guide is not None and guide.ephemeral and guide.visible_to == member.id
    return guide


async def read_every_page(member, guide) -> list[str]:
    """Turn the guide's pages with Next until it is disabled; the text of each page in order."""
    pages = [guide.text()]
    while True:
        nxt = next(c for c in guide.interactive() if c.get("label") == "Next ▶")
        if nxt.get("disabled"):
            return pages
        result = await member.click(guide, "Next ▶")
        assert result.ok, result.failed
        guide = result.message
        assert guide.ephemeral and guide.visible_to == member.id
        pages.append(guide.text())


async def test_how_to_play_on_the_lobby_and_the_table_pages_through_the_whole_guide(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        ann, bo, di = emu.member("Ann"), emu.member("Bo"), emu.member("Di")
        await (await ann.slash("play", game="madcat")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        guide = await open_guide(di, lobby)  # anyone may read it, seated or not
        pages = await read_every_page(di, guide)
        assert len(pages) == len(GAMES["madcat"].guide) > 1
        assert "Mooching" in pages[-1] and "Page 1 of" in pages[0]
        assert "lock" in "\n".join(pages).lower()

        assert (await bo.click(lobby, "Join")).ok
        await emu.settle()
        assert (await ann.click(lobby, "Start")).ok
        await emu.settle()
        table = table_of(emu, thread)
        guide = await open_guide(bo, table)
        assert "How to play Mad Cat Sad Cat" in guide.text()
        back = await bo.click(guide, "Next ▶")
        back = await bo.click(back.message, "◀ Previous")
        assert back.message.text() == guide.text(), "Previous returns to the page before"
        assert not [m for m in emu.public_messages(thread) if "How to play Mad" in m.text()], "never public"


async def test_an_old_tables_how_to_play_button_still_works_after_a_restart(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, (ann, *_) = await open_table(emu, "ninelives", 2)
        old = table_of(emu, thread)
        await crash(emu, bot)
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=3)
        try:
            guide = await open_guide(ann, old)
            assert "How to play Nine Lives" in guide.text()
            assert "Kittyqueen" in "\n".join(await read_every_page(ann, guide))
        finally:
            await again.close()


async def test_rules_shows_the_same_paged_guide_and_help_explains_catnip(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        ann = emu.member("Ann")
        rules = await ann.slash("rules", game="catsanity")
        assert rules.ok and rules.message.ephemeral
        pages = await read_every_page(ann, rules.message)
        assert [page.split("\n")[0] for page in pages] == [
            f"📖 How to play CatSanity — {page.title}" for page in GAMES["catsanity"].guide
        ]
        assert "insane" in pages[0] and "Moon" in pages[-1]

        help_ = await ann.slash("help")
        assert help_.ok and help_.message.ephemeral
        text = help_.message.text()
        assert "/play" in text and "Start" in text and "How to play" in text
        assert all(game.title in text for game in GAMES.values())


async def test_every_synced_command_option_is_described_and_admin_commands_need_manage_server(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        synced = [emu.world.command_payload(c) for c in emu.world.commands.values()]
        names = {command["name"] for command in synced}
        assert {"play", "game", "rules", "help", "stats", "leaderboard", "admin"} <= names

        for command in synced:
            assert command["description"].strip(" …"), command["name"]
            for option in options(command):
                assert option.get("description", "").strip(" …"), f"/{command['name']} {option['name']}"
        permissions = {c["name"]: c.get("default_member_permissions") for c in synced}
        assert int(permissions["admin"]) & MANAGE_SERVER
        assert all(permissions[name] is None for name in names - {"admin"}), "players see their commands"


async def test_commands_are_registered_with_french_names_and_descriptions(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        synced = {c["name"]: c for c in (emu.world.command_payload(c) for c in emu.world.commands.values())}
        assert synced["help"]["name_localizations"]["fr"] == "aide"
        assert synced["play"]["description_localizations"]["fr"].startswith("Ouvrir une table")
        status = next(o for o in synced["game"]["options"] if o["name"] == "status")
        assert status["name_localizations"]["fr"] == "état"
        game_option = synced["play"]["options"][0]
        assert game_option["description_localizations"]["fr"] == "Le jeu auquel jouer"
        for command in synced.values():
            for node in [command, *options(command)]:
                assert "fr" in node["name_localizations"], f"/{command['name']} {node['name']}"
                assert "fr" in node["description_localizations"], f"/{command['name']} {node['name']}"


async def test_only_managers_see_admin_end_and_it_ends_a_game_they_do_not_host(tmp_path):
    members = [*MEMBERS[:3], MemberSpec("Mo", ["manage_guild"])]
    async with catnip(tmp_path, members=members) as (emu, bot):
        thread, (_, bo, _) = await open_table(emu, "catsdogs", 3)
        with pytest.raises(InvalidInvocation):
            await bo.slash("admin end", thread)
        result = await emu.member("Mo").slash("admin end", thread)
        assert result.ok and "was ended" in result.message.text()
        await emu.settle()
        assert not bot.service.live
