"""Bit-packed tile counts: a hand as one int, three bits per face (faces 0..51).

Field ``f`` (bits ``3f .. 3f+2``) holds how many naturals play as face ``f``
(0-2; a false joker plays as the okey's face). Bit 2 of every field is kept
free as a guard: ``fits(x, m)`` subtracts a meld from the guarded hand and
checks that no field borrowed, in two big-int operations.
"""

from __future__ import annotations

from okey_rules.tiles import NUMBERS

FIELD = 3
FACES52 = 52
ONE = tuple(1 << (FIELD * f) for f in range(FACES52))
LOW = sum(ONE)  # bit 0 of every field
GUARD = LOW << 2  # bit 2 of every field
COLOUR_MASK = tuple(
    sum((7 << (FIELD * (c * NUMBERS + i))) for i in range(NUMBERS)) for c in range(4)
)


def _index_mask(indices: set[int]) -> int:
    """Bit 0 of the fields whose number index (0..12) is in `indices`, every colour."""
    return sum(ONE[c * NUMBERS + i] for c in range(4) for i in indices)


UP1 = _index_mask(set(range(1, 13)))
UP2 = _index_mask(set(range(2, 13)))
DOWN1 = _index_mask(set(range(0, 12)))
DOWN2 = _index_mask(set(range(0, 11)))
AT0 = _index_mask({0})
AT11 = _index_mask({11})
AT12 = _index_mask({12})


def pack(faces: list[int]) -> int:
    """The packed counts of faces 0..51 (callers map false jokers and drop wilds first)."""
    x = 0
    for face in faces:
        x += ONE[face]
    return x


def count_at(x: int, face: int) -> int:
    return x >> (FIELD * face) & 7


def fits(x: int, meld: int) -> bool:
    """True when every face of `meld` (fields of 0/1) is held in `x`."""
    return ((x | GUARD) - meld) & GUARD == GUARD


def presence(x: int) -> int:
    """Bit 0 of each field set where the face is held at least once."""
    return (x | x >> 1) & LOW


def singles(x: int) -> int:
    """How many faces are held exactly once."""
    return (x & ~(x >> 1) & LOW).bit_count()


def lonely(x: int, wrap: bool) -> int:
    """Bit 0 set on each held face with no possible meld partner.

    A partner is a tile of the same colour within two numbers (with `wrap`,
    1 also neighbours 12 and 13: 12-13-1) or the same number in another colour.
    """
    p = presence(x)
    near = (p << 3 & UP1) | (p << 6 & UP2) | (p >> 3 & DOWN1) | (p >> 6 & DOWN2)
    if wrap:
        near |= (p >> 33 | p >> 36) & AT0 | (p << 33 & AT11) | (p << 36 & AT12)
    others = (p << 39 | p << 78 | p << 117 | p >> 39 | p >> 78 | p >> 117) & LOW
    return p & ~near & ~others


def colours_in(bits: int) -> int:
    """How many colours hold at least one of the flagged fields."""
    return sum(1 for mask in COLOUR_MASK if bits & mask)
