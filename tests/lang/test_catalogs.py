"""The catalogs: every text the code marks, in every language, with the same placeholders and the
language's own plural forms; and the command that keeps them in step, run as the README says."""

from __future__ import annotations

import ast
import os
import shutil
import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

import lang
from lang import languages, translations
from lang.catalogs_in_code import COMMANDS, ROOT, marked_texts, read_catalog, translated

OTHERS = [language for language in languages() if language != lang.SOURCE]
COMPLETE = ["fr"]
"""The languages that translate every text. Any other catalog is partial: whatever it leaves out reads
in English, but it translates at least `ESSENTIAL`."""
TABLE_HEADLINE = (
    "{emoji} {game} — table #{id}",
    "**Now:** {line}",
    "Waiting for {players}",
    "Game #{id} · move {move}",
    "{names} and {last}",
)
"""What a table says above its fields: its title, who is to act, its footer."""


LANGUAGE_NAME = ("the language's own name", "English")
"""How a catalog names its language, on the lobby's Language button."""


def essential() -> list:
    """What a partial catalog translates at least: the slash commands and the table's headline."""
    return [text.id for text in marked_texts(COMMANDS) if text.id] + list(TABLE_HEADLINE)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_there_is_a_language_besides_english():
    assert "fr" in OTHERS and set(COMPLETE) <= set(OTHERS)


def test_the_table_s_headline_is_what_the_code_marks():
    assert set(TABLE_HEADLINE) <= {text.id for text in marked_texts()}


def entries(language: str):
    """Each text the code marks, with its entry in `language`'s catalog (None if it has none)."""
    catalog = read_catalog(language)
    for text in marked_texts():
        if text.id:
            yield text, catalog.get(text.id, context=text.context), catalog


@pytest.mark.parametrize("language", COMPLETE)
def test_a_complete_language_translates_every_marked_text(language):
    for text, entry, _catalog in entries(language):
        assert entry is not None and not entry.fuzzy, f"{language} lacks {text.id!r}"
        assert translated(entry.string), f"{language} leaves {text.id!r} untranslated"


@pytest.mark.parametrize("language", sorted(set(OTHERS) - set(COMPLETE)))
def test_a_partial_language_translates_the_commands_and_the_table_s_headline(language):
    catalog = read_catalog(language)
    for text in essential():
        entry = catalog.get(text)
        assert entry is not None and translated(entry.string), f"{language} leaves {text!r} untranslated"
    context, name = LANGUAGE_NAME
    assert translated(catalog.get(name, context=context).string), f"{language} does not name itself"


def test_each_language_names_itself_as_its_speakers_do():
    assert [lang.language_name(code) for code in languages()] == ["English", "Deutsch", "français"]


@pytest.mark.parametrize("language", OTHERS)
def test_every_translation_keeps_its_text_s_placeholders_and_plural_forms(language):
    for text, entry, catalog in entries(language):
        if entry is None or not translated(entry.string):
            continue
        sources = text.id if isinstance(text.id, tuple) else (text.id,)
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if isinstance(text.id, tuple):
            assert len(forms) == catalog.num_plurals, f"{language}: {text.id[0]!r} needs each plural form"
        wanted = set().union(*map(placeholders, sources))
        for form in forms:
            assert placeholders(form) == wanted, f"{language}: {form!r} against {sources[0]!r}"


def test_a_catalog_translates_plural_forms_by_its_language_s_rule():
    french = translations("fr")
    one = french.ngettext("Table #{id} is still a lobby: {count} seated.", "", 1)
    assert one.format(id=3, count=1).endswith("1 joueur assis.")
    assert french.ngettext("Table #{id} is still a lobby: {count} seated.", "", 0).endswith("joueur assis.")
    assert french.ngettext("Table #{id} is still a lobby: {count} seated.", "", 2).endswith("joueurs assis.")


def test_a_text_speaks_the_language_set_around_it_and_falls_back_to_english():
    with lang.speaking("fr"):
        assert lang._("Join") == "Rejoindre"
        with lang.speaking("xx-unknown"):
            assert lang._("Join") == "Join"
        assert (
            lang._("Only {host} (the host) can do that.", host="Zoë") == "Seul Zoë (l'hôte) peut faire cela."
        )
    assert lang._("Join") == "Join"
    assert [lang.language_of(code) for code in ("fr", "en-GB", "pt-BR", None)] == ["fr", "en", "en", "en"]


def test_python_m_lang_update_keeps_a_catalog_in_step_with_the_code(tmp_path):
    """`python -m lang update fr`, as the README says, in a copy of the project's texts: the catalog
    already holds every text, so nothing is left to translate and no translation changes."""
    for package in ("engine", "pictures", "bot", "cogs"):
        (tmp_path / package).symlink_to(ROOT / package, target_is_directory=True)
    shutil.copytree(ROOT / "lang", tmp_path / "lang", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "lang", "update", "fr"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("0 to translate"), run.stdout
    with (tmp_path / "lang" / "catalogs" / "fr.po").open("rb") as source:
        updated = read_po(source, locale="fr")
    kept = read_catalog("fr")
    assert {e.id: e.string for e in updated if e.id} == {e.id: e.string for e in kept if e.id}


def test_no_module_that_marks_texts_with_underscore_also_uses_it_as_a_throwaway_name():
    """`line, _ = …` in a function that also calls `_("…")` would make `_` a local there: the call then
    fails at run time, and only on that path."""
    offenders = []
    for package in ("engine", "pictures", "bot", "cogs"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            marks = any(
                isinstance(node, ast.ImportFrom)
                and node.module == "lang"
                and any(a.name == "_" for a in node.names)
                for node in tree.body
            )
            stores = list(_underscores_stored(tree))
            if marks and stores:
                offenders.append(f"{path.relative_to(ROOT)}:{stores[0]}")
    assert not offenders, offenders


def _underscores_stored(node: ast.AST):
    """Lines where `_` is assigned, a comprehension's own variables aside (they have a scope of their own)."""
    if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
        return
    if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
        yield node.lineno
    for child in ast.iter_child_nodes(node):
        yield from _underscores_stored(child)
