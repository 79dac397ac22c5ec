"""Catnip's bot: start-up, configuration, storage and the game sessions."""

from bot.app import CatnipBot, create_bot

__all__ = ["CatnipBot", "create_bot"]
