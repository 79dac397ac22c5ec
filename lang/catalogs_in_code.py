"""The texts the code marks for translation, and the catalogs kept in step with them (Babel)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from lang import CATALOGS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "pictures", "bot", "cogs", "lang")
"""Where player texts live; the emulator and the benchmarks speak to developers only."""
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None, "locale_str": None}
"""`lang`'s marks, and discord.py's `locale_str` for the slash commands' names and descriptions."""
COMMANDS = {"locale_str": None}
"""The slash commands' names and descriptions alone."""


def marked_texts(keywords: dict = KEYWORDS) -> Catalog:
    """Every text of the code marked with one of `keywords`, as a template catalog (no translations)."""
    template = Catalog(project="Catnip", fuzzy=False)
    for package in PACKAGES:
        for filename, lineno, message, comments, context in extract_from_dir(
            ROOT / package,
            method_map=[("**.py", "python")],
            keywords=keywords,
            comment_tags=("Translators:",),
        ):
            template.add(
                message,
                locations=[(f"{package}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
    return template


def read_catalog(language: str) -> Catalog:
    with (CATALOGS / f"{language.replace('-', '_')}.po").open("rb") as source:
        return read_po(source, locale=language.replace("-", "_"))


def write_catalog(catalog: Catalog, language: str) -> Path:
    """Sorted by text, each located by its file alone: a line moved in the code leaves the catalog as it
    was, and two branches adding texts merge line by line (.gitattributes merges catalogs as unions)."""
    path = CATALOGS / f"{language.replace('-', '_')}.po"
    with path.open("wb") as target:
        write_po(
            target,
            catalog,
            width=100,
            sort_output=True,
            omit_header=False,
            ignore_obsolete=True,
            include_lineno=False,
        )
    return path


def update(language: str) -> tuple[int, int]:
    """Bring `language`'s catalog in step with the code (a new one if it has none): texts new to it
    are added untranslated, texts gone from the code dropped. Returns (texts, untranslated)."""
    template = marked_texts()
    path = CATALOGS / f"{language.replace('-', '_')}.po"
    if path.exists():
        catalog = read_catalog(language)
    else:
        catalog = Catalog(
            locale=language.replace("-", "_"), project="Catnip", version="", copyright_holder=""
        )
        catalog.header_comment = f"# Catnip's texts in {catalog.locale.english_name}: see lang/__init__.py."
    created = catalog.creation_date  # kept: a date that changed at every update would clash in merges
    catalog.update(template, no_fuzzy_matching=True)
    catalog.creation_date = created
    catalog.fuzzy = False
    write_catalog(catalog, language)
    untranslated = sum(1 for message in catalog if message.id and not translated(message.string))
    return len(template), untranslated


def translated(string: str | tuple[str, ...]) -> bool:
    """Whether a catalog entry's translation is there, every plural form of it."""
    return all(string) if isinstance(string, tuple) else bool(string)
