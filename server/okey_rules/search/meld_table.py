"""Precomputed meld tables: every set and short run, filed under its lowest natural face.

docs/rules.md §3; the rules themselves are stated in `okey_rules.rulebook`,
and tests hold these tables to it (every template is a set or run there, and
every set or run of 3-5 tiles there is a template here).
Runs are listed only at lengths 3-5: any longer run splits into
pieces of those lengths, so the search never needs more (the arrangement
joins the pieces back). Each meld is listed once per way of leaving up to
two of its tiles to wilds; the natural part is a packed count vector.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, count

from okey_rules.bounded_cache import BoundedCache
from okey_rules.rulebook import HIGH_ONE  # the run position of a 1 played after 13
from okey_rules.search.packed import ONE
from okey_rules.tiles import NUMBERS

MAX_WILDS = 2
# Search keys (melds.py) hold the naturals' packed counts in their low bits
# and the wild count from this bit on, so a key's lowest set bit is its
# lowest natural tile.
WILDS_AT = 3 * 52
_IDENTS = count()


@dataclass(frozen=True, slots=True)
class Template:
    """One way to form a meld: its kind, and per slot the face and whether a wild fills it."""

    is_set: bool
    faces: tuple[int, ...]  # in meld order (runs low to high, sets by colour)
    wild: tuple[bool, ...]
    natural: int  # packed counts of the natural slots
    wilds: int
    start: int  # runs: first and last position (14 = a 1 played high); sets: 0
    end: int
    slots: tuple[tuple[int, bool], ...]  # (face, wild?) per slot, for building melds
    order: int  # runs: colour * 16 + start, the order in which pieces are joined
    wild_at: int  # bit 0 of the packed field of each face a wild stands for
    step: int  # ``natural | wilds << WILDS_AT``: subtracted from a search key (melds.py)
    ident: int  # unique among all templates, a cheap key for caches of built melds
    colour_bit: int  # runs: 1 << colour; sets: 0
    rank: int  # the faces as one int that sorts as the faces tuple does (for arranging)


def faces_rank(faces: tuple[int, ...]) -> int:
    """An int ordered as `faces` is: six bits per face (plus one, so a prefix sorts first).

    Room for 14 faces, the longest meld (a run 1..13 and the high 1 is not one,
    but 14 keeps the arithmetic simple).
    """
    return sum((face + 1) << (6 * (13 - i)) for i, face in enumerate(faces))


def joined(first: Template, then: Template) -> Template:
    """One run made of two pieces of the same colour, `then` continuing `first`."""
    faces = first.faces + then.faces
    natural = first.natural + then.natural
    wilds = first.wilds + then.wilds
    return Template(
        False,
        faces,
        first.wild + then.wild,
        natural,
        wilds,
        first.start,
        then.end,
        first.slots + then.slots,
        first.order,
        first.wild_at | then.wild_at,
        natural | wilds << WILDS_AT,
        next(_IDENTS),
        first.colour_bit,
        faces_rank(faces),
    )


def _run_faces(colour: int, start: int, length: int) -> tuple[int, ...]:
    return tuple(
        colour * NUMBERS + (1 if p == HIGH_ONE else p) - 1 for p in range(start, start + length)
    )


def _shapes(runs_13_to_1: bool) -> list[tuple[bool, tuple[int, ...], int, int]]:
    shapes: list[tuple[bool, tuple[int, ...], int, int]] = []
    for number in range(NUMBERS):
        for size in (3, 4):
            for colours in combinations(range(4), size):
                shapes.append((True, tuple(c * NUMBERS + number for c in colours), 0, 0))
    top = HIGH_ONE if runs_13_to_1 else NUMBERS
    for colour in range(4):
        for length in (3, 4, 5):
            for start in range(1, top - length + 2):
                faces = _run_faces(colour, start, length)
                shapes.append((False, faces, start, start + length - 1))
    return shapes


@cache
def tables(runs_13_to_1: bool) -> tuple[tuple[tuple[Template, ...], ...], ...]:
    """tables(runs_13_to_1)[w][f]: templates with lowest natural face f using at most w wilds.

    Fewest wilds first, then the order of `_shapes`; duplicates by effect
    (same naturals, wilds standing for the same faces) keep the first.
    """
    by_face: list[dict[tuple[int, int], Template]] = [{} for _ in range(52)]
    for is_set, faces, start, end in _shapes(runs_13_to_1):
        slots = range(len(faces))
        for wilds in range(MAX_WILDS + 1):
            for wild_slots in combinations(slots, wilds):
                naturals = [faces[i] for i in slots if i not in wild_slots]
                if not naturals:
                    continue
                natural = sum(ONE[f] for f in naturals)
                wild = tuple(i in wild_slots for i in slots)
                template = Template(
                    is_set,
                    faces,
                    wild,
                    natural,
                    wilds,
                    start,
                    end,
                    tuple(zip(faces, wild, strict=True)),
                    faces[0] // NUMBERS * 16 + start,
                    sum(ONE[faces[i]] for i in wild_slots),
                    natural | wilds << WILDS_AT,
                    next(_IDENTS),
                    0 if is_set else 1 << (faces[0] // NUMBERS),
                    faces_rank(faces),
                )
                by_face[min(naturals)].setdefault((natural, template.wild_at), template)
    result = []
    for limit in range(MAX_WILDS + 1):
        result.append(
            tuple(
                tuple(
                    sorted((t for t in table.values() if t.wilds <= limit), key=lambda t: t.wilds)
                )
                for table in by_face
            )
        )
    return tuple(result)


@cache
def neighbourhood(runs_13_to_1: bool) -> tuple[int, ...]:
    """Per face f: presence bits (field bit 0) of every face a meld filed under f touches."""
    masks = [0] * 52
    for face, filed in enumerate(tables(runs_13_to_1)[MAX_WILDS]):
        for template in filed:
            for slot_face in template.faces:
                masks[face] |= ONE[slot_face]
    return tuple(masks)


# Candidate lists per (runs_13_to_1, wild budget, lowest face, presence around it):
# the templates whose naturals are all held, split into those with no wild
# standing for a held tile ("useful") and the rest. Built on first use, in
# one cache per (runs_13_to_1, face * 3 + wilds), keyed by the presence bits
# of the faces near the lowest one (`neighbourhood`).
CANDIDATES_LIMIT = 1 << 12
Candidates = tuple[tuple[Template, ...], tuple[Template, ...]]
candidate_cache: tuple[list[BoundedCache[int, Candidates]], ...] = tuple(
    [BoundedCache(CANDIDATES_LIMIT) for _ in range(52 * (MAX_WILDS + 1))] for _ in range(2)
)


def candidates(runs_13_to_1: bool, wilds: int, face: int, held: int) -> Candidates:
    """(useful, wild-for-held) templates under `face` that fit a hand whose held faces are `held`.

    `held` has bit 0 set in the field of each face held at least once (more
    bits are ignored). A template fits when all its naturals are held (it
    holds at most one of each face); it is useful when, besides, no wild of it
    stands for a held face. Useful templates that take the same naturals and
    as many wilds leave the same remainder, so only the first of them is
    listed: the search would get the same answer from each.
    """
    near = held & neighbourhood(runs_13_to_1)[face]
    cache = candidate_cache[runs_13_to_1][face * 3 + wilds]
    found = cache.entries.get(near)
    if found is None:
        fitting = [t for t in tables(runs_13_to_1)[wilds][face] if t.natural & near == t.natural]
        useful: dict[int, Template] = {}
        for t in fitting:
            if not t.wild_at & near:
                useful.setdefault(t.step, t)
        found = (
            tuple(useful.values()),
            tuple(t for t in fitting if t.wild_at & near),
        )
        cache.put(near, found)
    return found
