"""Playing games in Discord: lobbies, tables, private panels and the commands around them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.play._admin import AdminCog
from cogs.play._cog import PlayCog

if TYPE_CHECKING:
    from bot.app import CatnipBot


async def setup(bot: CatnipBot) -> None:
    await bot.add_cog(PlayCog(bot))
    await bot.add_cog(AdminCog(bot))
