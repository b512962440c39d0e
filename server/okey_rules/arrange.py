"""Turns a winning split (faces and wild slots) into melds of the player's own tiles."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import attrgetter

from okey_rules.hand_types import Arrangement, Meld, MeldKind, Placed
from okey_rules.meld_table import Template
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, NUMBERS, TILE_COUNT, Tile

# Canonical tiles per face (copy 0), so arrangements do not re-validate new Tiles.
_FACE_TILE = tuple(Tile.from_face(face) for face in range(53))
_CODE_TILE = tuple(Tile.from_code(code) for code in range(TILE_COUNT))


def _new_placed(tile: Tile, stands_for: Tile, wild: bool) -> Placed:
    # tuple.__new__ skips the named tuple's Python-level constructor.
    return tuple.__new__(Placed, (tile, stands_for, wild))


# Every Placed an arrangement can hold is built once, here: a plain tile as
# itself (per okey, since a false joker plays as the okey's face), and an
# okey tile standing for any face. Tiles are values, so sharing them is safe.
_WILD_PLACED = tuple(
    tuple(_new_placed(_CODE_TILE[code], _FACE_TILE[face], True) for face in range(52))
    for code in range(TILE_COUNT)
)


@cache
def _natural_placed(okey_face: int) -> tuple[Placed, ...]:
    return tuple(
        _new_placed(tile, _FACE_TILE[okey_face] if tile.color is None else tile, False)
        for tile in _CODE_TILE
    )


class _Pool:
    """The hand's physical tiles (as codes), handed out per face in the order given."""

    __slots__ = ("naturals", "placed", "wilds")

    def __init__(self, tiles: Sequence[Tile], okey_face: int) -> None:
        naturals: dict[int, list[int]] = {}
        wilds: list[int] = []
        for tile in tiles:
            face = tile.face
            code = tile.copy * FACES + face
            if face == okey_face:
                wilds.append(code)
                continue
            if face == FALSE_JOKER_FACE:
                face = okey_face
            group = naturals.get(face)
            if group is None:
                naturals[face] = [code]
            else:
                group.append(code)
        self.naturals = naturals
        self.wilds = wilds
        self.placed = _natural_placed(okey_face)

    def natural(self, face: int) -> Placed:
        return self.placed[self.naturals[face].pop(0)]

    def wild(self, stands_for: int) -> Placed:
        return _WILD_PLACED[self.wilds.pop(0)][stands_for]

    def take(self, slots: Sequence[tuple[int, bool]]) -> tuple[Placed, ...]:
        """The tiles for a meld's slots: a wild where the slot says so, else the face's tile."""
        naturals = self.naturals
        placed = self.placed
        wilds = self.wilds
        return tuple(
            [
                _WILD_PLACED[wilds.pop(0)][face] if wild else placed[naturals[face].pop(0)]
                for face, wild in slots
            ]
        )


def _order(meld: Meld) -> tuple[int, ...]:
    return tuple([p[1].face for p in meld[1]])


def _finish(melds: list[Meld]) -> Arrangement:
    """Melds in canonical order: by the faces they stand for, first tile first."""
    return tuple.__new__(Arrangement, (tuple(sorted(melds, key=_order)),))


def _joined_runs(runs: list[Template]) -> list[list[tuple[int, bool]]]:
    """Joins run pieces that continue each other back into one run.

    The search works with runs of 3-5 tiles; a player shows R1..R9 as one run.
    Pieces join when one starts right after the other ends in the same
    colour, unless the result would hold a 1 both low and high.
    """
    joined: list[list[tuple[int, bool]]] = []
    current: list[tuple[int, bool]] = []
    colour = first = end = -1
    for run in sorted(runs, key=_ORDER):
        run_colour = run.order >> 4
        if run_colour == colour and end + 1 == run.start and not (first == 1 and run.end == 14):
            current.extend(run.slots)
        else:
            current = list(run.slots)
            joined.append(current)
            colour, first = run_colour, run.start
        end = run.end
    return joined


_ORDER = attrgetter("order")


def arrange_melds(tiles: Sequence[Tile], okey_face: int, melds: Sequence[Template]) -> Arrangement:
    pool = _Pool(tiles, okey_face)
    keyed: list[tuple[tuple[int, ...], Meld]] = []
    runs: list[Template] = []
    for template in melds:
        if template.is_set:
            meld = tuple.__new__(Meld, (MeldKind.SET, pool.take(template.slots)))
            keyed.append((template.faces, meld))
        else:
            runs.append(template)
    if len(runs) == 1:
        meld = tuple.__new__(Meld, (MeldKind.RUN, pool.take(runs[0].slots)))
        keyed.append((runs[0].faces, meld))
    elif runs:
        for run in _joined_runs(runs):
            meld = tuple.__new__(Meld, (MeldKind.RUN, pool.take(run)))
            keyed.append((tuple([face for face, _ in run]), meld))
    # Canonical order: by the faces each meld stands for (see `_finish`).
    keyed.sort(key=_first)
    return tuple.__new__(Arrangement, (tuple([meld for _, meld in keyed]),))


def _first(item: tuple[tuple[int, ...], Meld]) -> tuple[int, ...]:
    return item[0]


def arrange_pairs(tiles: Sequence[Tile], okey_face: int, wilds: int) -> Arrangement:
    pool = _Pool(tiles, okey_face)
    doubles = sorted(f for f, codes in pool.naturals.items() if len(codes) == 2)
    singles = sorted(f for f, codes in pool.naturals.items() if len(codes) == 1)
    melds = [Meld(MeldKind.PAIR, (pool.natural(f), pool.natural(f))) for f in doubles]
    melds += [Meld(MeldKind.PAIR, (pool.natural(f), pool.wild(f))) for f in singles]
    if wilds > len(singles):
        # Two wilds paired together stand for a face no other pair shows: the
        # okey's own face when free, otherwise the lowest free face.
        used = set(doubles) | set(singles)
        free = okey_face if okey_face not in used else min(set(range(52)) - used)
        melds.append(Meld(MeldKind.PAIR, (pool.wild(free), pool.wild(free))))
    return _finish(melds)


def arrange_kafa(tiles: Sequence[Tile], okey_face: int, colour: int) -> Arrangement:
    """Kafa shown as the runs it is made of: 1-2-3 and 4..13-1."""
    pool = _Pool(tiles, okey_face)
    melds = []
    for numbers in ((1, 2, 3), (*range(4, 14), 1)):
        placed = []
        for number in numbers:
            face = colour * NUMBERS + number - 1
            placed.append(pool.natural(face) if pool.naturals.get(face) else pool.wild(face))
        melds.append(Meld(MeldKind.RUN, tuple(placed)))
    return _finish(melds)
