"""No ruling id (CS-4, MC-10, NL-X5, G-X7 …) anywhere a player reads. The ids belong to the code, the
tests and docs/rulings.md; a player reading "(CS-4)" learns nothing.

Whole random games of every game at every player count are rendered as players see them — every
public table, every seat's private view, the guide, /help — together with every refusal a click can
get at each step (a move by a seat that is not to act, a move the position no longer allows). And no
string in the bot's code that is not a docstring names a ruling either.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cogs.lobby_message import lobby_message
from cogs.messages import Message, table_message
from cogs.panel import private_panel
from cogs.play._help import guide_message, help_text
from engine import GAMES, EngineError
from engine.testing import RandomPlayer
from tests.golden.playthrough import Case, Move, commit, flatten, new_table

RULE_ID = re.compile(r"\b(?:CS|MC|CD|NL|G)-X?\d+\b")
ROOT = Path(__file__).resolve().parents[2]

PLAYER_COUNTS = {
    key: range(game.rules.min_players, game.rules.max_players + 1) for key, game in GAMES.items()
}


def test_the_pattern_finds_the_ids_in_use_and_nothing_else():
    for text in ("the lowest bid is 1 (CS-4).", "MC-10", "see NL-X5", "a host who left (G-X7)", "CD-1"):
        assert RULE_ID.search(text), text
    for text in ("G-Force", "CS:GO", "2-3 ribbons", "MC-X", "ABCS-4"):
        assert not RULE_ID.search(text), text


def text_of(message: Message) -> str:
    return "\n".join(flatten(message))


def refusals(game, stale: list) -> list[str]:
    """What a click can be told now: another seat's move by a seat not to act, and moves of earlier
    positions the game no longer allows."""
    rules, state = game.rules, game.state
    said = []
    to_act = rules.to_act(state)
    moves = rules.legal_actions(state, to_act[0])
    for seat in range(rules.player_count(state)):
        for action in [*moves[:1], *stale]:
            if rules.is_legal(state, seat, action):
                continue
            try:
                rules.apply(state, seat, action)
            except EngineError as error:
                said.append(str(error))
    return said


@pytest.mark.parametrize(
    ("key", "players"), [(key, players) for key, counts in PLAYER_COUNTS.items() for players in counts]
)
def test_no_rule_id_in_anything_a_player_reads_in_a_whole_game(key, players):
    options = (("limited_powers", players % 2 == 0),) if key == "ninelives" else ()
    game = new_table(Case(key, players, 7 + players, options))
    player = RandomPlayer(game.rules, players)
    seen: list[str] = [text_of(lobby_message(game))]
    stale: list = []
    refusal_count = 0
    while True:
        seen.append(text_of(table_message(game)))
        seen += [text_of(private_panel(game, seat)) for seat in range(players)]
        if game.rules.outcome(game.state) is not None:
            break
        refused = refusals(game, stale)
        refusal_count += len(refused)
        seen += refused
        seat = player.pick_seat(game.to_act())
        action = player.choose(game.state, seat)
        stale = [*stale, action][-4:]
        commit(game, Move(seat, action.encode()))
    assert refusal_count, "the refusals were read too"
    found = {match for text in seen for match in RULE_ID.findall(text)}
    assert not found, f"{key} with {players} players shows ruling ids: {sorted(found)}"


def test_no_rule_id_in_the_guides_or_help():
    texts = [help_text()]
    for game in GAMES.values():
        texts += [text_of(guide_message(game, page)) for page in range(len(game.guide))]
        texts += list(game.hints.values())
    assert not [text for text in texts if RULE_ID.search(text)]


def docstrings(nodes: list[ast.AST]) -> set[int]:
    """The ids of the string constants that are docstrings (of modules, classes, functions, attributes)."""
    return {
        id(node.value)
        for node in nodes
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def test_no_string_in_the_bots_code_names_a_ruling_outside_its_docstrings():
    found = []
    for folder in ("engine", "bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
            skip = docstrings(nodes)
            found += [
                f"{path.relative_to(ROOT)}:{node.lineno}"
                for node in nodes
                if isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skip
                and RULE_ID.search(node.value)
            ]
    assert not found
