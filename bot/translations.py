"""Slash command names and descriptions in the members' own languages.

English is the source: the text in the code. `CatalogueTranslator` reads one JSON catalogue per
Discord locale from `bot/locales/` (e.g. `fr.json`), each mapping an English text to its translation;
Discord then shows a member the command in their client's language. A text a catalogue lacks stays
English. Command and option names must stay lowercase words Discord accepts.
"""

from __future__ import annotations

import json
from pathlib import Path

import discord
from discord import app_commands

LOCALES = Path(__file__).resolve().parent / "locales"


class CatalogueTranslator(app_commands.Translator):
    """Translates command texts from the JSON catalogues in `directory`, one per locale."""

    def __init__(self, directory: Path = LOCALES) -> None:
        self.catalogues: dict[str, dict[str, str]] = {
            path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(directory.glob("*.json"))
        }

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.catalogues.get(locale.value, {}).get(string.message)
