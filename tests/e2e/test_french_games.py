"""A French server plays each game to its end through the emulated Discord, with French members whose
names carry accents and CJK: nothing they read is English — the table, the pings, their own panels,
every answer to a click, the results, and the words the table's picture shows.

English is spotted by its commonest words: none of them is a French word, and none is in a game's or
card's name, which stay as they are in every language.
"""

from __future__ import annotations

import re

import pytest

import pictures
from engine import GAMES, Rng
from tests.e2e.driver import Table, catnip, open_table

NAMES = ["Zoé", "Hélène", "李雷", "Amélie"]
ENGLISH_WORDS = """the you your and with turn card cards wins win round trick hand play plays pass take
    takes dice roll rolls bid bids player players move moves game games now start join details what happened
    recently waiting for of is are has have in it its their they this that will be by from all each who
    won lost left pick picks choose chooses view my back next previous how rules help nobody everyone
    seat seats"""
ENGLISH = frozenset(ENGLISH_WORDS.split())
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ']+")
MAX_STEPS = 3000


def english_in(text: str) -> set[str]:
    return {word for word in WORD.findall(text.lower().replace("’", "'")) if word.strip("'") in ENGLISH}


def scene_words(scene: object) -> str:
    """Every text a picture's scene holds (what the picture writes)."""
    if isinstance(scene, str):
        return scene
    if isinstance(scene, tuple | list):
        return "\n".join(scene_words(part) for part in scene)
    return ""


GAMES_PLAYED = [("catsanity", 2), ("madcat", 2), ("catsdogs", 3), ("ninelives", 2)]


@pytest.mark.parametrize(("key", "players"), GAMES_PLAYED)
async def test_a_french_server_plays_a_whole_game_and_reads_no_english(tmp_path, key, players):
    async with catnip(tmp_path, members=NAMES) as (emu, bot):
        emu.world.guilds[emu.world.guild_id].locale = "fr"
        for name in NAMES:
            emu.world.member_named(name).locale = "fr"
        members = {emu.member(name).id for name in NAMES}
        seen: list[str] = []

        def read(kind: str, message) -> None:
            if kind != "delete" and (message.visible_to is None or message.visible_to in members):
                seen.append(message.text())

        emu.on_message(read)
        thread, seated = await open_table(emu, key, players, names=NAMES, language="fr")
        table = Table(emu, thread, seated, Rng.seeded(players * 31 + len(key)), language="fr")
        for _step in range(MAX_STEPS):
            if table.over():
                break
            await table.step()
            for game in list(bot.service.live.values()):
                outcome = game.rules.outcome(game.state)
                seen.append(scene_words(pictures.scene_of(key, game.view(None), game.names, outcome, "fr")))
        assert table.over(), "the game ends"
        english = {word: text for text in seen for word in english_in(text)}
        assert not english, "\n\n".join(f"{word!r} in:\n{text}" for word, text in english.items())
        assert GAMES[key].title in table.table().embeds[0]["title"]
