"""Okey 101 melds as a seat's view shows them (docs/rules.md §10.2-§10.5): what opening
is needed, which rack tiles could be laid off, and the OPEN and LAY_MELD moves built
from the best opening's arrangement (the legal-move lists leave those two out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from okey_rules.bots.suggestion import okey_of
from okey_rules.play.game101 import extended
from okey_rules.play.game101_types import Laid, TableMeld
from okey_rules.play.round_types import Move, MoveKind
from okey_rules.play.view_types import PlayerView
from okey_rules.rulebook import is_wild
from okey_rules.search.hand_types import Arrangement, Meld, MeldKind
from okey_rules.search.opening import best_openings
from okey_rules.tiles import FACES, TILE_OF_CODE, Tile

Groups = tuple[tuple[tuple[int, int | None], ...], ...]


def table_melds(view: PlayerView) -> list[TableMeld]:
    return [
        TableMeld(meld.owner, meld.kind, tuple(Laid(t.code, t.face) for t in meld.tiles))
        for meld in view.table
    ]


def layable(view: PlayerView, code: int, table: Sequence[TableMeld]) -> bool:
    """§10.5: a natural tile that fits a set or run on the table (discarding it costs 101)."""
    okey = okey_of(view)
    if is_wild(TILE_OF_CODE[code], okey):
        return False
    runs = view.rules.runs_13_to_1
    return any(extended(meld, code, None, okey, runs) is not None for meld in table)


def needed(view: PlayerView) -> tuple[int, int]:
    """The points and pairs an opening needs now (§10.2; §10.8 progressive opening), as the
    view shows them."""
    return view.points_needed, view.pairs_needed


class Openings(NamedTuple):
    value: int  # the best melds' points
    melds: Arrangement
    pairs: int  # the most pairs
    pair_melds: Arrangement
    unused: tuple[Tile, ...]  # the tiles the best melds leave


def openings(codes: Sequence[int], view: PlayerView) -> Openings:
    found, pairs = best_openings([TILE_OF_CODE[c] for c in codes], okey_of(view),
                                 view.rules)
    return Openings(found.value, found.arrangement, pairs.count, pairs.arrangement,
                    found.unused)


def groups_of(melds: Sequence[Meld], rack: Sequence[int], okey_face: int) -> Groups:
    """The move's groups for these melds, with the rack's own codes (an arrangement names
    canonical copies): a natural as itself, an okey with the face it stands for."""
    pool: dict[int, list[int]] = {}
    for code in rack:
        pool.setdefault(code % FACES, []).append(code)
    groups = []
    for meld in melds:
        group: list[tuple[int, int | None]] = []
        for placed in meld.tiles:
            if placed.wild:
                group.append((pool[okey_face].pop(0), placed.stands_for.face))
            else:
                group.append((pool[placed.tile.face].pop(0), None))
        groups.append(tuple(group))
    return tuple(groups)


def codes_in(groups: Groups) -> list[int]:
    return [code for group in groups for code, _ in group]


def leaving_a_tile(melds: Sequence[Meld], rack_size: int) -> list[Meld]:
    """The melds less what would empty the rack (§10.1: the last tile is the discard):
    one tile off a meld of four or more (a run's high end, a set's last), else a meld."""
    laid = sum(len(meld.tiles) for meld in melds)
    if laid < rack_size:
        return list(melds)
    kept = list(melds)
    for index, meld in enumerate(kept):
        if len(meld.tiles) > 3 and meld.kind is not MeldKind.PAIR:
            kept[index] = meld._replace(tiles=meld.tiles[:-1])
            return kept
    return kept[:-1]


def opening_move(view: PlayerView, seat_rack: Sequence[int], must_use: int | None,
                 found: Openings) -> tuple[Move, str] | None:
    """The OPEN move that reaches what is needed, melds first, else pairs; None when
    neither does, or when the discard taken this turn (`must_use`) would not be laid."""
    points, pairs = needed(view)
    okey_face = okey_of(view).face
    tries: list[tuple[Arrangement, bool, str]] = []
    if found.value >= points:
        tries.append((found.melds, False, f"open with {found.value} points of melds"))
    if found.pairs >= pairs:
        tries.append((found.pair_melds, True, f"open with {found.pairs} pairs"))
    for arrangement, with_pairs, text in tries:
        melds = arrangement.melds
        if sum(len(meld.tiles) for meld in melds) >= len(seat_rack):
            continue  # every tile laid: the rule keeps one back; rare enough to wait a turn
        groups = groups_of(melds, seat_rack, okey_face)
        if must_use is not None and must_use not in codes_in(groups):
            continue
        return Move(MoveKind.OPEN, view.seat, melds=groups, pairs=with_pairs), text
    return None


def lay_meld_move(view: PlayerView, found: Openings, pairs: bool) -> tuple[Move, int] | None:
    """Every meld (pairs, for a pairs opener) the rack can lay now, keeping one tile."""
    arrangement = found.pair_melds if pairs else found.melds
    melds = leaving_a_tile(arrangement.melds, len(view.rack))
    melds = [meld for meld in melds if len(meld.tiles) >= (2 if pairs else 3)]
    if not melds:
        return None
    groups = groups_of(melds, view.rack, okey_of(view).face)
    return Move(MoveKind.LAY_MELD, view.seat, melds=groups), len(codes_in(groups))
