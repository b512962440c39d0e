"""Seeded hands and a brute-force referee for the hand analysis tests.

The referee knows nothing of the analysis: it replaces tiles by every tile
that could take their place and asks `check_hand` (the authority on what
wins) whether the result wins. It is slow, so it answers only "does some
replacement of at most k tiles win" for k up to 2.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import check_hand
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, TILE_COUNT, Tile, indicator_for, okey_for

FACES = 53


def physical(faces: list[int]) -> list[Tile]:
    """Tiles for faces, the second of a face as copy 1."""
    seen: Counter[int] = Counter()
    tiles = []
    for face in faces:
        tiles.append(Tile.from_face(face, seen[face]))
        seen[face] += 1
    return tiles


def possible(faces: list[int], okey: Tile, rules: Ruleset) -> bool:
    """Could a table deal these faces to one hand (two copies, one indicator face)?"""
    counts = Counter(faces)
    if any(count > 2 for count in counts.values()):
        return False
    shown = indicator_for(okey).face
    return rules.indicator_drawable_last or counts[shown] <= 1


def _meld_faces(rng: random.Random) -> list[int]:
    """Faces of a random set or run (12-13-1 allowed)."""
    if rng.random() < 0.4:
        number = rng.randrange(NUMBERS)
        return [c * NUMBERS + number for c in rng.sample(range(4), rng.choice((3, 4)))]
    colour = rng.randrange(4)
    length = rng.choice((3, 3, 4, 5, 6))
    start = rng.randrange(NUMBERS - length + 2)
    return [colour * NUMBERS + (start + i) % NUMBERS for i in range(length)]


def near_winning(
    rng: random.Random, rules: Ruleset, size: int = 14, changed: int | None = None
) -> tuple[list[Tile], Tile]:
    """A hand built as a win (melds, or seven pairs one time in five), wilds and false
    jokers among it, then `changed` tiles (0-3, random when None) swapped for random ones."""
    while True:
        okey = okey_for(Tile.from_face(rng.randrange(52)))
        if rng.random() < 0.2:
            faces = [f for f in rng.sample(range(52), 7) for _ in range(2)]
            faces += [rng.randrange(52) for _ in range(size - len(faces))]
        else:
            faces = []
            while len(faces) < size:
                faces += _meld_faces(rng)
            faces = faces[:size]
        # The okey's face is played by a false joker; then up to two okeys.
        faces = [FALSE_JOKER_FACE if f == okey.face else f for f in faces]
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            faces[rng.randrange(size)] = okey.face
        swaps = rng.choice((0, 1, 1, 2, 2, 3)) if changed is None else changed
        for _ in range(swaps):
            faces[rng.randrange(size)] = rng.randrange(FACES)
        if len(faces) == size and possible(faces, okey, rules):
            return physical(faces), okey


def dealt(rng: random.Random, size: int = 14) -> tuple[list[Tile], Tile]:
    """A plain random hand: `size` distinct tiles of the set, a random okey it allows."""
    while True:
        tiles = [Tile.from_code(c) for c in rng.sample(range(TILE_COUNT), size)]
        okey = okey_for(Tile.from_face(rng.randrange(52)))
        if possible([t.face for t in tiles], okey, Ruleset()):
            return tiles, okey


def kinds_of(faces: list[int], okey: Tile, rules: Ruleset) -> tuple[WinKind, ...] | None:
    """The ways these 14 faces win (empty: none), or None when no table could hold them."""
    if not possible(faces, okey, rules):
        return None
    try:
        return check_hand(physical(faces), okey, rules).kinds
    except InvalidInputError:
        return None


def kinds_within_one(faces: list[int], okey: Tile, rules: Ruleset) -> set[WinKind]:
    """Every way some replacement of one tile (or none) makes these 14 faces win."""
    found: set[WinKind] = set()
    for hand in replacements(faces, 1):
        kinds = kinds_of(hand, okey, rules)
        if kinds:
            found.update(kinds)
    return found


def replacements(faces: list[int], count: int) -> Iterator[list[int]]:
    """Every hand made by replacing `count` of these faces by any faces (repeats included)."""
    for removed in set(combinations(sorted(faces), count)):
        rest = list(faces)
        for face in removed:
            rest.remove(face)
        for added in combinations_with_replacement(range(FACES), count):
            yield rest + list(added)


def wins_within(
    faces: list[int], okey: Tile, rules: Ruleset, count: int, kind: WinKind | None = None
) -> bool:
    """Does some replacement of exactly `count` tiles win (as `kind`, if given)?"""
    for hand in replacements(faces, count):
        kinds = kinds_of(hand, okey, rules)
        if kinds and (kind is None or kind in kinds):
            return True
    return False
