"""A deliberately naive referee for RULES.md §3, to test the fast engine against.

It knows nothing of the engine's tricks: it lists every possible set and run
as the faces it needs, and tries every meld holding the first remaining tile,
each other slot filled by a matching natural tile or by a wild, in every way.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

NUMBERS = 13
FALSE_JOKER = 52


def all_melds(wrap: bool) -> list[tuple[int, ...]]:
    """Every set and run, as sorted face tuples (faces 0..51)."""
    melds = []
    for number in range(NUMBERS):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                melds.append(tuple(sorted(c * NUMBERS + number for c in colours)))
    for colour in range(4):
        numbers = list(range(1, 14)) + ([1] if wrap else [])  # 1..13 then a high 1
        for start in range(len(numbers)):
            for end in range(start + 2, len(numbers)):
                window = numbers[start : end + 1]
                if start == 0 and end == 13:
                    continue  # 1 low and high in one run
                melds.append(tuple(sorted(colour * NUMBERS + n - 1 for n in window)))
    return sorted(set(melds))


def play_faces(faces: list[int], okey_face: int) -> tuple[tuple[int, ...], int]:
    """Sorted faces the naturals play as (a false joker as the okey), and the wild count."""
    naturals = []
    wilds = 0
    for face in faces:
        if face == okey_face:
            wilds += 1
        elif face == FALSE_JOKER:
            naturals.append(okey_face)
        else:
            naturals.append(face)
    return tuple(sorted(naturals)), wilds


@cache
def splits_into_melds(naturals: tuple[int, ...], wilds: int, wrap: bool) -> bool:
    if not naturals:
        return wilds == 0
    first = naturals[0]
    rest = list(naturals[1:])
    for meld in _melds_with(first, wrap):
        others = list(meld)
        others.remove(first)
        if _fill(others, rest, wilds, wrap):
            return True
    return False


@cache
def _melds_with(face: int, wrap: bool) -> list[tuple[int, ...]]:
    return [m for m in all_melds(wrap) if face in m]


def _fill(slots: list[int], rest: list[int], wilds: int, wrap: bool) -> bool:
    """Fill each slot with a natural of that face or a wild, every way; then recurse."""
    if not slots:
        return splits_into_melds(tuple(sorted(rest)), wilds, wrap)
    slot, more = slots[0], slots[1:]
    if slot in rest:
        remaining = list(rest)
        remaining.remove(slot)
        if _fill(more, remaining, wilds, wrap):
            return True
    return wilds > 0 and _fill(more, rest, wilds - 1, wrap)


def seven_pairs(naturals: tuple[int, ...], wilds: int, wild_pairs: bool) -> bool:
    """Seven pairs of identical faces, each face in one pair at most.

    A wild pairs with a lone natural, or (with `wild_pairs`) with the other wild.
    """
    counts: dict[int, int] = {}
    for face in naturals:
        counts[face] = counts.get(face, 0) + 1
    singles = sum(1 for c in counts.values() if c == 1)
    if any(c > 2 for c in counts.values()) or singles > wilds:
        return False
    spare = wilds - singles
    return spare == 0 or (spare == 2 and wild_pairs)


def wins(faces: list[int], okey_face: int, wrap: bool = True, wild_pairs: bool = True) -> bool:
    naturals, wilds = play_faces(faces, okey_face)
    return seven_pairs(naturals, wilds, wild_pairs) or splits_into_melds(naturals, wilds, wrap)
