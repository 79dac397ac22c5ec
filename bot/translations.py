"""Slash command names and descriptions in the members' own languages, from the catalogs of `lang`.

Discord shows a member each command in their client's language (its `name_localizations` and
`description_localizations`, which discord.py fills through this translator when the commands are
synced). A text a catalog lacks stays English. Command and option names must stay lowercase words
Discord accepts (`tests/lang/test_catalogs.py` checks each catalog's).
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from lang import SOURCE, language_of, languages, translations


class CatalogTranslator(app_commands.Translator):
    """Translates the command texts marked with `locale_str` through the language's catalog."""

    async def load(self) -> None:
        """Read every catalog once, at start-up and off the event loop (tens of milliseconds each): the
        first member of a language does not hold every table up while its catalog is read."""
        await asyncio.to_thread(lambda: [translations(language) for language in languages()])

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == SOURCE:
            return None
        return translations(language).gettext(string.message)
