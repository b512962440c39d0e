"""okey_rules: the pure rules engine of okey-rules (no gRPC, no I/O)."""

from okey_rules.errors import InvalidInputError, NotationError, OkeyError
from okey_rules.ruleset import PRESETS, Game, Ruleset, preset
from okey_rules.search.hand import check_hand
from okey_rules.tiles import (
    Color,
    Tile,
    format_tile,
    format_tiles,
    indicator_for,
    okey_for,
    parse_tile,
    parse_tiles,
)

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Color",
    "Game",
    "InvalidInputError",
    "NotationError",
    "OkeyError",
    "Ruleset",
    "Tile",
    "__version__",
    "check_hand",
    "format_tile",
    "format_tiles",
    "indicator_for",
    "okey_for",
    "parse_tile",
    "parse_tiles",
    "preset",
]
