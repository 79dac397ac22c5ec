"""Complete games driven through the session layer, every state rendered, Discord's limits respected,
and no seat's secrets in the public table, another seat's panel or what its more button shows, or a
public custom_id. A seat's own panel, and what its more button shows, say "you"/"your" for what is
theirs and never name them (but in the title), and nothing of their wording reaches the table."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from bot.clock import ManualClock
from bot.live import LiveGame
from bot.sessions import GameService
from bot.storage import SqliteGameStore
from cogs.lobby_message import lobby_message
from cogs.messages import Message, table_message
from cogs.panel import more_message, private_panel
from emulator.limits import check_message
from engine import GAMES, Rng
from engine.decisions import ME

SecretTexts = Callable[[object, int, object], set[str]]
"""`secrets(state, seat, view)`: texts that would reveal what only `seat` may know (its hand, its picks);
`view` is the seat's own view of `state` (the panels being checked have just built it)."""


def catsdogs_secrets(state, seat: int, view) -> set[str]:
    from engine.catsdogs._cards import card_name
    from engine.catsdogs.texts import card_label, short

    hidden = set(state.hands[seat])
    texts = set()
    for card in hidden:
        texts |= {card_label(card), card_name(card), short(card)}
    return texts


def catsanity_secrets(state, seat: int, view) -> set[str]:
    """The cat a Recall chooser has set aside, until both are chosen (CS-8)."""
    from engine.catsanity.texts import recall_pick_line

    recall = state.recall
    if recall is None or not recall.waiting or recall.waiting[0] != seat:
        return set()
    return {recall_pick_line(card) for card in recall.picked}


def madcat_secrets(state, seat: int, view) -> set[str]:
    """A mooch pick not revealed yet, as its owner's panel and the table would print it (MC-4, MC-X2).

    `drive` seats players named P0, P1, …; the table's line names the owner. Another seat with the
    same pick prints the same panel line, which `drive` leaves out of that seat's check.
    """
    from engine.madcat.texts import MOOCH_LABELS, hidden_pick_line, player_line, revealed_pick_line

    pick = state.picks[seat]
    if pick is None or state.paid[seat]:
        return set()
    name = f"P{seat}"
    shown = player_line("💰", name, state.scores[seat], f"showed {MOOCH_LABELS[pick]}")
    return {hidden_pick_line(pick), revealed_pick_line(pick), shown}


def ninelives_secrets(state, seat: int, view) -> set[str]:
    """A hand's cards (their ids never in another seat's custom_ids), the hand, life stack and Carousel
    pick as the owner's panel prints them, each a whole line (NL-1, NL-10); another seat holding the same
    card prints some of the same lines, which `drive` leaves out of that seat's check."""
    from engine.ninelives._cards import card_id
    from engine.ninelives._words import secret_lines

    texts = {f"\n{line}\n" for line in secret_lines(view)}
    return texts | {f":{card_id(card)}" for card in state.hands[seat]}


SECRETS: dict[str, SecretTexts] = {
    "catsdogs": catsdogs_secrets,
    "catsanity": catsanity_secrets,
    "madcat": madcat_secrets,
    "ninelives": ninelives_secrets,
}

NARRATION = {"What happened", "Recently"}
"""Event narration may name cards of earlier rounds, which are public history; engine tests cover events."""

SEEDS = range(1)
"""The seeds of the games played at every player count."""
PLAYER_COUNTS = {
    "catsdogs": [1, 2, 3, 4, 5],
    "catsanity": [2, 3, 4, 5],
    "madcat": [2, 3, 4, 5],
    "ninelives": [2, 4, 6],
}


def payload(message: Message, ephemeral: bool = False) -> dict:
    data = {
        "content": message.content,
        "embeds": [message.embed.to_dict()] if message.embed else [],
        "components": message.view.to_components() if message.view else [],
        "flags": 64 if ephemeral else 0,
    }
    return data


def public_texts(message: Message) -> str:
    """What a secret must never be part of: the table's fields except narration, and its custom_ids;
    each line between line breaks, so that a secret line is found only as a whole line."""
    embed = message.embed
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields if field.name not in NARRATION]
    return "\n" + "\n".join(parts) + "\n"


def custom_ids(message: Message) -> list[str]:
    return [
        item.custom_id
        for item in (message.view.children if message.view else [])
        if hasattr(item, "custom_id")
    ]


def assert_fits(message: Message, ephemeral: bool = False) -> None:
    problems = check_message(payload(message, ephemeral))
    assert not problems, problems


async def drive(service: GameService, key: str, players: int, seed: int, check: bool = True) -> int:
    """Play one whole game by clicking random legal actions as the seated users, checking every
    position (`check_position`) unless `check` is False; return the moves made."""
    host = 1000
    live = await service.lobby.open_lobby(
        game_key=key, guild_id=1, channel_id=5, thread_id=None, host_id=host, host_name="P0"
    )
    for index in range(1, players):
        await service.lobby.join(live.id, host + index, f"P{index}")
    assert_fits(lobby_message(live))
    game = await service.start(live.id, host, seed=seed)
    rng = Rng.seeded(seed)
    moves, said_to_you = 0, False
    while True:
        state = game.state
        if check:
            said_to_you = check_position(game, SECRETS.get(key)) or said_to_you
        if game.rules.outcome(state) is not None:
            assert said_to_you or not check, "the panels speak to their readers"
            return moves
        seat, rng = rng.choice(game.to_act())
        action, rng = rng.choice(game.rules.legal_actions(state, seat))
        await service.play(game.id, host + seat, game.record.version, action.encode())
        moves += 1


def check_position(game: LiveGame, secrets: SecretTexts | None) -> bool:
    """The table, every seat's panel and what its more button shows: within Discord's limits, no
    seat's secret on the table or in another seat's panel, and each seat's own messages in its own
    words (`own_words`); returns whether a line of theirs says "you" or "your"."""
    state, players = game.state, len(game.names)
    table = table_message(game, due=None)
    assert_fits(table)
    panels = {seat: private_panel(game, seat) for seat in range(players)}
    more = {seat: more_message(game, seat) for seat in range(players)}
    for panel in [*panels.values(), *more.values()]:
        assert_fits(panel, ephemeral=True)
    if secrets is not None:
        table_text = public_texts(table) + "\n".join(custom_ids(table))
        own = {seat: secrets(state, seat, game.view(seat)) for seat in range(players)}
        panel_texts = {
            other: public_texts(panel) + public_texts(more[other]) + "\n".join(custom_ids(panel))
            for other, panel in panels.items()
        }
        for seat in range(players):
            for secret in own[seat]:
                assert secret not in table_text, f"seat {seat}'s {secret!r} is on the public table"
                for other, text in panel_texts.items():
                    if other != seat and secret not in own[other]:
                        assert secret not in text, f"seat {seat}'s {secret!r} is in seat {other}'s panel"
    if game.rules.outcome(state) is not None:
        assert "🏆" in table.embed.description or "Nobody wins" in table.embed.description
    return own_words(game, panels, more)


YOU = re.compile(r"\b[Yy]ou(r)?\b")


def own_words(game: LiveGame, panels: dict[int, Message], more: dict[int, Message]) -> bool:
    """Each seat's panel and more view name the seat only in their title, and the table (with its
    fields: no picture) keeps the panels' wording out; returns whether a line says "you" or "your"."""
    table = "\n".join(said(table_message(game, picture=False)))
    assert ME not in table and "\x00" not in table
    said_to_you = False
    for seat, name in enumerate(game.names):
        named = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        for message in (panels[seat], more[seat]):
            title, *rest = said(message)
            text = "\n".join(rest)  # a name never spans lines: found in the text, it is in a line
            assert "\x00" not in title and "\x00" not in text
            assert not named.search(text), f"{name}'s own view names them: {named_lines(rest, named)}"
            said_to_you = said_to_you or bool(YOU.search(title) or YOU.search(text))
    return said_to_you


def said(message: Message) -> list[str]:
    """Every line a message shows: its embed, its buttons' labels, its options and their descriptions."""
    embed = message.embed
    lines = [embed.title or "", embed.description or "", embed.footer.text or ""]
    lines += [text for field in embed.fields for text in (field.name, field.value)]
    for item in message.view.children if message.view is not None else []:
        lines.append(getattr(item, "label", None) or getattr(item, "placeholder", None) or "")
        for option in getattr(item, "options", ()):
            lines += [option.label, option.description or ""]
    return [line for text in lines for line in text.split("\n")]


def named_lines(lines: list[str], named: re.Pattern[str]) -> list[str]:
    return [line for line in lines if named.search(line)]


@pytest.fixture
async def service(tmp_path):
    store = SqliteGameStore(tmp_path / "render.sqlite3", synchronous="NORMAL")
    await store.open()
    yield GameService(store, ManualClock())
    await store.close()


@pytest.mark.parametrize(
    ("key", "players"),
    [(key, count) for key, counts in PLAYER_COUNTS.items() if key in GAMES for count in counts],
)
async def test_a_whole_game_renders_within_discords_limits_and_keeps_secrets(service, key, players):
    for played, seed in enumerate(SEEDS, start=1):
        moves = await drive(service, key, players, seed)
        finished = await service.store.games.games_in_channel(5, statuses=("finished",))
        assert len(finished) == played, "the game was played to its end"
        assert len(await service.store.games.moves(finished[-1].id)) == moves, "every move was logged"


def test_labels_name_players_instead_of_placeholders():
    """A game's texts label an action (by default with the rules' label); seats become player names."""
    from types import SimpleNamespace

    from cogs.messages import label_of
    from engine.texts import Texts

    class Rules:
        def label(self, state, seat, action):
            return "Target {p1}"

    plain = SimpleNamespace(texts=Texts())
    game = SimpleNamespace(game=plain, rules=Rules(), state=None, names=["Ann", "Bo"])
    assert label_of(game, 0, None) == "Target Bo"


def test_final_scores_summarise_rather_than_cut_a_long_breakdown():
    from types import SimpleNamespace

    from cogs.messages import final_text
    from engine import Outcome, ScoreLine

    long = tuple(ScoreLine(label=f"set {i}", points=i) for i in range(200))
    outcome = Outcome(scores=(50, 40), winners=(0,), reason="Highest score.", breakdown=(long, long))
    game = SimpleNamespace(names=["Ann", "Bo"], rating_changes={})
    text = final_text(game, outcome, limit=400)
    assert text.splitlines() == ["🏆 **Ann** wins! Highest score.", "**Ann** — 50", "**Bo** — 40"]
    named = Outcome(scores=(26, 19), winners=(0,), reason="{p0} wins with 26 ribbons.")
    assert final_text(game, named).splitlines()[0] == "🏆 **Ann** wins with 26 ribbons.", "said once"
    short = Outcome(
        scores=(50, 40), winners=(0, 1), reason="", breakdown=((ScoreLine(label="House", points=3),), ())
    )
    assert "(House 3)" in final_text(game, short) and "Ann and Bo** win!" in final_text(game, short)
