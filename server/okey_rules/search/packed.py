"""Bit-packed tile counts: a hand as one int, three bits per face (faces 0..51).

Field ``f`` (bits ``3f .. 3f+2``) holds how many naturals play as face ``f``
(0-2; a false joker plays as the okey's face), so bit 2 of every field stays
clear in a valid hand; bit 0 of a field read as ``(counts | counts >> 1) & LOW`` says
whether the face is held at all. Engine code calls such an int
`naturals` when it holds a hand's naturals (wilds counted apart).
"""

from __future__ import annotations

from okey_rules.tiles import NUMBERS

FIELD = 3
FACES52 = 52
ONE = tuple(1 << (FIELD * f) for f in range(FACES52))
LOW = sum(ONE)  # bit 0 of every field
COLOUR_MASK = tuple(
    sum((7 << (FIELD * (c * NUMBERS + i))) for i in range(NUMBERS)) for c in range(4)
)


def _index_mask(indices: set[int]) -> int:
    """Bit 0 of the fields whose number index (0..12) is in `indices`, every colour."""
    return sum(ONE[c * NUMBERS + i] for c in range(4) for i in indices)


DOWN2 = _index_mask(set(range(0, 11)))
AT0 = _index_mask({0})


# Times a flag at a colour's 1: the flag at its 1, 12 and 13. The three land
# in different fields, so the product has no carries.
_AT_1_12_13 = 1 | 1 << 33 | 1 << 36


def singles(naturals: int) -> int:
    """How many faces are held exactly once."""
    return (naturals & ~(naturals >> 1) & LOW).bit_count()


def needy_faces(naturals: int, runs_13_to_1: bool) -> int:
    """The held faces that no set or run of three held faces holds (flags at bit 0).

    By presence only, so this is a necessary test: in any split a needy face
    sits in a meld with a wild.
    """
    held = (naturals | naturals >> 1) & LOW
    # Runs of three held faces, flagged at their first face (a run cannot
    # start at 12 or 13), then at all three.
    starts = held & held >> 3 & held >> 6 & DOWN2
    runs = starts | starts << 3 | starts << 6
    if runs_13_to_1:
        # 12-13-1 is a run of each of its tiles when all three are held:
        # flagged at the 1 (field 0 of a colour), then copied to the 12 and 13.
        triple = held & held >> 33 & held >> 36 & AT0
        runs |= triple * _AT_1_12_13
    # The same number in the other colours: the colour blocks rotated (the
    # presence written twice over, so each rotation is one shift). What the
    # shifts leave above the 52 fields is cleared by the final `held &`.
    twice = held | held << 156
    # The other colours' presence, lined up with each colour: one, two and
    # three colours on. A face held in two of them has a wildless set.
    next_colour = twice >> 39
    second_colour = twice >> 78
    third_colour = twice >> 117
    sets = (next_colour & (second_colour | third_colour)) | (second_colour & third_colour)
    return held & ~(runs | sets)


def lonely_among(naturals: int, needy: int, runs_13_to_1: bool) -> int:
    """The flagged `needy` faces of the hand `naturals` that have no partner in it.

    Only needy faces can be lonely, and the tests that ask have few of them,
    so each is looked at on its own.
    """
    partners = _PARTNERS[runs_13_to_1]
    lonely = 0
    rest = needy
    while rest:
        low = rest & -rest
        rest ^= low
        if not naturals & partners[low.bit_length()]:
            lonely |= low
    return lonely


def _are_partners(face: int, other: int, runs_13_to_1: bool) -> bool:
    """Partners: the same number in another colour, or the same colour within
    two numbers (12-13-1 counted with `runs_13_to_1`, so a 1 neighbours 12 and 13)."""
    colour, number = divmod(face, NUMBERS)
    other_colour, other_number = divmod(other, NUMBERS)
    if colour != other_colour:
        return number == other_number
    gap = abs(number - other_number)
    if 0 < gap <= 2:
        return True
    return runs_13_to_1 and 0 in (number, other_number) and NUMBERS - gap <= 2


def _partner_table(runs_13_to_1: bool) -> tuple[int, ...]:
    """Per face, indexed by the bit length of its field's bit 0: every count
    bit (the whole field) of each of its partners, so ``naturals & entry`` is
    nonzero exactly when the hand holds one."""
    table = [0] * (FIELD * FACES52 + 1)
    for face in range(FACES52):
        table[FIELD * face + 1] = sum(
            7 << (FIELD * other)
            for other in range(FACES52)
            if _are_partners(face, other, runs_13_to_1)
        )
    return tuple(table)


_PARTNERS = (_partner_table(False), _partner_table(True))


def colours_in(bits: int) -> int:
    """How many colours hold at least one of the flagged fields."""
    return (bits & _RED != 0) + (bits & _YELLOW != 0) + (bits & _BLUE != 0) + (bits & _BLACK != 0)


_RED, _YELLOW, _BLUE, _BLACK = COLOUR_MASK


_FIRST_COLOUR = COLOUR_MASK[0] & LOW


def numbers_of(bits: int) -> int:
    """The flagged fields folded onto the first colour: bit 0 of field i for each number index i."""
    return (bits | bits >> 39 | bits >> 78 | bits >> 117) & _FIRST_COLOUR


def _ones_in(numbers: int, low: int, high: int) -> int:
    """How many of the folded number indices low..high are flagged."""
    return (numbers >> (3 * low) & ((1 << (3 * (high - low + 1))) - 1)).bit_count()


def one_wild_run_fits(needy: int, present: int, runs_13_to_1: bool) -> bool:
    """Could one run with a single wild hold every flagged number (folded, one colour)?

    The run covers the flagged numbers' span, at most five positions (a tile
    three places from the wild has a wildless run of its own), and every
    position in it but one (the wild's) must be held: `present` holds the
    colour's held numbers, folded. With `runs_13_to_1`, a flagged 1 may be the high 1.
    """
    low = ((needy & -needy).bit_length() - 1) // 3
    high = (needy.bit_length() - 1) // 3
    if high - low < 5 and (high - low + 1) - _ones_in(present, low, high) <= 1:
        return True
    if runs_13_to_1 and low == 0:
        rest = needy & ~1  # the 1 read as the high 1: positions from the next number to 14
        start = ((rest & -rest).bit_length() - 1) // 3 if rest else 13
        held = _ones_in(present, start, 12) + (present & 1) if start <= 12 else present & 1
        return 14 - start <= 5 and (14 - start) - held <= 1
    return False
