"""The project's layout holds: imports point one way, the emulator stays a tool for tests, benchmarks and
the offline demo, no modules import each other in a circle, and no module grows past 500 lines (the
games' texts, which are mostly words, excepted).

Imports are read from the source (ast), at the top of a module and inside functions alike, and those
under `if TYPE_CHECKING:` too: a name a module needs only for its types is still a dependency a reader
must follow, so a circle through one is a circle.
"""

from __future__ import annotations

import ast
import functools
import importlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "pictures", "bot", "cogs", "emulator", "bench", "discord_door", "tests")
SIZED_PACKAGES = ("engine", "pictures", "bot", "cogs", "emulator", "bench", "discord_door")
MAX_LINES = 500

FORBIDDEN = {
    "engine": {"pictures", "bot", "cogs", "emulator", "bench", "tests", "discord", "discord_door", "PIL"},
    "pictures": {"bot", "cogs", "emulator", "bench", "tests", "discord", "discord_door"},
    "bot": {"cogs", "bench", "tests"},
    "cogs": {"emulator", "bench", "tests"},
    "emulator": {"engine", "pictures", "bot", "cogs", "bench", "tests"},
    "discord_door": {"engine", "pictures", "bot", "cogs", "emulator", "bench", "tests"},
}
"""What each package must not import: engine ← pictures ← cogs, engine ← bot ← cogs, and the emulator
imports nothing of Catnip but the door to discord.py's internals, which imports nothing of Catnip
itself. Pictures draw from the engine's public views alone, and the engine stays pure of Pillow."""

EMULATOR_USERS = {"emulator", "tests", "bench"}
EMULATOR_DOORS = {"bot.offline", "bot.endpoint"}
"""The modules outside tests and benchmarks that reach the emulator: the demo with no Discord token, and
the pointing of the bot at a developer's `python -m emulator` (`CATNIP_EMULATOR_URL`)."""


@dataclass(frozen=True)
class Import:
    module: str
    path: Path
    line: int
    target: str

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    @property
    def target_root(self) -> str:
        return self.target.split(".")[0]

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files(packages: Iterable[str]) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


MODULES = {module_name(path): path for path in python_files(PACKAGES)}


STATEMENT_PARTS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(nodes: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every statement under `nodes`, the body of an `if TYPE_CHECKING:` included (an import is a
    statement, so expressions are not searched)."""
    for node in nodes:
        yield node
        yield from _statements(
            child for child in ast.iter_child_nodes(node) if isinstance(child, STATEMENT_PARTS)
        )


def _project_module(dotted: str) -> str:
    """The longest leading part of `dotted` that is one of the project's modules (else `dotted`)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in MODULES:
            return ".".join(parts[:end])
    return dotted


def imports_in(source: str, module: str, path: Path) -> list[Import]:
    """The imports `module` runs, each resolved to the project module it loads (or the outside name)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            found += [Import(module, path, node.lineno, _project_module(a.name)) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = _project_module(f"{base}.{alias.name}")
                found.append(Import(module, path, node.lineno, target))
    return found


@functools.cache
def all_imports() -> tuple[Import, ...]:
    """Every import of the project's modules (read once, by the first test that asks)."""
    return tuple(
        found for module, path in MODULES.items() for found in imports_in(path.read_text(), module, path)
    )


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (or a module importing itself), as paths."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(edges.get(node, ())):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                groups.append(_circle(sorted(group), edges))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def _circle(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One circle through the group's first module, e.g. [a, b, c, a]: the shortest way back to it."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for after in sorted(edges.get(node, ())):
            if after == start:
                return [*paths[node], start]
            if after in members and after not in paths:
                paths[after] = [*paths[node], after]
                queue.append(after)
    return group


def named(imports: Iterable[Import]) -> str:
    """One line per offending import, each naming the file, the line and what it imports."""
    return "\n".join(sorted({str(found) for found in imports}))


def import_graph(imports: Iterable[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for found in imports:
        if found.target in MODULES:
            graph.setdefault(found.module, set()).add(found.target)
    return graph


# ---------------------------------------------------------------------------------------- the rules


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package):
    wrong = named(i for i in all_imports() if i.package == package and i.target_root in FORBIDDEN[package])
    assert not wrong, f"{package}/ must not import {', '.join(sorted(FORBIDDEN[package]))}:\n{wrong}"


def test_only_tests_benchmarks_and_the_offline_demo_use_the_emulator():
    wrong = named(
        i
        for i in all_imports()
        if i.target_root == "emulator" and i.package not in EMULATOR_USERS and i.module not in EMULATOR_DOORS
    )
    assert not wrong, f"the Discord emulator is for tests, benchmarks and the offline demo:\n{wrong}"


def test_no_modules_import_each_other_in_a_circle():
    found = cycles(import_graph(all_imports()))
    assert not found, "modules that import each other in a circle:\n" + "\n".join(
        " -> ".join(circle) for circle in found
    )


def test_no_two_top_level_packages_import_each_other():
    packages: dict[str, set[str]] = {}
    for found in all_imports():
        if found.target in MODULES and found.target_root != found.package:
            packages.setdefault(found.package, set()).add(found.target_root)
    circles = cycles(packages)
    assert not circles, "packages that import each other in a circle:\n" + "\n".join(
        " -> ".join(circle) for circle in circles
    )


SIZED = [
    path
    for path in python_files(SIZED_PACKAGES)
    if not (path.parts[-3] == "engine" and path.name == "texts.py")
]
"""Every module but the games' texts (engine/<game>/texts.py: the words players read)."""


@pytest.mark.parametrize("path", SIZED, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_over_500_lines(path):
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines; split it by what its parts do"


# ---------------------------------------------------------------------------------------- the checks


def test_the_check_sees_imports_inside_functions_and_resolves_relative_ones():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import _cog\n"
        "if TYPE_CHECKING:\n"
        "    from bot.app import CatnipBot\n"
        "def setup():\n"
        "    from bot.sessions import GameService\n"
        "    import emulator.model\n"
    )
    path = ROOT / "cogs/play/__init__.py"
    targets = [i.target for i in imports_in(source, "cogs.play", path)]
    assert targets == ["typing.TYPE_CHECKING", "cogs.play._cog", "bot.app", "bot.sessions", "emulator.model"]


def test_the_check_finds_a_circle_and_names_it():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_a_circle_through_a_type_only_import_is_a_circle():
    first = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app import CatnipBot\n"
    second = "from bot.health import HealthServer\n"
    imports = [
        *imports_in(first, "bot.health", ROOT / "bot/health.py"),
        *imports_in(second, "bot.app", ROOT / "bot/app.py"),
    ]
    assert cycles(import_graph(imports)) == [["bot.app", "bot.health", "bot.app"]]


# ---------------------------------------------------------------------------------------- the games

GAME_FILES = {"__init__", "model", "rules", "view", "texts", "ai", "guide", "hints", "position"}
"""The public modules of every game package; anything more a game needs is a private `_*.py` helper."""
SHARED_ENGINE_PACKAGES = {"ai"}
SHARED_PICTURES = {
    "pictures",
    "pictures.kit",
    "pictures.letters",
    "pictures.png",
    "pictures.palette",
    "pictures.silhouettes",
    "pictures.shapes",
    "pictures.seats",
    "pictures.results",
    "pictures.process",
}
"""The pictures modules every game shares (the drawing process among them); each of the others draws
one game."""
GAME_PACKAGES = sorted(
    path.parent.name
    for path in (ROOT / "engine").glob("*/__init__.py")
    if path.parent.name not in SHARED_ENGINE_PACKAGES
)


def test_every_game_package_is_registered_under_its_name():
    from engine import GAMES

    assert sorted(GAMES) == GAME_PACKAGES, "every engine/<game>/ has one line in engine.GAMES, and only those"
    for key, game in GAMES.items():
        assert game is importlib.import_module(f"engine.{key}").GAME
        assert type(game.rules).__module__ == f"engine.{key}.rules"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_game_has_the_same_public_modules(game):
    modules = {path.stem for path in (ROOT / "engine" / game).glob("*.py")}
    public = {name for name in modules if name == "__init__" or not name.startswith("_")}
    assert public == GAME_FILES, (
        f"engine/{game}/ has {', '.join(sorted(public ^ GAME_FILES))} where every game has the same public "
        f"modules ({', '.join(sorted(GAME_FILES))}); move the rest into private _*.py helpers"
    )


def test_a_games_private_helpers_are_imported_only_by_the_game_and_its_tests():
    def private_to(target: str) -> str | None:
        parts = target.split(".")
        if len(parts) > 2 and parts[0] == "engine" and parts[1] in GAME_PACKAGES and parts[2].startswith("_"):
            return f"engine.{parts[1]}"
        return None

    wrong = named(
        i
        for i in all_imports()
        if (owner := private_to(i.target))
        and i.package != "tests"
        and i.module != owner
        and not i.module.startswith(owner + ".")
    )
    assert not wrong, f"a game's _*.py helpers are its own; read it through its public modules:\n{wrong}"


def test_every_game_names_the_module_that_draws_it_and_every_drawing_belongs_to_a_game():
    from engine import GAMES

    named_pictures = {game.picture for game in GAMES.values()}
    drawings = {name for name in MODULES if name.startswith("pictures") and name not in SHARED_PICTURES}
    assert named_pictures == drawings, "each pictures/<game>.py is named by exactly one Game.picture"
    for game in GAMES.values():
        module = importlib.import_module(game.picture)
        assert callable(module.scene) and callable(module.paint), f"{game.picture} draws no scene"


def test_pictures_draw_each_game_with_the_module_its_game_names():
    import pictures
    from engine import GAMES

    for key, game in GAMES.items():
        module = importlib.import_module(game.picture)
        assert pictures.PAINTERS[key] == pictures.Painter(module.scene, module.paint)
