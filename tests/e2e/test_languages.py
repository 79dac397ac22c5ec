"""Catnip in the members' own languages, over the emulated Discord: a private answer speaks its
member's language, the table its server's, and a language Catnip lacks falls back to English."""

from __future__ import annotations

from tests.e2e.driver import catnip, private_reply, table_of


def speaking(emu, *, server: str, **members: str) -> None:
    """Set the server's preferred locale and each named member's client locale."""
    emu.world.guilds[emu.world.guild_id].locale = server
    for name, locale in members.items():
        emu.world.member_named(name).locale = locale


def labels(message) -> set[str]:
    return {component.get("label") for component in message.interactive()}


async def test_a_french_server_gets_a_french_table_and_each_member_answers_in_their_own(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        speaking(emu, server="fr", Ann="fr", Bo="en-GB")
        ann, bo = emu.member("Ann"), emu.member("Bo")
        opened = await (await ann.slash("play", game="madcat")).wait_final()
        assert opened.text().startswith("🐾 Votre table de Mad Cat Sad Cat #"), opened.text()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        assert thread.name == "Mad Cat Sad Cat avec Ann"
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert "— table #" in lobby.embeds[0]["title"]
        assert {"Rejoindre", "Quitter", "Commencer", "Annuler", "Comment jouer"} <= labels(lobby)
        assert await private_reply(ann, lobby, "Rejoindre") == "Vous êtes déjà assis à cette table."
        assert await private_reply(bo, lobby, "Annuler") == "Only Ann (the host) can do that."


async def test_an_english_server_keeps_an_english_table_for_a_french_member(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        speaking(emu, server="en-US", Ann="fr", Bo="fr")
        ann, bo = emu.member("Ann"), emu.member("Bo")
        opened = await (await ann.slash("play", game="catsdogs")).wait_final()
        assert opened.text().startswith("🐾 Votre table de Cats & Dogs"), "the host's own answer is French"
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert {"Join", "Start", "How to play"} <= labels(lobby)
        assert await private_reply(bo, lobby, "Cancel") == "Seul Ann (l'hôte) peut faire cela."


async def test_a_language_catnip_lacks_falls_back_to_english(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        speaking(emu, server="ja", Ann="pt-BR")
        ann = emu.member("Ann")
        opened = await (await ann.slash("play", game="ninelives")).wait_final()
        assert opened.text().startswith("🐾 Your Nine Lives table #"), opened.text()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert {"Join", "Start"} <= labels(lobby)


async def test_help_speaks_the_member_s_language_naming_the_commands_as_their_client_does(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        speaking(emu, server="en-US", Ann="fr", Bo="en-US")
        french = await (await emu.member("Ann").slash("help")).wait_final()
        english = await (await emu.member("Bo").slash("help")).wait_final()
        assert "`/jouer` — ouvrir une table pour un jeu" in french.text(), french.text()
        assert "`/play` — open a table for a game" in english.text()


async def test_the_host_switches_the_table_s_language_in_the_lobby_and_the_game_plays_in_it(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        speaking(emu, server="en-US", Ann="en-US", Bo="en-US")
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert "Language: English" in labels(lobby)
        refused = await private_reply(bo, lobby, "Language: English")
        assert refused == "Only Ann (the host) can do that."
        assert (await ann.click(lobby, "Language: English")).ok  # each click: the next language
        await emu.settle()
        assert "Sprache: Deutsch" in labels(emu.message(lobby.id))
        assert (await ann.click(emu.message(lobby.id), "Sprache: Deutsch")).ok
        await emu.settle()
        lobby = emu.message(lobby.id)
        assert {"Langue : français", "Rejoindre", "Commencer"} <= labels(lobby), labels(lobby)
        assert (await bo.click(lobby, "Rejoindre")).ok
        await emu.settle()
        assert (await ann.click(emu.message(lobby.id), "Commencer")).ok
        await emu.settle()
        table = table_of(emu, thread)
        assert table.embeds[0]["description"].startswith("**Maintenant :**"), table.embeds[0]["description"]
