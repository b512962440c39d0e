"""Seven pairs and kafa: the two winning hands that are not sets and runs (RULES.md §3)."""

from __future__ import annotations

from okey_rules.melds import one_colour
from okey_rules.packed import LOW, ONE, singles
from okey_rules.tiles import NUMBERS


def is_seven_pairs(x: int, wilds: int, wild_pairs: bool) -> bool:
    """Exactly seven pairs of identical tiles from 14 (seeds 000, 003).

    Each natural tile without its twin needs one wild. The two wilds left
    over, if any, can only pair with each other (option `wild_pairs`): a wild
    may not double a face another pair already shows, or the option would
    mean nothing (X X W W would always pass as X+W, X+W).
    """
    alone = singles(x)
    if alone > wilds:
        return False
    spare = wilds - alone
    return spare == 0 or (spare == 2 and wild_pairs)


def kafa_colour(x: int) -> int | None:
    """The colour of a kafa hand (one colour 1..13 plus a second 1, seed 003), or None.

    Only the naturals are tested; wilds stand in for whatever is missing
    (the hand has 14 tiles, so the missing count always equals the wilds).
    Two copies are allowed of the 1 only.
    """
    colour = one_colour(x)
    if colour is None:
        return None
    doubles = x >> 1 & LOW
    allowed = ONE[colour * NUMBERS]
    return colour if not doubles & ~allowed else None
