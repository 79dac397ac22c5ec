"""The lobby never runs out of Discord's five rows: every game's full option set lays out, and a game
with more options than rows gets them in "⚙️ Settings" selects instead."""

from __future__ import annotations

from types import SimpleNamespace
from typing import ClassVar

import pytest

from bot.errors import Refusal
from bot.live import TIMER_OPTION, LiveGame
from bot.storage.models import GameRecord, SeatRecord
from cogs import custom_ids as ids
from cogs.lobby_message import lobby_message
from cogs.lobby_settings import setting_value
from emulator.limits import check_message
from engine import GAMES
from engine.core import GameOptions

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def lobby(rules, players: int, options: dict) -> LiveGame:
    seats = tuple(SeatRecord(seat=s, user_id=100 + s, name=NAMES[s]) for s in range(players))
    record = GameRecord(
        id=7, guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options=options, seed=1,
        status="lobby", version=0, host_id=100, table_message_id=None, table_channel_id=None,
        created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    return LiveGame(record=record, rules=rules)


def every_option_set(rules, players: int) -> dict:
    """Each option at a value other than its default: switches flipped, seats named, a timer set."""
    options = rules.make_options({}).model_dump(mode="json")
    for name, value in options.items():
        options[name] = (not value) if isinstance(value, bool) else players - 1
    return {**options, TIMER_OPTION: 60}


def rows_and_ids(message) -> tuple[list[int], list[str]]:
    components = message.view.to_components()
    return [len(row["components"]) for row in components], [
        item["custom_id"] for row in components for item in row["components"]
    ]


def payload(message) -> dict:
    components = message.view.to_components()
    return {"content": None, "embeds": [message.embed.to_dict()], "components": components, "flags": 0}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_full_option_set_fits_the_lobby_with_a_control_for_each_option(key):
    rules = GAMES[key].rules
    game = lobby(rules, rules.max_players, every_option_set(rules, rules.max_players))
    message = lobby_message(game)
    rows, custom_ids = rows_and_ids(message)
    assert len(rows) <= 5 and not check_message(payload(message))
    assert rows[2] < 5, "a button slot stays free on the settings row"
    for name in game.record.options:
        assert ids.lobby_id(7, "opt", name) in custom_ids, f"{key}: no control for {name}"


class ManyOptions(GameOptions):
    SEAT_OPTIONS: ClassVar[frozenset[str]] = frozenset({"first_player", "first_dealer", "last_player"})
    first_player: int | None = None
    first_dealer: int | None = None
    last_player: int | None = None
    house_rule: bool = False
    short_game: bool = True
    open_hands: bool = False


def many_options_rules():
    rules = GAMES["catsdogs"].rules
    return SimpleNamespace(
        Options=ManyOptions,
        make_options=lambda values: ManyOptions(**values),
        title=rules.title,
        min_players=rules.min_players,
        max_players=6,
    )


def test_a_game_with_more_options_than_rows_gets_them_in_settings_selects():
    rules = many_options_rules()
    options = {**ManyOptions(first_dealer=2).model_dump(mode="json"), TIMER_OPTION: 300}
    message = lobby_message(lobby(rules, 6, options))
    rows, custom_ids = rows_and_ids(message)
    assert len(rows) == 5 and not check_message(payload(message))
    assert custom_ids[-2:] == [ids.lobby_id(7, "set", "0"), ids.lobby_id(7, "set", "1")]
    selects = [item for item in message.view.children if item.custom_id.startswith("cn:l:7:set")]
    entries = {option.value: option for select in selects for option in select.options}
    offered = {"house_rule=on", "house_rule=off", "first_dealer=random", "last_player=5", "turn_timer=30"}
    assert offered <= set(entries)
    marked = {value for value, option in entries.items() if option.emoji is not None}
    assert {"first_dealer=2", "short_game=on", "turn_timer=300", "first_player=random"} <= marked
    assert "first_dealer=random" not in marked


def test_a_settings_choice_reads_as_the_options_value_or_is_refused():
    game = lobby(many_options_rules(), 4, ManyOptions().model_dump(mode="json"))
    assert setting_value(game, "short_game", "off") is False
    assert setting_value(game, "first_dealer", "3") == 3
    assert setting_value(game, "first_dealer", "random") is None
    assert setting_value(game, TIMER_OPTION, "120") == 120
    for name, chosen in (("first_dealer", "4"), ("short_game", "maybe"), ("house_rule", "3")):
        with pytest.raises(Refusal):
            setting_value(game, name, chosen)


def test_a_settings_select_id_reads_back_as_a_select_only_lobby_control():
    component = ids.parse("cn:l:7:set/1")
    assert component.op is ids.LobbyOp.SETTINGS and component.arg == "1"
    assert component.component_types() == (ids.ComponentType.SELECT,)
    with pytest.raises(Exception, match="isn't valid"):
        ids.parse("cn:l:7:set")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_lobby_says_in_one_line_what_the_game_is_how_long_and_for_how_many(key):
    rules = GAMES[key].rules
    game = lobby(rules, 1, {})
    game.record = game.record.model_copy(update={"game": key})
    first = lobby_message(game).embed.description.split("\n")[0]
    assert first == GAMES[key].about
    assert f"for {rules.min_players} to {rules.max_players} players" in first and "minutes" in first
