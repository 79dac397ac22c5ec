"""Every word a player reads, in the member's or the server's language.

English is the source language: the texts in the code are the message ids. Each other language is one
gettext catalog, `lang/catalogs/<language>.po`, kept with Babel. Why gettext and Babel rather than
Project Fluent: `.po` is the file every translation tool and volunteer translator already reads
(Weblate, Crowdin, Poedit); Babel extracts the marked texts straight from the code (so a test can
prove no text is missing from a catalog), carries CLDR's plural rules for every language and is
released with CLDR; and the runtime is the standard library's `gettext`. Fluent's Python runtime is
far less used and its `.ftl` files need ids of their own beside every English text.

Mark a text with `_` (with `{placeholders}` filled from keywords), `n_` when it depends on a count
(its plural forms are the language's own), `p_` when one English word needs a context to be
translated (a button's "Pass" against an auction's "pass"), and `N_` for a constant translated where
it is shown. Which language speaks is a context variable set around each answer (`speaking`): a
member's own for what only they see, the game's (its server's, unless the lobby chose) for the table.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

CATALOGS = Path(__file__).resolve().parent / "catalogs"
SOURCE = "en"
"""The language of the texts in the code."""

P = ParamSpec("P")
T = TypeVar("T")
_speaking: ContextVar[str] = ContextVar("catnip_language", default=SOURCE)


@cache
def languages() -> tuple[str, ...]:
    """Every language Catnip speaks: English and one per catalog, as Discord names them ("pt-BR")."""
    return (SOURCE, *sorted(path.stem.replace("_", "-") for path in CATALOGS.glob("*.po")))


def language_of(locale: object) -> str:
    """The language Catnip speaks to a Discord locale ("fr", "en-GB", "pt-BR"; None or unknown:
    English): the locale itself when a catalog has it, else its language without the region."""
    text = str(getattr(locale, "value", locale) or "")
    known = languages()
    for candidate in (text, text.split("-")[0]):
        if candidate in known:
            return candidate
    return SOURCE


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of `language` (read once per process); English is the code's own text."""
    path = CATALOGS / f"{language.replace('-', '_')}.po"
    if language == SOURCE or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language.replace("-", "_"))
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def language_name(language: str) -> str:
    """`language` as its own speakers name it ("français", "English"): its catalog says, so that no
    locale data (megabytes a language) is loaded for a name."""
    with speaking(language):
        return p_("the language's own name", "English")


def number(value: int, *, signed: bool = False) -> str:
    """`value` as the language speaking now writes numbers ("1,412"; "1 412" in French), with its sign
    when `signed` ("+23")."""
    written = format_decimal(abs(value) if signed else value, locale=current().replace("-", "_"))
    return ("+" if value >= 0 else "-") + written if signed else written


def current() -> str:
    """The language speaking now."""
    return _speaking.get()


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Texts made inside speak `language` (tasks started inside inherit it)."""
    token = _speaking.set(language if language in languages() else SOURCE)
    try:
        yield
    finally:
        _speaking.reset(token)


def speak(language: str) -> None:
    """What the current task says from now on speaks `language` (an answer's handler, which Discord's
    client library runs in a task of its own)."""
    _speaking.set(language if language in languages() else SOURCE)


def said_in(language: str, message: str, /) -> str:
    """The English `message` as `language` says it (a label a simulated member looks for)."""
    with speaking(language):
        return _(message)


def in_its_language(render: Callable[Concatenate[Any, P], T]) -> Callable[Concatenate[Any, P], T]:
    """`render(game, …)` speaks `game.language`, whoever asked for it: a public message reads the same
    for every member, in the language of its table."""

    @functools.wraps(render)
    def rendered(game: Any, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with speaking(game.language):
            return render(game, *args, **kwargs)

    return rendered


def _(message: str, /, **values: object) -> str:
    """`message` in the language speaking now, its `{placeholders}` filled from `values`."""
    text = translations(current()).gettext(message)
    return text.format(**values) if values else text


def n_(singular: str, plural: str, count: int, /, **values: object) -> str:
    """The form for `count` of a text with plural forms (`{count}` fills in the number)."""
    text = translations(current()).ngettext(singular, plural, count)
    return text.format(count=count, **values)


def p_(context: str, message: str, /, **values: object) -> str:
    """`message` where `context` tells its translator which sense it has."""
    text = translations(current()).pgettext(context, message)
    return text.format(**values) if values else text


def N_(message: str, /) -> str:
    """Marks `message` for the catalogs without translating it: a constant, translated with `_` where
    it is shown."""
    return message
