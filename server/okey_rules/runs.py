"""Runs within one colour: can a colour's tiles be split wholly into runs (RULES.md §3)?

A colour's tiles are a base-3 key: digit ``n - 1`` is how many copies of
number ``n`` the colour holds (0-2). Runs are solved on 14 positions: 1..13,
plus position 14 for a 1 played high after 13 (12-13-1). A run may not hold
positions 1 and 14 together: "1 is low or high, never both" (seeds 000, 003).
Without ``wrap`` (Okey 101, RULES.md §7) position 14 does not exist.

Results are cached per key: the same colour pattern recurs across hands, and
the cache is what makes the hand check cheap (the "precomputed meld tables").
"""

from __future__ import annotations

from okey_rules.tiles import NUMBERS

HIGH_ONE = 14  # the position of a 1 played after 13
MAX_WILDS = 2

# A run: (first position, last position, positions filled by wilds).
Run = tuple[int, int, tuple[int, ...]]

_CACHE_LIMIT = 400_000
_solutions: dict[tuple[int, int, bool], tuple[Run, ...] | None] = {}
_masks: tuple[dict[int, int], dict[int, int]] = ({}, {})


def decode(key: int) -> list[int]:
    """The counts of numbers 1..13 (index 0..12) held in a colour key."""
    counts = []
    for _ in range(NUMBERS):
        key, digit = divmod(key, 3)
        counts.append(digit)
    return counts


def masks_table(wrap: bool) -> dict[int, int]:
    """The live cache behind `wild_mask`, for hot loops that look up before calling."""
    return _masks[wrap]


def wild_mask(key: int, wrap: bool) -> int:
    """Bit k is set when the colour splits wholly into runs using exactly k wilds."""
    masks = _masks[wrap]
    mask = masks.get(key)
    if mask is None:
        mask = 0
        for wilds in range(MAX_WILDS + 1):
            if colour_runs(key, wilds, wrap) is not None:
                mask |= 1 << wilds
        if len(masks) > _CACHE_LIMIT:
            masks.clear()
        masks[key] = mask
    return mask


def colour_runs(key: int, wilds: int, wrap: bool) -> tuple[Run, ...] | None:
    """One split of the colour into runs with exactly `wilds` wilds, or None.

    Deterministic: the first split found in a fixed search order (fewest 1s
    played high first, then shortest runs first from the lowest tile).
    """
    cache_key = (key, wilds, wrap)
    if cache_key in _solutions:
        return _solutions[cache_key]
    counts = decode(key)
    result: tuple[Run, ...] | None = None
    ones = counts[0]
    for high in range(ones + 1) if wrap else (0,):
        positions = [0, *counts, 0]
        positions[1] -= high
        positions[HIGH_ONE] = high
        found = _solve(positions, wilds, wrap, {})
        if found is not None:
            result = tuple(found)
            break
    if len(_solutions) > _CACHE_LIMIT:
        _solutions.clear()
    _solutions[cache_key] = result
    return result


def _solve(a: list[int], wilds: int, wrap: bool, failed: dict[tuple[int, ...], int]) -> list[Run] | None:
    """Runs covering every tile counted in `a` (positions 1..14), using exactly `wilds` wilds.

    The run holding the lowest tile p is tried in every shape: up to two
    wilds below p, then growing upward. Above p a natural tile is always
    taken where one exists: if it were used in another run instead, the two
    runs could swap it for the wild, so nothing is lost.
    """
    lowest = 0
    for position in range(1, HIGH_ONE + 1):
        if a[position]:
            lowest = position
            break
    if not lowest:
        return [] if wilds == 0 else None
    state = (*a, wilds)
    if state in failed:
        return None
    top = HIGH_ONE if wrap else NUMBERS
    for below in range(min(wilds, MAX_WILDS) + 1):
        start = lowest - below
        if start < 1:
            break
        used_wilds = below
        wild_at = list(range(start, lowest))
        taken = [lowest]
        a[lowest] -= 1
        end = lowest
        found: list[Run] | None = None
        while True:
            if end - start >= 2:
                rest = _solve(a, wilds - used_wilds, wrap, failed)
                if rest is not None:
                    found = [(start, end, tuple(wild_at)), *rest]
                    break
            nxt = end + 1
            if nxt > top or (start == 1 and nxt == HIGH_ONE):
                break
            if a[nxt]:
                a[nxt] -= 1
                taken.append(nxt)
            else:
                used_wilds += 1
                if used_wilds > wilds:
                    break
                wild_at.append(nxt)
            end = nxt
        for position in taken:
            a[position] += 1
        if found is not None:
            return found
    failed[state] = 1
    return None
