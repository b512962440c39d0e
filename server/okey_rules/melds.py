"""Sets and runs across colours: can natural counts plus wilds split wholly into melds?

RULES.md §3. Sets bind colours together at one number; everything else is a
run inside one colour (`okey_rules.runs`). So the search enumerates only the
sets — at numbers where two or more colours meet — and asks the cached
per-colour run tables about what is left. A set of one natural tile and two
wilds is never needed: the same three tiles always form a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from okey_rules.shape import Shape
from okey_rules.runs import MAX_WILDS, Run, colour_runs, masks_table, wild_mask
from okey_rules.tiles import NUMBERS

COLOURS = 4
POW3 = tuple(3**i for i in range(NUMBERS))

# A set: (number 1-13, colours holding natural tiles, wilds filling other colours).
SetSpec = tuple[int, tuple[int, ...], int]


def _combine(left: int, right: int) -> int:
    """Wild counts reachable by adding one count from each mask (capped at MAX_WILDS)."""
    out = 0
    for a in range(MAX_WILDS + 1):
        if left >> a & 1:
            for b in range(MAX_WILDS + 1 - a):
                if right >> b & 1:
                    out |= 1 << (a + b)
    return out


_SUM = tuple(tuple(_combine(x, y) for y in range(8)) for x in range(8))


@dataclass(frozen=True, slots=True)
class MeldSplit:
    """A winning split: the sets, and per colour the runs (positions 1..14)."""

    sets: tuple[SetSpec, ...]
    runs: tuple[tuple[Run, ...], ...]


@cache
def _set_options(pattern: tuple[int, int, int, int]) -> tuple[tuple[tuple[int, ...], int, tuple[SetSpec, ...]], ...]:
    """Every way to take zero, one or two sets from the colours present at one number.

    `pattern` is how many copies of this number each colour holds. Returns
    (tiles taken per colour, wilds used, the sets with number 0 as a
    placeholder), the empty choice first; duplicates by effect are dropped.
    """
    present = [c for c in range(COLOURS) if pattern[c]]
    singles: list[tuple[tuple[int, ...], int]] = []
    for size in range(2, len(present) + 1):
        for chosen in combinations(present, size):
            for wilds in range(max(0, 3 - size), min(MAX_WILDS, COLOURS - size) + 1):
                singles.append((chosen, wilds))
    options: dict[tuple[tuple[int, ...], int], tuple[SetSpec, ...]] = {((0, 0, 0, 0), 0): ()}
    for i, (first, w1) in enumerate(singles):
        taken = tuple(1 if c in first else 0 for c in range(COLOURS))
        options.setdefault((taken, w1), ((0, first, w1),))
        for second, w2 in singles[i:]:
            both = tuple(taken[c] + (1 if c in second else 0) for c in range(COLOURS))
            if w1 + w2 <= MAX_WILDS and all(both[c] <= pattern[c] for c in range(COLOURS)):
                options.setdefault((both, w1 + w2), ((0, first, w1), (0, second, w2)))
    return tuple((taken, wilds, sets) for (taken, wilds), sets in options.items())


_POPCOUNT4 = (0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4)


def can_split(shape: Shape, wrap: bool) -> bool:
    """True when the hand's naturals and wilds split wholly into sets and runs."""
    return _search(shape, wrap) is not None


def find_split(shape: Shape, wrap: bool) -> MeldSplit | None:
    """The first winning split in the fixed search order, or None."""
    found = _search(shape, wrap)
    if found is None:
        return None
    sets, keys, left = found
    return MeldSplit(sets, _runs_for(keys, left, wrap))


def may_split(shape: Shape, wrap: bool) -> bool:
    """Cheap necessary test on tiles with no possible meld partner ("lonely").

    A partner is a tile of the same colour within two numbers (12-13-1
    counts as adjacent when 1 may be high) or any tile of the same number in
    another colour. A lonely tile's meld holds at least two wilds, and there
    are only two, so every lonely tile must sit in that one meld: none may
    exist with fewer than two wilds, and they must all share a colour (a set
    holding two wilds has room for one natural only).
    """
    bits = shape.bits
    lonely_colours = 0
    for colour in range(COLOURS):
        mask = bits[colour]
        if not mask:
            continue
        near = (mask << 1 | mask << 2 | mask >> 1 | mask >> 2) & 0x1FFF
        if wrap:
            if mask & 0x1800:  # a 12 or 13 reaches a high 1
                near |= 1
            if mask & 1:
                near |= 0x1800
        others = 0
        for other in range(COLOURS):
            if other != colour:
                others |= bits[other]
        if mask & ~near & ~others:
            if shape.wilds < 2:
                return False
            lonely_colours += 1
    return lonely_colours <= 1


def _search(shape: Shape, wrap: bool) -> tuple[tuple[SetSpec, ...], list[int], int] | None:
    """Depth-first over the set choices, spot by spot in number order.

    Spots are the numbers where a set could form: two colours meet (with a
    wild to complete it) or three do. A colour's runs are judged as soon as
    its last spot is decided (its key cannot change after that), so a dead
    colour prunes the whole subtree.
    """
    counts = shape.counts
    wilds = shape.wilds
    need = 2 if wilds else 3
    spots = []
    last_spot = [-1, -1, -1, -1]
    for n, meet in enumerate(shape.meets):
        if _POPCOUNT4[meet] >= need:
            for colour in range(COLOURS):
                if meet >> colour & 1:
                    last_spot[colour] = len(spots)
            spots.append((n, (counts[n], counts[13 + n], counts[26 + n], counts[39 + n])))
    settled = [[c for c in range(COLOURS) if last_spot[c] == i] for i in range(len(spots))]
    keys = shape.keys
    table = masks_table(wrap)
    sums = _SUM
    base = 1  # wild counts reachable by the colours fixed from the start
    for colour in range(COLOURS):
        if last_spot[colour] < 0:
            mask = table.get(keys[colour])
            if mask is None:
                mask = wild_mask(keys[colour], wrap)
            base = sums[base][mask]
    if not base & ((2 << wilds) - 1):
        return None
    chosen: list[tuple[int, tuple[SetSpec, ...]]] = []
    options_for = _set_options
    last = len(spots)

    def walk(index: int, k: list[int], left: int, acc: int) -> list[int] | None:
        if index == last:
            return [*k, left] if acc >> left & 1 else None
        n, pattern = spots[index]
        step = POW3[n]
        done = settled[index]
        for taken, used, sets in options_for(pattern):
            if used > left:
                continue
            nk = [k[0] - taken[0] * step, k[1] - taken[1] * step,
                  k[2] - taken[2] * step, k[3] - taken[3] * step]
            now = left - used
            reach = acc
            for colour in done:
                mask = table.get(nk[colour])
                if mask is None:
                    mask = wild_mask(nk[colour], wrap)
                reach = sums[reach][mask]
            if not reach & ((2 << now) - 1):
                continue
            found = walk(index + 1, nk, now, reach)
            if found is not None:
                if sets:
                    chosen.append((n, sets))
                return found
        return None

    found = walk(0, keys, wilds, base)
    if found is None:
        return None
    *final_keys, left = found
    sets = tuple(
        (n + 1, colours, extra) for n, group in reversed(chosen) for _, colours, extra in group
    )
    return sets, final_keys, left


def _runs_for(keys: Sequence[int], wilds: int, wrap: bool) -> tuple[tuple[Run, ...], ...]:
    """Shares `wilds` among the colours (lowest colour first) and returns each colour's runs."""
    masks = [wild_mask(key, wrap) for key in keys]

    def share(colour: int, left: int) -> list[int] | None:
        if colour == COLOURS:
            return [] if left == 0 else None
        for k in range(min(left, MAX_WILDS) + 1):
            if masks[colour] >> k & 1:
                rest = share(colour + 1, left - k)
                if rest is not None:
                    return [k, *rest]
        return None

    shares = share(0, wilds)
    if shares is None:  # pragma: no cover - the masks said a share exists
        raise AssertionError("wild share vanished")
    runs = []
    for key, k in zip(keys, shares, strict=True):
        found = colour_runs(key, k, wrap)
        if found is None:  # pragma: no cover - the mask said it exists
            raise AssertionError("colour split vanished")
        runs.append(found)
    return tuple(runs)
