"""Tiles typed as command-line words, as the notation a request carries (the server parses
and validates it)."""

from __future__ import annotations

import re


def notation(words: list[str]) -> str:
    """All the words as one notation string."""
    return " ".join(" ".join(words).split())


def tile_count(text: str) -> int:
    """How many tiles a notation string names."""
    return len([w for w in re.split(r"[\s,]+", text) if w])
