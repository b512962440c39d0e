"""How `okey play --game 101` moves the seats nobody plays: a simple, deterministic policy.

Like the classic policy (play_policy.py) it sees only what a player at the
table sees: its own PlayerView (its rack, the table melds, every seat's
counts, openings and penalties, the piles it may see) and its own
LegalMoves, plus HandService.BestOpening asked about its own rack. It never
reads the opaque game state. docs/play.md ("Okey 101") states it in words.
Each move is chosen afresh from the current view, in this order:

1. DRAW phase: DRAW_FROM_WALL (the bank). A discard is never taken, so a bot
   never owes its use.
2. A discard taken this turn still to use (only when a human let the policy
   play for it, `auto`): RETURN_DISCARD.
3. Not opened: BestOpening for the rack. OPEN with its melds when they reach
   the mark (101 points), else with its pairs when they reach theirs (five),
   each okey standing for the face BestOpening gave it. At least one tile must
   stay for the discard: if the opening would use every tile, one tile is left
   out of a meld that stays a meld without it (a set of four, or an end of a
   run of four or more) when the rest still reaches the mark; otherwise the
   seat does not open this turn.
4. Opened: LAY_OFF the first natural tile (not an okey) LegalMoves offers a
   lay-off for, one move at a time (LegalMoves never offers one that would
   empty the rack).
5. Opened: lay new melds (LAY_MELD) BestOpening finds in the rest of the rack
   (a pairs-opener: its pairs), leaving at least one tile as in 3; melds with
   nothing left over are cut as in 3, else the lowest-valued meld stays back.
6. Opened: LAY_OFF an okey LegalMoves offers a lay-off for (an okey left in
   an opened rack costs 101 at the end; it is laid off last so that it can
   first help a new meld).
7. DISCARD, the lowest by this key: an okey last (never one while another tile
   can go); then a tile that fits no table meld before one that does (a
   discard that could have been laid off costs 101: an opened seat knows it
   from the LAY_OFFs LegalMoves offers, a seat not opened estimates it from
   the table in its view, `fits_table`); then, for a seat not opened, a tile
   outside BestOpening's melds before one in them (it keeps what it needs to
   open); then the highest value (a tile kept costs its value at the end);
   ties to the tile received last.
8. Anything else LegalMoves offers: the first move.

The marks are 101 points and five pairs. With option progressive_opening a
later opening must beat the best so far, which the view does not show: the
policy then takes as the mark one more than what any seat that opened has on
the table (all its melds, with whatever was laid off onto them), which is at
least the best opening so far, so a bot's opening never fails, though it may
wait longer than it must.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from okey.v1 import game_pb2, hand_pb2, state_pb2, tile_pb2
from okey_rules.rulebook import OPENING_PAIRS, OPENING_POINTS

from okey_cli.play_policy import is_okey, play_face, rack_position

_TOP = 13

# Asks HandService.BestOpening about some tiles of the seat's own rack.
AskOpening = Callable[[Sequence[tile_pb2.Tile]], hand_pb2.BestOpeningResponse]
TileKey = tuple[int, int, bool, int]


def tile_key(tile: Any) -> TileKey:
    """A physical tile: its face and copy."""
    return (tile.color, tile.number, tile.false_joker, tile.copy)


def face_key(tile: Any) -> tuple[int, int, bool]:
    """A tile's face, copy left out (BestOpening numbers copies its own way)."""
    return (tile.color, tile.number, tile.false_joker)


def value(tile: Any, okey: Any) -> int:
    """What a tile counts (§10.2, §10.7): its number; a false joker the okey's number."""
    return play_face(tile, okey)[1]


def opened(view: game_pb2.PlayerViewResponse) -> int:
    """How the viewing seat opened (game_pb2.Opened; OPENED_UNSPECIFIED: not yet)."""
    return view.seats[view.seat].opened


def opening_marks(view: game_pb2.PlayerViewResponse) -> tuple[int, int]:
    """(points, pairs) an opening must reach. With progressive_opening, an upper bound of
    the real mark taken from the table (see the module's docstring)."""
    points, pairs = OPENING_POINTS, OPENING_PAIRS
    if not view.ruleset.progressive_opening:
        return points, pairs
    for seat in view.seats:
        owned = [meld for meld in view.table if meld.owner_seat == seat.seat]
        if seat.opened == game_pb2.OPENED_MELDS:
            points = max(points, sum(meld.value for meld in owned) + 1)
        elif seat.opened == game_pb2.OPENED_PAIRS:
            pairs = max(pairs, len(owned) + 1)
    return points, pairs


def fits_table(tile: Any, view: game_pb2.PlayerViewResponse) -> bool:
    """Whether a natural tile could be laid off onto a set or run in the view's table: a set
    of fewer than four lacking its colour, or the next number at either end of a run of
    its colour. An estimate for a seat that has not opened (LegalMoves offers it no
    lay-off to look at); 12-13-1 runs are not considered (Okey 101 has none)."""
    if is_okey(tile, view.okey):
        return False
    colour, number = play_face(tile, view.okey)
    for meld in view.table:
        faces = [(placed.stands_for.color, placed.stands_for.number) for placed in meld.tiles]
        if meld.kind == hand_pb2.MELD_KIND_SET:
            if len(faces) < 4 and faces[0][1] == number and colour not in {c for c, _ in faces}:
                return True
        elif meld.kind == hand_pb2.MELD_KIND_RUN and faces[0][0] == colour:
            numbers = [n for _, n in faces]
            if number in (min(numbers) - 1, max(numbers) + 1) and 1 <= number <= _TOP:
                return True
    return False


def _copies_for(rack: Sequence[Any], wanted: Iterable[Any]) -> list[tile_pb2.Tile] | None:
    """The rack's physical tiles for `wanted` faces, each copy used once; None if the rack
    lacks one."""
    free = list(rack)
    found = []
    for tile in wanted:
        index = next((i for i, held in enumerate(free) if face_key(held) == face_key(tile)),
                     None)
        if index is None:
            return None
        held = free.pop(index)
        found.append(tile_pb2.Tile(color=held.color, number=held.number,
                                   false_joker=held.false_joker, copy=held.copy))
    return found


def melds_move(
    kind: game_pb2.MoveKind, seat: int, melds: Sequence[Sequence[Any]], rack: Sequence[Any],
    pairs: bool,
) -> game_pb2.Move | None:
    """An OPEN or LAY_MELD move laying `melds` (lists of PlacedTile, as BestOpening answers)
    with the rack's copies; each okey stands for the face BestOpening gave it."""
    move = game_pb2.Move(kind=kind, seat=seat, pairs=pairs)
    physical = _copies_for(rack, [placed.tile for meld in melds for placed in meld])
    if physical is None:
        return None
    tiles = iter(physical)
    for meld in melds:
        play = move.melds.add()
        for placed in meld:
            laid = play.tiles.add()
            laid.tile.CopyFrom(next(tiles))
            if placed.wild:
                laid.stands_for.CopyFrom(placed.stands_for)
    return move


def _meld_value(meld: Sequence[Any]) -> int:
    return sum(placed.stands_for.number for placed in meld)


def _cut_one(melds: list[list[Any]]) -> list[list[Any]] | None:
    """The melds with one tile left out such that every meld stays a meld: any tile of a
    set of four, or an end of a run of four or more. Of those cuts, the one losing the
    fewest points (on a tie, an okey: finishing with it doubles, §10.7); None if none."""
    best: tuple[tuple[int, bool], list[list[Any]]] | None = None
    for index, meld in enumerate(melds):
        if len(meld) < 4:
            continue
        if all(p.stands_for.number == meld[0].stands_for.number for p in meld):
            spots = range(len(meld))  # a set
        else:
            spots = range(0, len(meld), len(meld) - 1)  # a run: its two ends
        for spot in spots:
            placed = meld[spot]
            cost = (placed.stands_for.number, not placed.wild)
            if best is None or cost < best[0]:
                cut = [list(m) for m in melds]
                del cut[index][spot]
                best = (cost, cut)
    return None if best is None else best[1]


def _keeping_a_tile(
    melds: list[list[Any]], rack_size: int, mark: int, by_pairs: bool
) -> list[list[Any]] | None:
    """`melds`, made to leave at least one rack tile and still reach `mark` (melds' points,
    or a count of pairs); None when they cannot."""
    def reach(chosen: list[list[Any]]) -> bool:
        total = len(chosen) if by_pairs else sum(_meld_value(m) for m in chosen)
        return total >= mark

    if sum(len(m) for m in melds) < rack_size:
        return melds if reach(melds) else None
    if by_pairs:
        fewer = melds[:-1]  # the last pair stays on the rack
    else:
        cut = _cut_one(melds)
        fewer = cut if cut is not None else sorted(melds, key=_meld_value)[1:]
    return fewer if fewer and reach(fewer) else None


def _arranged(arrangement: hand_pb2.Arrangement) -> list[list[Any]]:
    return [list(meld.tiles) for meld in arrangement.melds]


def opening_move(
    view: game_pb2.PlayerViewResponse, answer: hand_pb2.BestOpeningResponse
) -> game_pb2.Move | None:
    """Rule 3: the OPEN move BestOpening's answer makes, or None."""
    points, pairs = opening_marks(view)
    size = len(view.rack)
    melds = _keeping_a_tile(_arranged(answer.arrangement), size, points, by_pairs=False)
    if melds:
        return melds_move(game_pb2.MOVE_KIND_OPEN, view.seat, melds, view.rack, pairs=False)
    pair_melds = _keeping_a_tile(_arranged(answer.pairs.arrangement), size, pairs,
                                 by_pairs=True)
    if pair_melds:
        return melds_move(game_pb2.MOVE_KIND_OPEN, view.seat, pair_melds, view.rack,
                          pairs=True)
    return None


def new_melds_move(
    view: game_pb2.PlayerViewResponse, answer: hand_pb2.BestOpeningResponse
) -> game_pb2.Move | None:
    """Rule 5: the LAY_MELD move of the melds (a pairs-opener: the pairs) BestOpening finds,
    or None."""
    by_pairs = opened(view) == game_pb2.OPENED_PAIRS
    found = _arranged(answer.pairs.arrangement if by_pairs else answer.arrangement)
    melds = _keeping_a_tile(found, len(view.rack), 1, by_pairs)
    if not melds:
        return None
    return melds_move(game_pb2.MOVE_KIND_LAY_MELD, view.seat, melds, view.rack, pairs=False)


def choose_discard(
    view: game_pb2.PlayerViewResponse,
    candidates: Sequence[Any],
    lay_offs: Iterable[Any] = (),
    answer: hand_pb2.BestOpeningResponse | None = None,
) -> Any:
    """Rule 7: the tile to throw among `candidates` (rack tiles). `lay_offs`: the tiles
    LegalMoves offers a LAY_OFF for; `answer`: BestOpening's for the rack (used when the
    seat has not opened)."""
    okey = view.okey
    not_opened = opened(view) == game_pb2.OPENED_UNSPECIFIED
    placeable = {tile_key(t) for t in lay_offs}
    # The faces BestOpening leaves out of its melds (two copies of a face are alike, so
    # either may be the one left out).
    spare = None
    if not_opened and answer is not None:
        spare = {face_key(t) for t in answer.unused}

    def key(tile: Any) -> tuple[bool, bool, bool, int, int]:
        fits = tile_key(tile) in placeable or (not_opened and fits_table(tile, view))
        needed = spare is not None and face_key(tile) not in spare
        return (is_okey(tile, okey), fits, needed, -value(tile, okey),
                -rack_position(tile, view.rack))

    return min(candidates, key=key)


def choose_move(
    view: game_pb2.PlayerViewResponse, legal: Sequence[game_pb2.Move], ask: AskOpening
) -> game_pb2.Move | None:
    """The policy's move for the viewing seat, or None when LegalMoves offers none."""
    if not legal:
        return None
    by_kind: dict[int, list[game_pb2.Move]] = {}
    for move in legal:
        by_kind.setdefault(move.kind, []).append(move)
    if game_pb2.MOVE_KIND_DRAW_FROM_WALL in by_kind:
        return by_kind[game_pb2.MOVE_KIND_DRAW_FROM_WALL][0]
    if view.HasField("taken_discard") and game_pb2.MOVE_KIND_RETURN_DISCARD in by_kind:
        return by_kind[game_pb2.MOVE_KIND_RETURN_DISCARD][0]
    discards = by_kind.get(game_pb2.MOVE_KIND_DISCARD, [])
    lay_offs = by_kind.get(game_pb2.MOVE_KIND_LAY_OFF, [])
    playing = view.phase == state_pb2.PHASE_DISCARD  # drawn: laying moves are possible
    not_opened = opened(view) == game_pb2.OPENED_UNSPECIFIED
    # A seat not opened asks about its rack also for the discard (the dealer's first one
    # included): it keeps the tiles of its best melds.
    answer = ask(view.rack) if not_opened and (playing or discards) else None
    if playing and answer is not None:
        opening = opening_move(view, answer)
        if opening is not None:
            return opening
    elif playing:
        natural = [m for m in lay_offs if not is_okey(m.tile, view.okey)]
        if natural:
            return natural[0]
        laying = new_melds_move(view, ask(view.rack))
        if laying is not None:
            return laying
        if lay_offs:
            return lay_offs[0]
    if discards:
        tile = choose_discard(view, [m.tile for m in discards],
                              [m.tile for m in lay_offs], answer)
        return next(m for m in discards if tile_key(m.tile) == tile_key(tile))
    return legal[0]
