"""Where melds can lie on an Okey 101 rack: the naturals that fit in some meld, and where.

The opening search (`okey_rules.search.opening`) decides the positions 1 to
13 (and the 1 played high after 13 where `runs_13_to_1` allows it) one at
a time. Most of a dealt rack can never be laid: a natural tile lies in a
meld only if it is in a set (its number held in three colours or more,
okeys filling up) or in a run (three consecutive positions of its colour,
okeys filling up). Such a tile can be left out of the search without
changing its answer, since no opening lays it; and a position where no
meld can lie need not be searched at all.

Positions are bits: position p is bit p - 1, the high 1 (position 14) bit
13. Every test here is necessary for a tile to be laid, not sufficient: the
search still decides what is laid.
"""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.tiles import NUMBERS

# Bits of the positions 1..13.
_LOW_POSITIONS = (1 << NUMBERS) - 1
_HIGH_BIT = NUMBERS  # the 1 played high after 13


def _run_positions(held: int, wilds: int, wrap: bool) -> int:
    """The held positions inside some three consecutive positions that okeys can fill.

    Every run holds three consecutive positions around each of its tiles, and
    `wilds` okeys can stand in for at most that many of the three.
    """
    starts = (1 << ((NUMBERS + 1 if wrap else NUMBERS) - 2)) - 1  # windows inside the line
    first, second, third = held, held >> 1, held >> 2
    if wilds == 0:
        windows = first & second & third
    elif wilds == 1:
        windows = (first & second) | (first & third) | (second & third)
    else:
        windows = first | second | third
    windows &= starts
    return (windows | windows << 1 | windows << 2) & held


def _set_numbers(held: Sequence[int], wilds: int) -> int:
    """The numbers (positions 1..13) held in enough colours for a set once okeys fill up."""
    needed = 3 - wilds
    if needed <= 1:
        return (held[0] | held[1] | held[2] | held[3]) & _LOW_POSITIONS
    # Numbers held in at least two, and at least three, of the four colours.
    one = two = three = 0
    for mask in held:
        three |= two & mask
        two |= one & mask
        one |= mask
    return (two if needed == 2 else three) & _LOW_POSITIONS


def meld_positions(held: Sequence[int], wilds: int, wrap: bool) -> tuple[int, ...]:
    """Per colour, the positions whose naturals could lie in some meld (bit p - 1 for position p).

    `held`: per colour, the numbers of its naturals (bit n - 1 for n);
    `wilds`: okeys. Where 12-13-1 is a run, a 1 may also lie high (bit 13).
    """
    if wrap:
        held = [mask | (mask & 1) << _HIGH_BIT for mask in held]
    in_sets = _set_numbers(held, wilds)
    return tuple(_run_positions(mask, wilds, wrap) | (mask & in_sets) for mask in held)


def okey_positions(meld_masks: Sequence[int], wilds: int, wrap: bool) -> int:
    """The positions where a meld could lay a tile: the naturals' and, for okeys, those near them.

    An okey in a set stands beside naturals of its number. In a run, the
    okeys stand in blocks of at most `wilds` consecutive positions, and each
    block touches a natural of the run (a run holds at least one natural:
    three tiles, two okeys at most), so every okey stands within `wilds`
    positions of one of the run's naturals.
    """
    reach = meld_masks[0] | meld_masks[1] | meld_masks[2] | meld_masks[3]
    near = reach
    for distance in range(1, wilds + 1):
        near |= reach << distance | reach >> distance
    return near & ((1 << (NUMBERS + 1 if wrap else NUMBERS)) - 1)
