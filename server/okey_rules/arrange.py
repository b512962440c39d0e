"""Turns a winning split (faces and wild slots) into melds of the player's own tiles."""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.hand_types import Arrangement, Meld, MeldKind, Placed
from okey_rules.melds import COLOURS, MeldSplit
from okey_rules.pairs import pair_faces
from okey_rules.runs import HIGH_ONE
from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, Tile


# Canonical tiles per face (copy 0), so arrangements do not re-validate new Tiles.
_FACE_TILE = tuple(Tile.from_face(face) for face in range(53))


class _Pool:
    """The hand's physical tiles, handed out per face in a fixed order (copy 0 first)."""

    def __init__(self, tiles: Sequence[Tile], okey_face: int) -> None:
        self.okey_face = okey_face
        self.naturals: dict[int, list[Tile]] = {}
        self.wilds: list[Tile] = []
        for tile in sorted(tiles, key=lambda t: (t.face, t.copy)):
            face = tile.face
            if face == okey_face:
                self.wilds.append(tile)
            else:
                played = okey_face if face == FALSE_JOKER_FACE else face
                self.naturals.setdefault(played, []).append(tile)

    def natural(self, face: int) -> Placed:
        tile = self.naturals[face].pop(0)
        return Placed(tile, _FACE_TILE[face] if tile.color is None else tile, False)

    def wild(self, stands_for: int) -> Placed:
        return Placed(self.wilds.pop(0), _FACE_TILE[stands_for], True)


def _order(meld: Meld) -> tuple[int, ...]:
    return tuple([p.stands_for.face for p in meld.tiles])


def _finish(melds: list[Meld]) -> Arrangement:
    """Melds in canonical order: by the faces they stand for, first tile first."""
    return Arrangement(tuple(sorted(melds, key=_order)))


def _face(colour: int, position: int) -> int:
    """Face of a run position (14 is the 1 played high)."""
    number = 1 if position == HIGH_ONE else position
    return colour * NUMBERS + number - 1


def arrange_melds(tiles: Sequence[Tile], okey_face: int, split: MeldSplit) -> Arrangement:
    pool = _Pool(tiles, okey_face)
    melds: list[Meld] = []
    for number, colours, extra in split.sets:
        placed = [pool.natural(c * NUMBERS + number - 1) for c in colours]
        missing = [c for c in range(COLOURS) if c not in colours][:extra]
        placed += [pool.wild(c * NUMBERS + number - 1) for c in missing]
        placed.sort(key=lambda p: p.stands_for.face)
        melds.append(Meld(MeldKind.SET, tuple(placed)))
    for colour, runs in enumerate(split.runs):
        for start, end, wild_at in runs:
            placed = [
                pool.wild(_face(colour, pos)) if pos in wild_at else pool.natural(_face(colour, pos))
                for pos in range(start, end + 1)
            ]
            melds.append(Meld(MeldKind.RUN, tuple(placed)))
    return _finish(melds)


def arrange_pairs(
    tiles: Sequence[Tile], okey_face: int, counts: Sequence[int], wilds: int
) -> Arrangement:
    pool = _Pool(tiles, okey_face)
    doubles, singles, spare = pair_faces(counts, wilds)
    melds = [Meld(MeldKind.PAIR, (pool.natural(f), pool.natural(f))) for f in doubles]
    melds += [Meld(MeldKind.PAIR, (pool.natural(f), pool.wild(f))) for f in singles]
    if spare:
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
    for start, end in ((1, 3), (4, HIGH_ONE)):
        placed = []
        for pos in range(start, end + 1):
            face = _face(colour, pos)
            placed.append(pool.natural(face) if pool.naturals.get(face) else pool.wild(face))
        melds.append(Meld(MeldKind.RUN, tuple(placed)))
    return _finish(melds)

