"""Hypothesis strategies for tiles, okeys and hands (plain random and near-winning).

Hands are drawn as *physical* tiles: never more than two of a face, never
more than two false jokers, never both copies of the indicator's face (one
lies face up on the table, docs/rules.md §2.4), copies numbered 0 then 1, so
every hand is one the engine must accept. Near-winning hands are built the way a rack comes
together: melds (or pairs) in "play" faces, some slots taken by an okey, a
slot that plays as the okey's face held by a false joker, then a few tiles
swapped for random ones.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st
from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, Tile, indicator_for

COLOURS = 4
NUMBERED_FACES = 52
ALL_FACES = 53
MAX_COPIES = 2

tiles = st.builds(Tile.from_code, st.integers(0, 105))
okeys = st.builds(Tile.from_face, st.integers(0, NUMBERED_FACES - 1))


def physical(faces: list[int]) -> list[Tile]:
    """Tiles for faces, the second of a face as copy 1 (faces must fit the set)."""
    seen: Counter[int] = Counter()
    result = []
    for face in faces:
        result.append(Tile.from_face(face, seen[face]))
        seen[face] += 1
    return result


# Distinct codes are distinct physical tiles, so any such list is a valid hand.
def tile_lists(min_size: int = 0, max_size: int = 20) -> st.SearchStrategy[list[Tile]]:
    codes = st.lists(st.integers(0, 105), min_size=min_size, max_size=max_size, unique=True)
    return codes.map(lambda cs: [Tile.from_code(c) for c in cs])


def random_hands(size: int) -> st.SearchStrategy[list[Tile]]:
    return tile_lists(size, size)


def _run_faces(colour: int, start: int, length: int) -> list[int]:
    """Play faces of a run from `start` (1..13); position 14 is a 1 played high."""
    return [colour * NUMBERS + (n if n <= NUMBERS else 1) - 1 for n in range(start, start + length)]


@st.composite
def _meld(draw: st.DrawFn, size: int) -> list[int]:
    """Play faces of one set (size 3-4) or run (any size >= 3), colour and place random."""
    if size <= 4 and draw(st.booleans()):
        number = draw(st.integers(0, NUMBERS - 1))
        colours = draw(st.permutations(range(COLOURS)))[:size]
        return [c * NUMBERS + number for c in colours]
    colour = draw(st.integers(0, COLOURS - 1))
    # Runs may end with a high 1 (12-13-1) in the construction; rulesets with
    # runs_13_to_1 off must then reject them, which is worth testing too.
    high_one = draw(st.booleans())
    top = 14 if high_one else 13
    start = draw(st.integers(1, top - size + 1))
    return _run_faces(colour, start, size)


# How 14 tiles split into melds (no run is longer than 13): every way, fewest melds first.
MELD_SIZES = [
    [3, 11], [4, 10], [5, 9], [6, 8], [7, 7],
    [3, 3, 8], [3, 4, 7], [3, 5, 6], [4, 4, 6], [4, 5, 5],
    [3, 3, 4, 4], [3, 3, 3, 5],
]  # fmt: skip


@st.composite
def _meld_faces(draw: st.DrawFn) -> list[int]:
    sizes = draw(st.sampled_from(MELD_SIZES))
    return [face for size in sizes for face in draw(_meld(size))]


@st.composite
def _pair_faces(draw: st.DrawFn) -> list[int]:
    faces = draw(st.lists(st.integers(0, NUMBERED_FACES - 1), min_size=7, max_size=7, unique=True))
    return [f for face in faces for f in (face, face)]


@st.composite
def _kafa_faces(draw: st.DrawFn) -> list[int]:
    colour = draw(st.integers(0, COLOURS - 1))
    return [colour * NUMBERS] + [colour * NUMBERS + i for i in range(NUMBERS)]


def indicator_face(okey_face: int) -> int:
    return indicator_for(Tile.from_face(okey_face)).face


def holds_one_indicator_at_most(hand: tuple[list[Tile], Tile]) -> bool:
    tiles, okey = hand
    shown = indicator_face(okey.face)
    return sum(tile.face == shown for tile in tiles) <= 1


def _fit(draw: st.DrawFn, faces: list[int], okey_face: int) -> list[int]:
    """Replaces tiles beyond what the set leaves for a hand by random faces that still fit.

    Two of a face at most, and one of the indicator's face.
    """
    room = [MAX_COPIES] * ALL_FACES
    room[indicator_face(okey_face)] = 1
    total = Counter(faces)
    seen: Counter[int] = Counter()
    fitted = []
    for face in faces:
        kept = face
        if seen[face] >= room[face]:
            total[face] -= 1
            kept = draw(st.sampled_from([f for f in range(ALL_FACES) if total[f] < room[f]]))
            total[kept] += 1
        seen[kept] += 1
        fitted.append(kept)
    return fitted


@st.composite
def built_hands(
    draw: st.DrawFn, size: int = 14, max_swaps: int = 2
) -> tuple[list[Tile], Tile]:
    """(hand, okey): a winning shape in play faces, wilds and false jokers, then swaps.

    `size` 15 adds one random tile; `max_swaps` tiles (0..max) are replaced by
    random faces, so with 0 a 14-tile hand usually wins (unless a fitted tile,
    or a 12-13-1 run where runs_13_to_1 is off, breaks it).
    """
    okey_face = draw(st.integers(0, NUMBERED_FACES - 1))
    shape = draw(st.sampled_from(["melds", "melds", "melds", "pairs", "kafa"]))
    play = draw({"melds": _meld_faces(), "pairs": _pair_faces(), "kafa": _kafa_faces()}[shape])
    wild_slots = draw(st.lists(st.integers(0, len(play) - 1), max_size=2, unique=True))
    faces = []
    for index, face in enumerate(play):
        if index in wild_slots:
            faces.append(okey_face)
        elif face == okey_face:
            faces.append(FALSE_JOKER_FACE)  # only a false joker plays as the okey's face
        else:
            faces.append(face)
    faces += draw(st.lists(st.integers(0, ALL_FACES - 1), min_size=size - 14, max_size=size - 14))
    swaps = draw(st.integers(0, max_swaps))
    for _ in range(swaps):
        at = draw(st.integers(0, len(faces) - 1))
        faces[at] = draw(st.integers(0, ALL_FACES - 1))
    faces = _fit(draw, faces, okey_face)
    order = draw(st.permutations(range(len(faces))))
    return physical([faces[i] for i in order]), Tile.from_face(okey_face)


def hands(size: int = 14) -> st.SearchStrategy[tuple[list[Tile], Tile]]:
    """(hand, okey): mostly near-winning hands, some plain random ones."""
    return st.one_of(
        built_hands(size, max_swaps=0),
        built_hands(size, max_swaps=2),
        st.tuples(random_hands(size), okeys).filter(holds_one_indicator_at_most),
    )
