"""How close a hand comes to seven pairs (docs/rules.md §4.2) and to kafa (§4.3).

Both have a closed form: the best target keeps every pair it can, then every
lone tile it can, and every wild. A hand of 15 tiles is judged as its best
14 (the 15th is the discard), which the same count gives: at most 14 tiles
are kept.
"""

from __future__ import annotations

from okey_rules.rulebook import HAND_SIZE
from okey_rules.search.packed import COLOUR_MASK, FIELD, LOW
from okey_rules.tiles import NUMBERS

PAIRS = 7


def pairs_kept(naturals: int, wilds: int, wild_pairs: bool) -> int:
    """The most tiles a seven-pairs hand can keep of these naturals (packed) and wilds.

    Seven pairs of seven different faces: every face held twice is a pair
    (seven at most), then faces held once (a lone tile, to be paired by a
    new tile or a wild). Pairs with no natural left are new. A wild pairs
    with a lone tile, or with a new tile, or (option `wild_pairs`) with the
    other wild. Keeping fewer pairs never helps: a pair given up keeps one
    tile less and makes room for one wild more at best.
    """
    doubles = (naturals >> 1 & LOW).bit_count()
    held = ((naturals | naturals >> 1) & LOW).bit_count()
    pairs = min(doubles, PAIRS)
    # Faces held twice beyond the seventh pair may still give one tile each.
    lone = min(held - pairs, PAIRS - pairs)
    empty = PAIRS - pairs - lone
    room = lone + empty * (2 if wild_pairs else 1)
    return 2 * pairs + lone + min(wilds, room)


def kafa_kept(naturals: int, wilds: int) -> int:
    """The most tiles a kafa hand (one colour 1..13 and a second 1) can keep.

    Per colour: each of its faces held once counts once, its 1 up to twice;
    every wild stands for a missing tile. The best colour counts.
    """
    held = (naturals | naturals >> 1) & LOW
    doubles = naturals >> 1 & LOW
    best = 0
    for colour, mask in enumerate(COLOUR_MASK):
        kept = (held & mask).bit_count() + (doubles >> (FIELD * colour * NUMBERS) & 1)
        best = max(best, kept)
    return min(HAND_SIZE, best + wilds)

