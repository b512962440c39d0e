"""The distance of 14 tiles to a win, per way to win and the best (see `okey_rules.analysis`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from okey_rules.analysis.meld_search import HAND_SLOTS, MeldPlan, best_split
from okey_rules.analysis.other_kinds import kafa_kept, pairs_kept
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import packed_hand
from okey_rules.search.packed import FIELD, LOW
from okey_rules.tiles import Tile, check_tile_multiset, format_tile, indicator_for

CLASSIC = Ruleset()
# Every face exists twice: two in every packed field.
_TWO_EACH = 2 * LOW


class Distance(NamedTuple):
    """Fewest tiles to replace for a win: by melds, by seven pairs, by kafa, and the best.

    `kafa` is None when the rules do not play kafa.
    """

    melds: int
    pairs: int
    kafa: int | None
    best: int


class Reading(NamedTuple):
    """A hand as the searches take it."""

    naturals: int  # packed counts of the naturals, a false joker as the okey's face
    wilds: int
    okey_face: int
    indicator_face: int
    caps: int  # packed: copies of each face a hand can hold (the indicator's face: 1)


def read_hand(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset, sizes: tuple[int, ...]
) -> Reading:
    """The packed hand, refusing what `check_hand` refuses (docs/rules.md §1.1, §2.1, §2.4)."""
    if len(tiles) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise InvalidInputError("tiles", f"a hand has {wanted} tiles, not {len(tiles)}")
    if okey.is_false_joker:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    check_tile_multiset(tiles)
    indicator = indicator_for(okey)
    caps = table_caps(indicator.face, rules)
    held = sum(1 for tile in tiles if tile.face == indicator.face)
    if held > (caps >> (FIELD * indicator.face) & 7):
        shown = format_tile(indicator)
        raise InvalidInputError(
            "tiles",
            f"the hand holds both {shown} tiles, but one {shown} is the face-up indicator"
            f" (okey {format_tile(okey)})",
        )
    naturals, wilds = packed_hand([tile.face for tile in tiles], okey.face)
    return Reading(naturals, wilds, okey.face, indicator.face, caps)


def table_caps(indicator_face: int, rules: Ruleset) -> int:
    """Packed copies per face a hand can hold: two, but one of the indicator's face (§2.4)."""
    if rules.indicator_drawable_last:
        return _TWO_EACH
    return _TWO_EACH - (1 << (FIELD * indicator_face))


def distances(reading: Reading, rules: Ruleset) -> tuple[Distance, MeldPlan]:
    """Every distance of a read hand of 14 or 15 tiles (15: after the best discard)."""
    naturals, wilds = reading.naturals, reading.wilds
    plan = best_split(naturals, rules.runs_13_to_1, reading.caps)
    melds = HAND_SLOTS - min(HAND_SLOTS, plan.matched + wilds)
    pairs = HAND_SLOTS - pairs_kept(naturals, wilds, rules.wild_pairs)
    kafa = HAND_SLOTS - kafa_kept(naturals, wilds) if rules.kafa else None
    best = min(melds, pairs) if kafa is None else min(melds, pairs, kafa)
    return Distance(melds, pairs, kafa, best), plan


def distance(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> Distance:
    """How many of these 14 tiles must be replaced, at fewest, for the hand to win.

    Replacements are tiles that could exist beside the rest (two copies of a
    face, one of the indicator's, two false jokers, two okeys); 0 exactly when
    `check_hand` says the hand wins.
    """
    return distances(read_hand(tiles, okey, rules, (HAND_SLOTS,)), rules)[0]

