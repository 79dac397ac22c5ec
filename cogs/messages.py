"""The messages Catnip shows: lobby, table, details and final scores, within Discord's limits, and the
controls for a seat's moves (the private panel itself is `cogs.panel`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

import pictures
from bot.live import LiveGame, describe_players
from cogs import custom_ids as ids
from cogs.components import Button, Controls, Item, Select
from cogs.phone import (
    FIELD_GAP_PIXELS,
    LINE_PIXELS,
    SCREEN,
    TABLE_BUDGET,
    Screen,
    phone_lines,
    screen_of,
    text_lines,
)
from cogs.ratings import change_note
from cogs.seat_controls import away_line, hand_button, table_buttons, take_back_button
from engine import Action, Outcome, events_for, fill_names
from engine.decisions import reader_names, your_words
from engine.texts import Choice
from lang import _, in_its_language, n_

FIELD_LIMIT = 1024
EMBED_TOTAL = 6000
BUTTONS_PER_PAGE = 20
SELECT_OPTIONS = 25
NARRATION_LINES = 6
DETAILS_NARRATION = 12
COMPACT_FROM = 4
"""Players from which the table shows one line per player; the rest is behind the Details button."""
COLOUR = discord.Colour.from_rgb(236, 153, 76)


@dataclass
class Message:
    """What to send or edit: content, one embed and its controls (never stored as a view)."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: Controls | None = None
    mentions: Sequence[int] = field(default_factory=tuple)
    picture: Any = None
    """The table's picture to attach (`cogs.play._pictures.Picture`), if it shows one."""

    def kwargs(self) -> dict:
        allowed = discord.AllowedMentions(
            users=[discord.Object(u) for u in self.mentions], roles=False, everyone=False
        )
        return {"content": self.content, "embed": self.embed, "view": self.view, "allowed_mentions": allowed}

    def as_sent(self, *, ephemeral: bool = False) -> dict:
        """The message as Discord receives it: content, embeds, components and flags."""
        return {
            "content": self.content,
            "embeds": [self.embed.to_dict()] if self.embed is not None else [],
            "components": self.view.to_components() if self.view is not None else [],
            "flags": 64 if ephemeral else 0,
        }


def split_value(text: str, limit: int = FIELD_LIMIT) -> list[str]:
    """Split `text` into chunks of at most `limit` characters at line breaks, never inside a line."""
    if 0 < len(text) <= limit and text[0] != "\n":
        return [text]  # the usual case; the loop below would give the same
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            chunks.append(line[:cut])
            line = line[cut:].lstrip()
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current or not chunks:
        chunks.append(current or "—")
    return chunks


def add_fields(embed: discord.Embed, fields: Sequence[tuple[str, str]], inline: bool = False) -> None:
    """Add fields, splitting long values over continued fields; stop before Discord's totals overflow."""
    present = embed.fields  # discord.py makes a list of proxies each time it is asked
    last = present[-1].name if present else None
    for name, value, inline_ in fitted_fields(fields, len(embed), len(present), last, inline):
        embed.add_field(name=name, value=value, inline=inline_)


def fitted_fields(
    fields: Sequence[tuple[str, str]],
    total: int = 0,
    count: int = 0,
    last: str | None = None,
    inline: bool = False,
) -> list[tuple[str, str, bool]]:
    """The fields `add_fields` adds to an embed of `total` characters holding `count` fields, the last
    named `last`: as (name, value, inline), long values over continued fields, and a "…" field in
    place of those that would overflow Discord's totals."""
    added: list[tuple[str, str, bool]] = []
    for name, value in fields:
        for index, chunk in enumerate(split_value(value or "—")):
            label = (name if index == 0 else _("{name} (cont.)", name=name))[:256]
            if count >= 24 or total + len(label) + len(chunk) > EMBED_TOTAL - 200:
                if (added[-1][0] if added else last) != "…":
                    added.append(("…", _("More in /game log or your private view."), False))
                return added
            added.append((label, chunk, inline))
            total, count = total + len(label) + len(chunk), count + 1
    return added


def narration(
    game: LiveGame, seat: int | None, limit: int = NARRATION_LINES, names: Sequence[str] | None = None
) -> str:
    names = game.names if names is None else names
    return "\n".join(event.render(names) for event in events_for(game.events, seat, last=limit))


def guide_button(game: LiveGame, row: int = 0) -> Button:
    """The "📖 How to play" button: the game's guide, shown privately to whoever clicks it."""
    return Button(label=_("How to play"), emoji="📖", custom_id=ids.guide_id(game.record.game), row=row)


def _status_line(game: LiveGame, due: float | None) -> tuple[str, list[int]]:
    to_act = game.to_act()
    renderer = game.game.texts
    view = game.view(None)
    waiting = describe_players([game.names[s] for s in to_act])
    line = renderer.prompt(view, game.names) or _("Waiting for {players}", players=waiting)
    if due is not None:
        line += f" · ⏰ <t:{int(due)}:R>"
    humans = [game.record.seats[s].user_id for s in to_act if game.record.seats[s].user_id]
    return line, humans


def is_compact(game: LiveGame) -> bool:
    return len(game.record.seats) >= COMPACT_FROM


@in_its_language
def table_message(game: LiveGame, due: float | None = None, picture: bool | None = None) -> Message:
    """The public table: the public view, whose turn, recent events, and the public controls.

    Kept to a phone's first screen (docs/table-budget.md). With a picture (`picture`, by default the
    table's own setting) the text says what happens now and what just happened, and the picture shows
    the table: the game's fields are behind the Details button. Without one the text shows the fields,
    one line per player from `COMPACT_FROM` players. The moves of a lone player who acts in public come
    first among the controls, and recent events fill the room left above them on the first screen.
    """
    rules, state = game.rules, game.state
    renderer = game.game.texts
    outcome = rules.outcome(state)
    view = game.view(None)
    picture = game.pictures() if picture is None else picture
    embed = discord.Embed(
        title=_("{emoji} {game} — table #{id}", emoji=renderer.emoji, game=rules.title, id=game.id),
        colour=COLOUR,
    )
    if outcome is not None:
        embed.description = final_text(game, outcome, with_breakdown=False)
    else:
        line, _humans = _status_line(game, due)
        embed.description = _("**Now:** {line}", line=line)
        if away := away_line(game):
            embed.description += f"\n{away}"
    if not picture:
        fields = renderer.compact_fields if is_compact(game) else renderer.table_fields
        add_fields(embed, fields(view, game.names))
    embed.set_footer(text=_("Game #{id} · move {move}", id=game.id, move=game.record.version - 1))
    items: list[Item] = []
    if outcome is not None:
        items.append(
            Button(
                label=_("Rematch"),
                style=discord.ButtonStyle.success,
                custom_id=ids.rematch_id(game.id),
                row=0,
            )
        )
        items += [
            Button(label=_("Details"), emoji="🔎", custom_id=ids.details_id(game.id), row=0),
            guide_button(game),
        ]
    else:
        to_act = rules.to_act(state)
        if len(to_act) == 1 and rules.actions_are_public(state, to_act[0]):
            seat = to_act[0]
            items += action_items(game, seat, rules.legal_actions(state, seat), page=0, rows=4)
        row = 1 + max((item.row or 0 for item in items), default=-1)
        details = Button(label=_("Details"), emoji="🔎", custom_id=ids.details_id(game.id), row=row)
        own = [hand_button(game, row), details, guide_button(game, row), *table_buttons(game, row)]
        if game.undoable_by is not None and len(own) < 5:
            own.insert(1, take_back_button(game, row))
        items += own
    controls = Controls(items)
    _add_fitting_narration(embed, game, controls, picture)
    return Message(embed=embed, view=controls)


def acting_controls(game: LiveGame, components: list[dict]) -> list[str]:
    """The custom_ids of the table's controls an acting player would press first: the public moves
    shown on the table, else the button opening their own view."""
    moves = [
        item["custom_id"]
        for row in components
        for item in row["components"]
        if ids.kind_of(item["custom_id"]) in (ids.Kind.ACTION, ids.Kind.SELECT, ids.Kind.MULTI)
    ]
    return moves or [ids.view_id(game.id)]


def table_screen(game: LiveGame, message: Message, picture: bool) -> tuple[Screen, float | None]:
    """Where the table stands on a phone, and the bottom of the first control its acting player
    needs (None once the game is over)."""
    components = message.view.to_components() if message.view is not None else []
    embed = message.embed.to_dict() if message.embed is not None else None
    if embed is not None and picture:
        embed["image"] = {"url": f"attachment://{pictures.FILENAME}"}
    screen = screen_of(message.content, embed, components, pictures.SIZE if picture else None)
    if game.rules.outcome(game.state) is not None:
        return screen, None
    return screen, screen.highest_bottom(acting_controls(game, components))


def _add_fitting_narration(embed: discord.Embed, game: LiveGame, controls: Controls, picture: bool) -> None:
    """The most recent events that keep the table within the phone budget — `TABLE_BUDGET` lines, and
    with its picture the acting player's first control on the first `SCREEN` (without one the fields
    alone can fill the screen, and what happened keeps its lines) — placed before the footer."""
    if game.rules.outcome(game.state) is not None:
        return  # the result says how it ended; 🔎 Details keeps the last moves
    events = events_for(game.events, None, last=NARRATION_LINES)
    room = TABLE_BUDGET - phone_lines(None, embed) - 1
    first = table_screen(game, Message(embed=embed, view=controls), picture)[1] if picture else None
    if first is not None:  # the field's gap and name, then its lines, and a line spare for the wrapping
        room = min(room, int((SCREEN - first - FIELD_GAP_PIXELS) // LINE_PIXELS) - 2)
    shown: list[str] = []
    for event in reversed(events):
        line = event.render(game.names)
        height = text_lines(line)
        if height > room:
            break
        room -= height
        shown.insert(0, line)
    if shown:
        add_fields(embed, [(_("What happened"), "\n".join(shown))])


def details_message(game: LiveGame) -> Message:
    """Everything the public table has room for only in part: every player's details, the final
    scores' breakdown and more of what happened. Shown privately to whoever asks."""
    rules, state = game.rules, game.state
    renderer = game.game.texts
    outcome = rules.outcome(state)
    title = _("{emoji} {game} — details (table #{id})", emoji=renderer.emoji, game=rules.title, id=game.id)
    embed = discord.Embed(title=title, colour=COLOUR)
    if outcome is not None:
        embed.description = final_text(game, outcome)
    else:
        embed.description = _("**Now:** {line}", line=_status_line(game, None)[0])
    add_fields(embed, renderer.table_fields(game.view(None), game.names))
    story = narration(game, None, limit=DETAILS_NARRATION)
    if story:
        add_fields(embed, [(_("What happened"), story)])
    embed.set_footer(text=_("Game #{id} · move {move}", id=game.id, move=game.record.version - 1))
    return Message(embed=embed)


def final_text(game: LiveGame, outcome: Outcome, limit: int = 4000, with_breakdown: bool = True) -> str:
    """The winners, said once, then each seat's score, with the engine's breakdown if asked; breakdowns
    are summarised to totals if they would not fit, never cut mid-line."""
    winners = describe_players([game.names[s] for s in outcome.winners])
    reason = fill_names(outcome.reason, game.names)
    if winners and reason.startswith(f"{winners} "):  # "Cy wins with 26 ribbons.": already the news
        head = f"🏆 **{winners}**{reason[len(winners) :]}"
    elif winners:
        head = n_(
            "🏆 **{winners}** wins! {reason}",
            "🏆 **{winners}** win! {reason}",
            len(outcome.winners),
            winners=winners,
            reason=reason,
        )
    else:
        head = _("Nobody wins. {reason}", reason=reason)
    order = sorted(range(len(outcome.scores)), key=lambda s: -outcome.scores[s])

    def lines(with_breakdown: bool) -> str:
        rows = [head]
        for seat in order:
            row = f"**{game.names[seat]}** — {outcome.scores[seat]}"
            row += change_note(game.rating_changes.get(seat))
            if with_breakdown and outcome.breakdown and outcome.breakdown[seat]:
                row += (
                    " (" + ", ".join(f"{item.label} {item.points}" for item in outcome.breakdown[seat]) + ")"
                )
            rows.append(row)
        return fill_names("\n".join(rows), game.names)

    full = lines(with_breakdown)
    return full if len(full) <= limit else lines(with_breakdown=False)


Say = Callable[[str], str]
"""Fills a text's player names in: by name on the table (`public_words`), to the reader in their own
panel (`own_words`)."""


def public_words(game: LiveGame) -> Say:
    return lambda text: fill_names(text, game.names)


def own_names(game: LiveGame, seat: int) -> list[str]:
    """The players' names for texts `your_words` then turns to the seat (`reader_names`)."""
    return reader_names(game.names, seat)


def own_words(game: LiveGame, seat: int) -> Say:
    """Names filled in for `seat`'s own panel: theirs said as "you" ("Crown yourself" on a button)."""
    mine = own_names(game, seat)
    return lambda text: your_words(fill_names(text, mine), "yourself")


def label_of(game: LiveGame, seat: int, action: Action, say: Say | None = None) -> str:
    """The game's label for `action` (its texts' words), with player names filled in (by `say`)."""
    texts = game.game.texts
    return (say or public_words(game))(texts.label(game.rules, game.state, seat, action))


STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def arranged_items(
    game: LiveGame,
    seat: int,
    actions: Sequence[Action],
    first_row: int,
    last_row: int = 4,
    say: Say | None = None,
) -> list | None:
    """The game renderer's own controls for these actions, if it arranges them and they fit."""
    version = game.record.version
    say = say or public_words(game)
    choices = [Choice(action.encode(), label_of(game, seat, action, say)) for action in actions]
    controls = game.game.texts.controls(game.view(seat), choices)
    if not controls or first_row + len(controls) > last_row + 1:
        return None
    items: list[Item] = []
    for row, control in enumerate(controls, start=first_row):
        if control.kind == "buttons":
            items += [
                Button(
                    label=say(choice.label)[:80],
                    style=STYLES[control.style],
                    row=row,
                    custom_id=ids.action_id(game.id, version, choice.value),
                )
                for choice in control.choices[:5]
            ]
            continue
        multi = control.kind == "multi"
        items.append(
            Select(
                custom_id=ids.multi_id(game.id, version, control.key)
                if multi
                else ids.select_id(game.id, version, row),
                placeholder=_(control.placeholder)[:150],
                min_values=control.min_values if multi else 1,
                max_values=min(control.max_values, len(control.choices)) if multi else 1,
                options=[
                    discord.SelectOption(
                        label=say(c.label)[:100],
                        value=c.value,
                        description=say(c.description)[:100] if c.description else None,
                    )
                    for c in control.choices[:SELECT_OPTIONS]
                ],
                row=row,
            )
        )
    return items


def action_items(
    game: LiveGame,
    seat: int,
    actions: Sequence[Action],
    page: int,
    first_row: int = 0,
    rows: int = 5,
    say: Say | None = None,
) -> list[Item]:
    """The game's own controls, else buttons for a few actions or a paged select for many, in `rows`
    rows from `first_row`; `say` fills the labels' names in (by name unless said to the seat)."""
    arranged = arranged_items(game, seat, actions, first_row, first_row + rows - 1, say)
    if arranged is not None:
        return arranged
    version = game.record.version
    rows_left = rows
    per_page_buttons = min(BUTTONS_PER_PAGE, 5 * (rows_left - 1)) if rows_left > 1 else 5
    if len(actions) <= per_page_buttons:
        return [
            Button(
                label=label_of(game, seat, action, say)[:80],
                custom_id=ids.action_id(game.id, version, action.encode()),
                style=discord.ButtonStyle.secondary,
                row=first_row + index // 5,
            )
            for index, action in enumerate(actions)
        ]
    pages = max(1, -(-len(actions) // SELECT_OPTIONS))
    page = min(max(page, 0), pages - 1)
    chunk = actions[page * SELECT_OPTIONS : (page + 1) * SELECT_OPTIONS]
    items: list[Item] = [
        Select(
            custom_id=ids.select_id(game.id, version, page),
            placeholder=_("Choose… ({page}/{pages})", page=page + 1, pages=pages)
            if pages > 1
            else _("Choose…"),
            options=[
                discord.SelectOption(label=label_of(game, seat, action, say)[:100], value=action.encode())
                for action in chunk
            ],
            row=first_row,
        )
    ]
    if pages > 1:
        items.append(
            Button(
                label=_("◀ Previous"),
                custom_id=ids.page_id(game.id, version, page - 1),
                disabled=page == 0,
                row=first_row + 1,
            )
        )
        items.append(
            Button(
                label=_("Next ▶"),
                custom_id=ids.page_id(game.id, version, page + 1),
                disabled=page >= pages - 1,
                row=first_row + 1,
            )
        )
    return items
