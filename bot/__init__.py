"""Catnip's bot: start-up, configuration, storage and the game sessions.

`CatnipBot` and `create_bot` (bot/app.py) are imported from here when first asked for, not with the
package: `python -m bot` imports this package before it knows its command, and `catnip fleet`,
`catnip backup-db`, `catnip migrate-db` and a start refused for its settings or its database need
none of the bot (discord.py, the games, the cogs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import CatnipBot, create_bot

__all__ = ["CatnipBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from bot import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
