"""`Presenter`: what the bot needs of whatever shows its games to people (the play cog's tables)."""

from __future__ import annotations

from typing import Protocol

from bot.live import GameListener, LiveGame


class Presenter(GameListener, Protocol):
    """Shows each game as it changes (a `GameListener` told after the timers), warns of a running-out
    timer, and says when everything it was asked to show is shown."""

    def refresh(self, game: LiveGame) -> None:
        """Show `game` again soon, as it stands then (its table may be out of date)."""

    async def timer_warning(self, game: LiveGame, seats: list[int], seconds_left: int) -> None:
        """Warn the members of `seats` that they have `seconds_left` to decide."""

    async def note_pings(self) -> None:
        """Note the turn pings standing, so the next process to run their games deletes them."""

    async def settle(self) -> None:
        """Return once every table update under way or waiting is done."""

    def deleted(self, message_id: int) -> bool:
        """Whether the message is one it deleted or is deleting (a table posted again further down)."""

    def busy(self) -> bool:
        """Whether a table update, a picture or a message deletion is waiting or under way."""
