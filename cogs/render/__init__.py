"""Renderers: a game's views → Discord embeds and components."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from cogs.render.base import Renderer


@cache
def renderer_for(game: str) -> Renderer:
    """The game's own renderer (`cogs/render/<game>.py` exposing RENDERER), else the generic one."""
    try:
        module = import_module(f"cogs.render.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"cogs.render.{game}":
            raise
        return Renderer()
    return module.RENDERER


__all__ = ["Renderer", "renderer_for"]
