"""A game's guide for players: a few short pages, shown by "📖 How to play" and by /rules.

Each game writes its pages in `engine/<game>/guide.py` (`PAGES`). A page is plain Markdown a phone
shows without scrolling far: a title and at most `PAGE_LIMIT` characters. Guides name no ruling ids.
"""

from __future__ import annotations

from dataclasses import dataclass

PAGE_LIMIT = 1500
"""The longest page text: well inside an embed's 4096, and a screen or two on a phone."""


@dataclass(frozen=True)
class GuidePage:
    title: str
    text: str
