"""Seven pairs and kafa on packed hands: the winning hands that are not sets and runs.

The rules are stated in `okey_rules.rulebook` (docs/rules.md §4.2, §4.3);
these are their fast forms on packed counts, held to the rulebook by tests.
"""

from __future__ import annotations

from okey_rules.search.melds import one_colour
from okey_rules.search.packed import LOW, ONE, singles
from okey_rules.tiles import NUMBERS


def seven_pairs_packed(naturals: int, wilds: int, wild_pairs: bool) -> bool:
    """Exactly seven pairs of identical tiles from 14 (docs/rules.md §4.2).

    Each natural tile without its twin needs one wild. The two wilds left
    over, if any, can only pair with each other (option `wild_pairs`): a wild
    may not double a face another pair already shows, or the option would
    mean nothing (X X W W would always pass as X+W, X+W).
    """
    alone = singles(naturals)
    if alone > wilds:
        return False
    spare = wilds - alone
    return spare == 0 or (spare == 2 and wild_pairs)


def kafa_colour(naturals: int) -> int | None:
    """The colour of a kafa hand (one colour 1..13 plus a second 1, §4.3), or None.

    Only the naturals are tested; wilds stand in for whatever is missing
    (the hand has 14 tiles, so the missing count always equals the wilds).
    Two copies are allowed of the 1 only.
    """
    colour = one_colour(naturals)
    if colour is None:
        return None
    doubles = naturals >> 1 & LOW
    allowed = ONE[colour * NUMBERS]
    return colour if not doubles & ~allowed else None
