"""A lobby's options: how each reads, and the controls that change them within Discord's five rows.

Rows 0 and 1 of a lobby hold its own buttons and the computer-player select. The rest is laid out
here: row 2 holds Remove computer, Shuffle, a button per on/off option and the table's language
(each click the next language Catnip speaks), rows 3 and 4 a select per seat option and the timer.
A game whose options would need more rows gets them all in "⚙️ Settings" selects instead, one entry
per value ("Limited powers: off"), so the lobby never runs out of rows, however many options it has.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.errors import Refusal
from bot.live import (
    LANGUAGE_OPTION,
    PICTURES_OPTION,
    TIMER_CHOICES,
    TIMER_OPTION,
    LiveGame,
    seat_option_names,
)
from cogs import custom_ids as ids
from cogs.components import Button, Item, Select
from lang import N_, _, language_name, languages

BUTTON_ROW = 2
SELECT_ROWS = (3, 4)
ROW_BUTTONS = 5
SELECT_OPTIONS = 25


OPTION_TITLES = {
    "first_seat": N_("First seat"),
    "first_player": N_("First player"),
    "limited_powers": N_("Limited powers"),
    "first_queen": N_("First queen"),
    PICTURES_OPTION: N_("Pictures"),
    LANGUAGE_OPTION: N_("Language"),
    TIMER_OPTION: N_("Decision timer"),
}
"""How each option reads; an option a game adds without a title here reads as its name."""


def option_title(name: str) -> str:
    title = OPTION_TITLES.get(name)
    return _(title) if title else name.replace("_", " ").capitalize()


def setting_label(name: str, value: str) -> str:
    """An option and its value as a control reads ("Pictures: on")."""
    return _("{option}: {value}", option=option_title(name), value=value)


def is_seat_option(game: LiveGame, name: str) -> bool:
    """Whether a game option names a seat (who starts, the first Kittyqueen …)."""
    return name in seat_option_names(game.rules)


def duration(seconds: int) -> str:
    return _("{minutes} min", minutes=seconds // 60) if seconds >= 60 else _("{seconds} s", seconds=seconds)


def on_off(value: bool) -> str:
    return _("on") if value else _("off")


def option_value(name: str, value: object, game: LiveGame) -> str:
    if name == TIMER_OPTION:
        return _("{duration} per decision", duration=duration(value)) if value else _("the bot's default")
    if name == LANGUAGE_OPTION:
        return language_name(str(value))
    if is_seat_option(game, name):
        return game.names[value] if isinstance(value, int) and value < len(game.names) else _("random")
    if isinstance(value, bool):
        return on_off(value)
    return str(value)


def next_language(current: str) -> str:
    """The language after `current` among those Catnip speaks, round again to the first."""
    spoken = languages()
    return spoken[(spoken.index(current) + 1) % len(spoken)] if current in spoken else spoken[0]


def setting_value(game: LiveGame, name: str, chosen: str) -> object:
    """The value of option `name` that a select's `chosen` text stands for; else a refusal."""
    current = game.record.options.get(name, None)
    if name == LANGUAGE_OPTION and chosen in languages():
        return chosen
    if name == TIMER_OPTION:
        return None if chosen == "default" else int(chosen) if chosen.isdigit() else -1
    if is_seat_option(game, name):
        if chosen == "random":
            return None
        if chosen.isdigit() and int(chosen) < len(game.record.seats):
            return int(chosen)
    elif isinstance(current, bool) and chosen in ("on", "off"):
        return chosen == "on"
    raise Refusal(_("That isn't a valid setting."))


def _choices(game: LiveGame, name: str) -> list[tuple[str, str, bool]]:
    """Each value option `name` may take: (what it reads as, its select value, whether it is set)."""
    value = game.record.options.get(name)
    if name == TIMER_OPTION:
        timer = game.timer_seconds()
        return [(_("the bot's default"), "default", timer is None)] + [
            (duration(seconds), str(seconds), timer == seconds) for seconds in TIMER_CHOICES
        ]
    if is_seat_option(game, name):
        return [(_("random"), "random", value is None)] + [
            (seat.name, str(seat.seat), value == seat.seat) for seat in game.record.seats
        ]
    if name == LANGUAGE_OPTION:
        return [(language_name(code), code, game.language == code) for code in languages()]
    return [(on_off(True), "on", value is True), (on_off(False), "off", value is False)]


def _select(game: LiveGame, name: str, row: int) -> Select:
    return Select(
        custom_id=ids.lobby_id(game.id, "opt", name),
        options=[
            discord.SelectOption(label=setting_label(name, label)[:100], value=value, default=chosen)
            for label, value, chosen in _choices(game, name)
        ],
        row=row,
        placeholder=f"{option_title(name)}…",
    )


def _switch(game: LiveGame, name: str) -> Button:
    value = game.record.options.get(name)
    shown = language_name(game.language) if name == LANGUAGE_OPTION else on_off(bool(value))
    label = setting_label(name, shown)
    return Button(label=label[:80], custom_id=ids.lobby_id(game.id, "opt", name), row=BUTTON_ROW)


def settings_items(game: LiveGame) -> list[Item]:
    """Remove computer, Shuffle seats and a control for every option, in rows 2 to 4."""
    count = len(game.record.seats)
    items: list[Item] = [
        Button(
            label=_("Remove computer"),
            custom_id=ids.lobby_id(game.id, "rmc"),
            disabled=not any(s.computer for s in game.record.seats),
            row=BUTTON_ROW,
        ),
        Button(
            label=_("Shuffle seats"),
            emoji="🔀",
            custom_id=ids.lobby_id(game.id, "shuffle"),
            disabled=count < 2,
            row=BUTTON_ROW,
        ),
    ]
    options = [name for name in game.record.options if name not in (TIMER_OPTION, LANGUAGE_OPTION)]
    switches = [name for name in options if isinstance(game.record.options[name], bool)]
    if len(languages()) > 1:
        switches.append(LANGUAGE_OPTION)
    chosen = [name for name in options if is_seat_option(game, name)] + [TIMER_OPTION]
    fits = len(items) + len(switches) <= ROW_BUTTONS and len(chosen) <= len(SELECT_ROWS)
    if fits:
        items += [_switch(game, name) for name in switches]
        return items + [_select(game, name, row) for name, row in zip(chosen, SELECT_ROWS, strict=False)]
    return items + settings_selects(game, [*switches, *chosen[:-1], TIMER_OPTION])


def settings_selects(game: LiveGame, names: Sequence[str]) -> list[Select]:
    """Every value of every option in `names` as an entry of a "⚙️ Settings" select, 25 to a select,
    one select a row; the values set now are marked."""
    entries = [
        discord.SelectOption(
            label=setting_label(name, label)[:100],
            value=f"{name}={value}",
            emoji="✅" if chosen else None,
        )
        for name in names
        for label, value, chosen in _choices(game, name)
    ]
    pages = [entries[start : start + SELECT_OPTIONS] for start in range(0, len(entries), SELECT_OPTIONS)]
    if len(pages) > len(SELECT_ROWS):
        raise ValueError(f"{len(entries)} option values do not fit {len(SELECT_ROWS)} settings selects")
    return [
        Select(
            custom_id=ids.lobby_id(game.id, "set", str(page)),
            options=page_entries,
            row=row,
            placeholder=_("⚙️ Settings (host)…")
            if len(pages) == 1
            else _("⚙️ Settings {page}/{pages}…", page=page + 1, pages=len(pages)),
        )
        for page, (page_entries, row) in enumerate(zip(pages, SELECT_ROWS, strict=False))
    ]
