"""Catnip's own buttons and selects send exactly what discord.ui would, within Discord's spec."""

from __future__ import annotations

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.components import Button, Controls, Select
from emulator.schema import discord_schemas

SEND = ("POST", "/channels/{channel_id}/messages")
STYLES = [discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.success]
rows = st.none() | st.integers(0, 4)

buttons = st.builds(
    Button,
    label=st.text("abc ", min_size=1, max_size=8),
    custom_id=st.text("xyz:", min_size=1, max_size=8),
    style=st.sampled_from(STYLES),
    emoji=st.sampled_from([None, "🃏", "🐱"]),
    disabled=st.booleans(),
    row=rows,
)
options = st.builds(
    discord.SelectOption,
    label=st.text("abc", min_size=1, max_size=5),
    value=st.text("123", min_size=1, max_size=3),
    description=st.none() | st.just("about it"),
    emoji=st.sampled_from([None, "✅"]),
    default=st.booleans(),
)
selects = st.builds(
    Select,
    custom_id=st.text("xyz:", min_size=1, max_size=8),
    options=st.lists(options, min_size=1, max_size=3),
    placeholder=st.none() | st.just("Choose…"),
    min_values=st.integers(0, 1),
    max_values=st.just(1),
    disabled=st.booleans(),
    row=rows,
)


def as_discord_ui(items: list[Button | Select]) -> list[dict]:
    """What discord.ui sends for the same items."""
    view = discord.ui.View(timeout=None)
    for item in items:
        if isinstance(item, Button):
            view.add_item(
                discord.ui.Button(
                    label=item.label, custom_id=item.custom_id, style=item.style, emoji=item.emoji,
                    disabled=item.disabled, row=item.row,
                )
            )  # fmt: skip
        else:
            view.add_item(
                discord.ui.Select(
                    custom_id=item.custom_id, options=list(item.options), placeholder=item.placeholder,
                    min_values=item.min_values, max_values=item.max_values, disabled=item.disabled,
                    row=item.row,
                )
            )  # fmt: skip
    return view.to_components()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(buttons | selects, max_size=12))
async def test_controls_lay_out_and_send_what_discord_ui_would_or_refuse_what_it_refuses(items) -> None:
    try:
        expected = as_discord_ui(items)
    except ValueError as refused:
        with pytest.raises(ValueError, match=str(refused).split(" (")[0]):
            Controls(items)
        return
    controls = Controls(items)
    assert controls.to_components() == expected
    assert controls.children == items
    assert discord_schemas().problems(*SEND, {"content": "x", "components": expected}) == []


def test_a_message_without_controls_sends_no_rows() -> None:
    assert Controls().to_components() == []
