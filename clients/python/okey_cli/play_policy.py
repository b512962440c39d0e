"""How `okey play` moves the seats nobody plays: a simple, deterministic policy.

The policy sees exactly what a player at the table sees: its own
PlayerView (rack, visible discards, counts, indicator and okey) and its own
LegalMoves. It never reads the opaque game state. docs/play.md states it in
words; in order of precedence:

1. GOSTERME when offered (it is only recorded, and costs nothing).
2. DECLARE_WIN when offered: the first offered move whose tile is an okey
   (finishing with an okey scores double), else the first offered move in the
   order LegalMoves lists them (rack order). A seat that must show its win
   (docs/rules.md §8.4) or that took the last discard (§8.5) is offered
   nothing else.
3. DRAW_FROM_WALL when offered (the wall still has tiles). While the wall
   has tiles the previous discard is never taken.
4. TAKE_DISCARD when offered with the wall empty (no DRAW_FROM_WALL): it is
   offered then only to a seat that can finish with it (§8.5), so the seat
   takes it and declares the win next.
5. END_ROUND when offered (the wall is empty: the round ends drawn).
6. DISCARD: never an okey; of the other tiles, the one with the fewest
   connections (see `connections`), ties going to the tile received last.
7. Anything else LegalMoves offers (only TIMEOUT, which `okey play` never
   meets because it plays untimed): the first move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from okey.v1 import game_pb2
from okey_rules.rulebook import HIGH_ONE  # with 12-13-1 runs, a 1 may follow 13 (§3.2)

Face = tuple[int, int]  # (colour enum value, number); a false joker plays as the okey's face



def is_okey(tile: Any, okey: Any) -> bool:
    """A wild: the okey's colour and number (a false joker is not one, docs/rules.md §2.3)."""
    return not tile.false_joker and (tile.color, tile.number) == (okey.color, okey.number)


def play_face(tile: Any, okey: Any) -> Face:
    """The face a tile plays as: its own, or the okey's for a false joker (§2.3)."""
    if tile.false_joker:
        return (okey.color, okey.number)
    return (tile.color, tile.number)


def run_gap(a: int, b: int, runs_13_to_1: bool) -> int:
    """How far apart two numbers of one colour are in a run; a 1 also counts as 14 (after 13)
    when 12-13-1 runs are allowed."""
    gap = abs(a - b)
    if runs_13_to_1 and 1 in (a, b):
        high = [HIGH_ONE if n == 1 else n for n in (a, b)]
        gap = min(gap, abs(high[0] - high[1]))
    return gap


def connections(face: Face, rack_faces: Iterable[Face], runs_13_to_1: bool) -> int:
    """How many distinct other faces in the rack could meld with `face`: the same number in
    another colour (a set), or the same colour one or two numbers away (a run).

    A second copy of the same face does not count (it melds with nothing the first copy
    does not), and neither do okeys: the caller leaves them out, since a wild connects to
    every tile alike.
    """
    colour, number = face
    count = 0
    for other in set(rack_faces):
        if other == face:
            continue
        other_colour, other_number = other
        same_number = other_number == number and other_colour != colour
        near_in_run = other_colour == colour and run_gap(number, other_number, runs_13_to_1) <= 2
        if same_number or near_in_run:
            count += 1
    return count


def rack_position(tile: Any, rack: Sequence[Any]) -> int:
    """Where the rack holds this very tile (face and copy), in received order; -1: nowhere."""
    for index, held in enumerate(rack):
        if (held.color, held.number, held.false_joker, held.copy) == (
            tile.color, tile.number, tile.false_joker, tile.copy,
        ):
            return index
    return -1


def choose_discard(view: game_pb2.PlayerViewResponse, candidates: Sequence[Any]) -> Any:
    """The tile to throw among `candidates` (tiles of the rack): never an okey while another
    tile is offered; the fewest connections; on a tie, the tile received last."""
    okey = view.okey
    not_wild = [t for t in candidates if not is_okey(t, okey)] or list(candidates)
    rack_faces = [play_face(t, okey) for t in view.rack if not is_okey(t, okey)]
    runs_13_to_1 = view.ruleset.runs_13_to_1

    def key(tile: Any) -> tuple[int, int]:
        score = connections(play_face(tile, okey), rack_faces, runs_13_to_1)
        return (score, -rack_position(tile, view.rack))

    return min(not_wild, key=key)


def choose_move(
    view: game_pb2.PlayerViewResponse, legal: Sequence[game_pb2.Move]
) -> game_pb2.Move | None:
    """The policy's move for the viewing seat, or None when LegalMoves offers none."""
    if not legal:
        return None
    by_kind: dict[int, list[game_pb2.Move]] = {}
    for move in legal:
        by_kind.setdefault(move.kind, []).append(move)

    if game_pb2.MOVE_KIND_GOSTERME in by_kind:
        return by_kind[game_pb2.MOVE_KIND_GOSTERME][0]
    wins = by_kind.get(game_pb2.MOVE_KIND_DECLARE_WIN, [])
    if wins:
        return next((m for m in wins if is_okey(m.tile, view.okey)), wins[0])
    # TAKE_DISCARD is offered beside DRAW_FROM_WALL too; it is reached only when the wall
    # is empty, where it is offered only to finish with it.
    for kind in (
        game_pb2.MOVE_KIND_DRAW_FROM_WALL,
        game_pb2.MOVE_KIND_TAKE_DISCARD,
        game_pb2.MOVE_KIND_END_ROUND,
    ):
        if kind in by_kind:
            return by_kind[kind][0]
    discards = by_kind.get(game_pb2.MOVE_KIND_DISCARD, [])
    if discards:
        tile = choose_discard(view, [m.tile for m in discards])
        return next(m for m in discards if m.tile == tile)
    return legal[0]
