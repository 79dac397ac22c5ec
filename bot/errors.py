"""Refusals: requests the bot turns down with one short sentence, shown only to the person who asked."""

from __future__ import annotations

from lang import N_, _

_ENDED = {
    "finished": N_("That game is finished — start a new one with /play."),
    "cancelled": N_("That game was cancelled — start a new one with /play."),
    "abandoned": N_("That game was ended — start a new one with /play."),
}


class Refusal(Exception):
    """A request refused for a reason the user can act on; `str(error)` is that reason."""


class NotInGame(Refusal):
    """The user has no seat in this game."""


class NotHost(Refusal):
    """Only the host (or someone with Manage Server) may do this."""


class TableMovedOn(Refusal):
    """The click was made on an out-of-date table or panel."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or _("The table has moved on — here is the current position."))


class GameClosed(Refusal):
    """The game is finished, cancelled or unknown."""


class BadRequest(Refusal):
    """A malformed or forged component id."""


class NotOwned(Refusal):
    """The game's guild is run by another Catnip process (its shard is not this one's), as during a
    handover; nothing is applied here."""

    def __init__(self) -> None:
        super().__init__(_("Catnip is moving this server's games just now — try again in a moment."))


BUSY = N_("Catnip is very busy just now — try again in a moment.")


class Busy(Refusal):
    """The bot is behind its clicks (`bot.overload.ClicksInFlight`): this one is turned away at once,
    unplayed, so that it and the next are answered within Discord's 3 s."""

    def __init__(self) -> None:
        super().__init__(_(BUSY))


class RunElsewhere(Refusal):
    """Another Catnip process holds the game's lease now (the game moved to it, as in a fleet's
    handover): nothing was applied here, and this process has let the game go."""


def game_ended(status: str) -> str:
    """Why a click on a game that is over (`status`: finished, cancelled, abandoned) does nothing."""
    return _(_ENDED.get(status, _ENDED["abandoned"]))
