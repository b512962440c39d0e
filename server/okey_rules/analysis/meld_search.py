"""How close a hand's naturals come to a win by sets and runs (docs/rules.md §3, §4.1).

A winning hand by melds is 14 slots cut into melds. Any such hand can be cut
into melds of 3 to 5 slots (a longer run is pieces of those lengths), so a
*template* here is a set of 3 or 4 colours or a run of 3 to 5 positions,
given by the faces of its slots. Aiming at a winning hand means choosing
templates whose sizes add up to 14 and keeping the hand's naturals that sit
in their slots (*matched* naturals); every other slot is *missing*: a wild
of the hand, or a new tile. Templates holding no matched natural are *free*:
any 3 or more slots left over are filled that way with tiles the hand does
not hold, so only the matched templates are searched.

The search takes the lowest natural left: either no template keeps it (it,
and its twin if held twice, will be replaced), or it is the lowest matched
natural of one template, with any subset of that template's other faces
still held matched beside it. Remainders recur, so answers are kept per
(remainder, slots left); each answer is the most naturals that can be
matched and the union of the missing faces over every choice that reaches
that most (the faces a drawn tile could fill, see `okey_rules.analysis`).

A face can exist twice only (once for the indicator's face, which lies on the
table), so a face that the chosen templates ask for more often than that
must be served by wilds, and a hand holds two wilds at most. The search above
counts no such limit; `best_split` checks it on the split it found, and
when that split asks too much (this needs three slots beyond the copies that
exist) the value is searched again with the limit counted, by `exact_best`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations
from typing import NamedTuple

from okey_rules.bounded_cache import BoundedCache
from okey_rules.rulebook import HAND_SIZE, HIGH_ONE
from okey_rules.search.meld_table import MAX_WILDS
from okey_rules.search.packed import FACES52, FIELD, LOW, ONE
from okey_rules.tiles import NUMBERS

HAND_SLOTS = HAND_SIZE
# Missing faces as a plain bit mask, bit f for face f.
ALL_FACES = (1 << FACES52) - 1
# A memo key holds the remainder's packed counts below this bit and the slots left above.
SLOTS_AT = FIELD * FACES52
_NATURALS = (1 << SLOTS_AT) - 1
_IMPOSSIBLE = -99


@cache
def templates(runs_13_to_1: bool) -> tuple[tuple[int, ...], ...]:
    """Every set (3 or 4 colours) and run (3 to 5 positions) as the faces of its slots."""
    found: list[tuple[int, ...]] = []
    for number in range(NUMBERS):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                found.append(tuple(c * NUMBERS + number for c in colours))
    top = HIGH_ONE if runs_13_to_1 else NUMBERS
    for colour in range(4):
        for length in (3, 4, 5):
            for start in range(1, top - length + 2):
                found.append(
                    tuple(
                        colour * NUMBERS + (1 if p == HIGH_ONE else p) - 1
                        for p in range(start, start + length)
                    )
                )
    return tuple(found)


@cache
def _containing(runs_13_to_1: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per face: the templates with a slot of that face."""
    return tuple(
        tuple(t for t in templates(runs_13_to_1) if face in t) for face in range(FACES52)
    )


@cache
def _near(runs_13_to_1: bool) -> tuple[int, ...]:
    """Per face: presence bits (bit 0 of each packed field) of every face its templates touch."""
    return tuple(
        sum(ONE[f] for f in {f for t in filed for f in t})
        for filed in _containing(runs_13_to_1)
    )


class Option(NamedTuple):
    """One way to keep the lowest natural: what it matches and what it leaves missing."""

    step: int  # subtracted from a memo key: one copy of each matched face, and the slots
    matched: int  # how many naturals it keeps
    missing: int  # bit per face: the missing slots over every template giving this step
    size: int  # slots
    faces: tuple[int, ...]  # one such template, to build a target hand from


_OPTIONS_LIMIT = 1 << 14
_options: tuple[BoundedCache[int, tuple[Option, ...]], ...] = (
    BoundedCache(_OPTIONS_LIMIT),
    BoundedCache(_OPTIONS_LIMIT),
)


def options(runs_13_to_1: bool, face: int, held: int) -> tuple[Option, ...]:
    """The ways to keep `face`, the lowest natural left, given the faces still held.

    `held` has bit 0 of each field set for a face held (every held face is
    `face` or above). Templates that match the same naturals with the same
    number of slots lead to the same remainder, so they make one option whose
    missing faces are their union; most matched first.
    """
    near = held & _near(runs_13_to_1)[face]
    key = face << SLOTS_AT | near
    cache = _options[runs_13_to_1]
    found = cache.get(key)
    if found is not None:
        return found
    merged: dict[int, Option] = {}
    for template in _containing(runs_13_to_1)[face]:
        others = [f for f in template if f != face and near >> (FIELD * f) & 1]
        every = sum(1 << f for f in template)
        size = len(template) << SLOTS_AT
        for count in range(len(others) + 1):
            for chosen in combinations(others, count):
                kept = (face, *chosen)
                step = sum(ONE[f] for f in kept) + size
                missing = every & ~sum(1 << f for f in kept)
                old = merged.get(step)
                if old is None:
                    merged[step] = Option(step, len(kept), missing, len(template), template)
                else:
                    merged[step] = old._replace(missing=old.missing | missing)
    found = tuple(sorted(merged.values(), key=lambda o: (-o.matched, o.size)))
    return cache.put(key, found)


class Solved(NamedTuple):
    """The answer for one memo key: the most naturals matched, and how."""

    matched: int
    missing: int  # union of missing faces over every best choice; ALL_FACES with free slots
    choice: Option | None  # one best choice (None: the lowest natural is replaced)


_SOLVED_LIMIT = 1 << 18
_solved: tuple[BoundedCache[int, Solved], ...] = (
    BoundedCache(_SOLVED_LIMIT),
    BoundedCache(_SOLVED_LIMIT),
)
_DONE = Solved(0, 0, None)
_FREE = Solved(0, ALL_FACES, None)
_STUCK = Solved(_IMPOSSIBLE, 0, None)


def tile_count(naturals: int) -> int:
    """How many naturals a packed count holds (no field above 3)."""
    return (naturals & LOW).bit_count() + 2 * (naturals >> 1 & LOW).bit_count()


def _solver(runs_13_to_1: bool) -> Callable[[int], Solved]:
    """The search for one value of the option, its tables bound as locals (the hot loop)."""
    table = _solved[runs_13_to_1].entries  # emptied in place, so binding it once is safe
    option_table = _options[runs_13_to_1].entries
    near_of = _near(runs_13_to_1)

    def solve(key: int) -> Solved:
        rest = key & _NATURALS
        slots = key >> SLOTS_AT
        if slots < 3 or not rest:
            # No meld fits in fewer than 3 slots: the naturals left are replaced,
            # and the slots left are free melds (3 or more) or none; 1 or 2 fit nowhere.
            return _DONE if slots == 0 else _FREE if slots >= 3 else _STUCK
        low = rest & -rest
        face = (low.bit_length() - 1) // FIELD
        remaining = (rest & LOW).bit_count() + 2 * (rest >> 1 & LOW).bit_count()
        held = (rest | rest >> 1) & LOW
        found_options = option_table.get(face << SLOTS_AT | held & near_of[face])
        if found_options is None:
            found_options = options(runs_13_to_1, face, held)
        best = _IMPOSSIBLE
        missing = 0
        choice: Option | None = None
        # Most matched first, so the bound below cuts early.
        for option in found_options:
            step, gain, option_missing, size, _ = option
            if size > slots:
                continue
            # Bound: after this option, at most every natural left fits the slots left.
            left = remaining - gain
            if gain + (left if left < slots - size else slots - size) < best:
                continue
            child = key - step
            found = table.get(child)
            if found is None:
                found = solve(child)
            value = found[0] + gain
            if value > best:
                best, missing, choice = value, option_missing | found[1], option
            elif value == best:
                missing |= option_missing | found[1]
        # Or the lowest natural and its twin are replaced.
        copies = rest >> (FIELD * face) & 3
        left = remaining - copies
        if (left if left < slots else slots) >= best:
            child = key - copies * ONE[face]
            found = table.get(child)
            if found is None:
                found = solve(child)
            value = found[0]
            if value > best:
                best, missing, choice = value, found[1], None
            elif value == best:
                missing |= found[1]
        answer = Solved(best, missing, choice)
        table[key] = answer
        return answer

    return solve


_SOLVE = (_solver(False), _solver(True))


class MeldPlan(NamedTuple):
    """The most naturals a win by melds can keep, the missing faces, and one plan."""

    matched: int
    missing: int  # bit per face: faces that fill a missing slot of some best plan
    melds: tuple[tuple[int, ...], ...]  # one best plan's templates
    kept: int  # packed counts of the naturals that plan keeps


def best_split(naturals: int, runs_13_to_1: bool, caps: int) -> MeldPlan:
    """The most of `naturals` (packed) that 14 slots of melds can keep.

    `caps` is the packed count of copies of each face that exist (2, or 1 for
    the indicator's face); wilds cover what a plan asks beyond them, two at
    most.
    """
    table = _solved[runs_13_to_1]
    table.make_room()
    key = naturals | HAND_SLOTS << SLOTS_AT
    solve = _SOLVE[runs_13_to_1]
    root = table.entries.get(key) or solve(key)
    melds, kept = _walk(table.entries, key, solve)
    if _beyond_copies(melds, caps) > MAX_WILDS:
        return exact_best(naturals, runs_13_to_1, caps)
    return MeldPlan(root.matched, root.missing, melds, kept)


def _walk(
    table: dict[int, Solved], key: int, solve: Callable[[int], Solved]
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """One best plan, read back from the memo: its templates and the naturals it keeps."""
    melds: list[tuple[int, ...]] = []
    kept = 0
    while key & _NATURALS:
        found = table.get(key)
        if found is None:
            found = solve(key)
        choice = found.choice
        rest = key & _NATURALS
        if choice is None:
            low = rest & -rest
            face = (low.bit_length() - 1) // FIELD
            key -= (rest >> (FIELD * face) & 3) * ONE[face]
        else:
            melds.append(choice.faces)
            step = choice.step
            kept += step & _NATURALS
            key -= step
    return tuple(melds), kept


def _beyond_copies(melds: tuple[tuple[int, ...], ...], caps: int) -> int:
    """How many slots of these templates ask for a face beyond the copies that exist."""
    asked = [0] * FACES52
    for meld in melds:
        for face in meld:
            asked[face] += 1
    return sum(
        max(0, count - (caps >> (FIELD * face) & 7)) for face, count in enumerate(asked) if count
    )


def exact_best(naturals: int, runs_13_to_1: bool, caps: int) -> MeldPlan:
    """`best_split` with the copies limit counted on every plan (slow; rarely needed).

    The same search without a memo, carrying how often each face has been
    asked for, so a plan needing more than two wilds beyond the copies that
    exist is never counted. Branches that cannot reach the best so far are cut.
    """
    cap_list = [caps >> (FIELD * face) & 7 for face in range(FACES52)]
    asked = [0] * FACES52
    chosen: list[tuple[Option, tuple[int, ...]]] = []
    best = MeldPlan(_IMPOSSIBLE, 0, (), 0)

    def excess() -> int:
        return sum(max(0, a - c) for a, c in zip(asked, cap_list, strict=True) if a)

    def visit(rest: int, slots: int, matched: int) -> None:
        nonlocal best
        if not rest or slots < 3:
            if slots in (1, 2):
                return
            missing = ALL_FACES if slots >= 3 else 0
            for option, template in chosen:
                missing |= _missing_of(template, option)
            if matched > best.matched:
                kept = sum(option.step & _NATURALS for option, _ in chosen)
                best = MeldPlan(matched, missing, tuple(t for _, t in chosen), kept)
            elif matched == best.matched:
                best = best._replace(missing=best.missing | missing)
            return
        if matched + min(tile_count(rest), slots) < best.matched:
            return
        low = rest & -rest
        face = (low.bit_length() - 1) // FIELD
        held = (rest | rest >> 1) & LOW
        for option in options(runs_13_to_1, face, held):
            size = option.size
            if size > slots:
                continue
            # The option's merged templates differ only in missing faces: each is
            # tried, so the limit is judged on real templates.
            for template in _templates_of(runs_13_to_1, face, option):
                for f in template:
                    asked[f] += 1
                if excess() <= MAX_WILDS:
                    chosen.append((option, template))
                    visit(rest - (option.step & _NATURALS), slots - size, matched + option.matched)
                    chosen.pop()
                for f in template:
                    asked[f] -= 1
        visit(rest - (rest >> (FIELD * face) & 3) * ONE[face], slots, matched)

    visit(naturals, HAND_SLOTS, 0)
    return best


def _templates_of(runs_13_to_1: bool, face: int, option: Option) -> list[tuple[int, ...]]:
    """The templates an option merged: those of its size whose slots hold its matched faces."""
    kept = option.step & _NATURALS
    size = option.step >> SLOTS_AT
    found = []
    for template in _containing(runs_13_to_1)[face]:
        if len(template) != size:
            continue
        faces = sum(ONE[f] for f in template)
        if kept & faces != kept:
            continue
        found.append(template)
    return found


def _missing_of(template: tuple[int, ...], option: Option) -> int:
    kept = option.step & _NATURALS
    return sum(1 << f for f in template if not kept >> (FIELD * f) & 1)
