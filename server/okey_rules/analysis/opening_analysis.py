"""Okey 101 (docs/rules.md §10.2-§10.5): how far a rack is from opening, which tiles it could
lay off onto the table's melds, and which discards keep its best opening."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from okey_rules.play.game101 import extended
from okey_rules.play.game101_types import Laid, TableMeld
from okey_rules.play.round_types import Opened
from okey_rules.play.view_types import PlayerView
from okey_rules.rulebook import OPENING_PAIRS, OPENING_POINTS
from okey_rules.ruleset import Ruleset
from okey_rules.search.opening import best_openings
from okey_rules.tiles import TILE_OF_CODE, Tile, okey_for


class LayOff(NamedTuple):
    """A rack tile that fits a table meld (§10.4: laid off once the seat has opened)."""

    tile: Tile
    meld: int  # the table meld's index


class OpeningDiscard(NamedTuple):
    """What the rack is worth without one of its tiles."""

    tile: Tile  # the face's first copy
    points: int  # the best melds opening of the rest
    pairs: int  # the most pairs of the rest
    keeps_points: bool  # as much as the whole rack's best melds
    keeps_pairs: bool  # as many pairs as the whole rack's


class OpeningAnalysis(NamedTuple):
    points: int  # the rack's best melds opening
    points_needed: int  # §10.2: 101 (§10.8 progressive opening: more than the best so far)
    pairs: int  # the rack's most pairs
    pairs_needed: int  # §10.2: 5 (progressive: one more than the most so far)
    opened: Opened | None  # how the seat has opened (a seat's view), else None
    lay_offs: tuple[LayOff, ...]  # in rack order, then meld order
    discards: tuple[OpeningDiscard, ...]  # each distinct face, in tile order

    @property
    def points_missing(self) -> int:
        return max(0, self.points_needed - self.points)

    @property
    def pairs_missing(self) -> int:
        return max(0, self.pairs_needed - self.pairs)


def analyze_rack(
    tiles: Sequence[Tile],
    okey: Tile,
    rules: Ruleset,
    *,
    needed: tuple[int, int] = (OPENING_POINTS, OPENING_PAIRS),
    table: Sequence[TableMeld] = (),
    opened: Opened | None = None,
) -> OpeningAnalysis:
    """An Okey 101 rack of 1-22 tiles: its best openings against what opening needs, the
    tiles it could lay off onto `table`, and each discard's best openings."""
    melds, pairs = best_openings(tiles, okey, rules)
    discards: list[OpeningDiscard] = []
    for index, tile in sorted(enumerate(tiles), key=lambda it: it[1].face):
        if discards and discards[-1].tile.face == tile.face:
            continue
        rest = [t for i, t in enumerate(tiles) if i != index]
        left_melds, left_pairs = best_openings(rest, okey, rules) if rest else (None, None)
        points = left_melds.value if left_melds is not None else 0
        count = left_pairs.count if left_pairs is not None else 0
        discards.append(OpeningDiscard(Tile.from_face(tile.face), points, count,
                                       points == melds.value, count == pairs.count))
    runs = rules.runs_13_to_1
    lay_offs = tuple(
        LayOff(tile, index)
        for tile in tiles
        for index, meld in enumerate(table)
        if extended(meld, tile.code, None, okey, runs) is not None
    )
    return OpeningAnalysis(melds.value, needed[0], pairs.count, needed[1], opened, lay_offs,
                           tuple(discards))


def analyze_seat_rack(view: PlayerView) -> OpeningAnalysis:
    """A seat's own rack in an Okey 101 round, against the table and what opening needs now,
    from what its view shows."""
    table = [TableMeld(meld.owner, meld.kind, tuple(Laid(t.code, t.face) for t in meld.tiles))
             for meld in view.table]
    tiles = [TILE_OF_CODE[code] for code in view.rack]
    return analyze_rack(tiles, okey_for(TILE_OF_CODE[view.indicator]), view.rules,
                        needed=(view.points_needed, view.pairs_needed), table=table,
                        opened=view.seats[view.seat].opened)
