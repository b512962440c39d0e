"""Hand checking for classic Okey (RULES.md §3): the public entry points."""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.errors import InvalidInputError
from okey_rules.hand_types import DiscardVerdict, HandVerdict
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import Tile, check_tile_multiset

HAND_SIZE = 14
CLASSIC = Ruleset()


def _validate(tiles: Sequence[Tile], okey: Tile, sizes: tuple[int, ...]) -> None:
    if len(tiles) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise InvalidInputError("tiles", f"a hand has {wanted} tiles, not {len(tiles)}")
    if okey.is_false_joker:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    check_tile_multiset(tiles)


def check_hand(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> HandVerdict:
    """Is this 14-tile hand winning under `rules`, with `okey` wild? How?"""
    _validate(tiles, okey, (HAND_SIZE,))
    raise NotImplementedError


def winning_discards(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> DiscardVerdict:
    """Which discards from these 15 tiles leave a winning 14?"""
    _validate(tiles, okey, (HAND_SIZE + 1,))
    raise NotImplementedError
