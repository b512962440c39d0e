"""Seven pairs and kafa: the two winning hands that are not sets and runs (RULES.md §3)."""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.tiles import NUMBERS

PAIRS = 7


def is_seven_pairs(counts: Sequence[int], wilds: int, wild_pairs: bool) -> bool:
    """Exactly seven pairs of identical tiles from 14 (seeds 000, 003).

    Each natural tile without its twin needs one wild. The two wilds left
    over, if any, can only pair with each other (option `wild_pairs`): a wild
    may not double a face another pair already shows, or the option would
    mean nothing (X X W W would always pass as X+W, X+W).
    """
    singles = 0
    for count in counts:
        if count == 1:
            singles += 1
    if singles > wilds:
        return False
    spare = wilds - singles
    return spare == 0 or (spare == 2 and wild_pairs)


def pair_faces(counts: Sequence[int], wilds: int) -> tuple[list[int], list[int], int]:
    """(faces paired naturally, faces paired with a wild, faces 0..51) of a seven-pairs hand."""
    doubles = [face for face, count in enumerate(counts) if count == 2]
    singles = [face for face, count in enumerate(counts) if count == 1]
    return doubles, singles, wilds - len(singles)


def kafa_colour(keys: Sequence[int], counts: Sequence[int]) -> int | None:
    """The colour of a kafa hand (one colour 1..13 plus a second 1, seed 003), or None.

    Only the naturals are tested; wilds stand in for whatever is missing
    (the hand has 14 tiles, so the missing count always equals the wilds).
    """
    held = [colour for colour in range(4) if keys[colour]]
    if len(held) != 1:
        return None
    colour = held[0]
    base = colour * NUMBERS
    if counts[base] > 2 or any(counts[base + i] > 1 for i in range(1, NUMBERS)):
        return None
    return colour
