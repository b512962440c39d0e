"""Helpers for the Okey 101 service tests: positions arranged with the engine tests'
notation and sealed with the test server's key, moves written as okey.v1 messages, and a
plain policy that plays a round through GameService.

The moves are converted here, not with the server's converter, so the tests do not check
the converter against itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

from game_service_helpers import MAX_MOVES, PlayedRound, Position, Table, position, same_face
from okey.v1 import game_pb2, state_pb2, tile_pb2
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import Move, MoveKind
from okey_rules.tiles import FACES
from okey_server.wire.convert_state import state_from_token, state_token

# The engine tests' positions (game101_support: racks, bank, table melds from notation),
# re-exported here: the service tests' directory alone is on the path when they run alone.
_UNIT = str(Path(__file__).resolve().parent.parent / "unit")
if _UNIT not in sys.path:
    sys.path.append(_UNIT)

from game101_support import (  # noqa: E402 (needs the path above)
    after,
    arranged,
    draw,
    finish,
    lay_meld,
    lay_off,
    one,
    open_melds,
    penalised,
    take,
    with_rules,
)

__all__ = [
    "KEY", "after", "arranged", "draw", "engine", "finish", "lay_meld", "lay_off", "one",
    "open_melds", "pb_code", "pb_move", "penalised", "play_101_round", "policy_101", "signed",
    "take", "with_rules",
]

KEY = b"okey 101 service test key, 32 b."
FALSE_JOKER_FACE = FACES - 1
NUMBERS = 13

MOVE_KIND: dict[MoveKind, int] = {
    MoveKind.DISCARD: game_pb2.MOVE_KIND_DISCARD,
    MoveKind.DRAW_FROM_WALL: game_pb2.MOVE_KIND_DRAW_FROM_WALL,
    MoveKind.TAKE_DISCARD: game_pb2.MOVE_KIND_TAKE_DISCARD,
    MoveKind.RETURN_DISCARD: game_pb2.MOVE_KIND_RETURN_DISCARD,
    MoveKind.OPEN: game_pb2.MOVE_KIND_OPEN,
    MoveKind.LAY_MELD: game_pb2.MOVE_KIND_LAY_MELD,
    MoveKind.LAY_OFF: game_pb2.MOVE_KIND_LAY_OFF,
    MoveKind.TAKE_BACK: game_pb2.MOVE_KIND_TAKE_BACK,
}


def pb_code(code: int) -> tile_pb2.Tile:
    """The physical tile `code` (copy * 53 + face; face 52 the false joker) as a message."""
    copy, face = divmod(code, FACES)
    if face == FALSE_JOKER_FACE:
        return tile_pb2.Tile(false_joker=True, copy=copy)
    colour, number = divmod(face, NUMBERS)
    return tile_pb2.Tile(color=colour + 1, number=number + 1, copy=copy)  # type: ignore[arg-type]


def pb_move(move: Move) -> game_pb2.Move:
    """An engine move as the okey.v1 Move a client sends: melds as MeldPlay/LaidTile, an
    okey's face as stands_for."""
    message = game_pb2.Move(kind=MOVE_KIND[move.kind], seat=move.seat,  # type: ignore[arg-type]
                            pairs=move.pairs, meld=move.meld)
    if move.tile is not None:
        message.tile.CopyFrom(pb_code(move.tile))
    if move.face is not None:
        message.stands_for.CopyFrom(pb_code(move.face))
    for group in move.melds:
        meld = message.melds.add()
        for code, face in group:
            laid = meld.tiles.add(tile=pb_code(code))
            if face is not None:
                laid.stands_for.CopyFrom(pb_code(face))
    return message


def signed(state: State101) -> bytes:
    """An arranged position sealed as the test server would have issued it (the test knows
    its key): these tests are about the 101 rules of positions no seeded deal reaches."""
    return state_token(state, KEY)


def engine(token: Position | bytes) -> State101:
    """What a sealed 101 state holds, opened with the server's key."""
    state = state_from_token(token.token if isinstance(token, Position) else token, KEY)
    assert isinstance(state, State101)
    return state


def policy_101(table: Table, state: Position) -> game_pb2.Move:
    """The seat on turn's move from its own view: draw from the bank; discard the tile just
    drawn, or (an okey drawn, or the dealer's first discard) the first rack tile that is
    not an okey, so the policy pays no penalty."""
    seat = state.turn_seat
    offered = {move.kind for move in table.legal(state, seat)}
    if game_pb2.MOVE_KIND_DRAW_FROM_WALL in offered:
        return game_pb2.Move(kind=game_pb2.MOVE_KIND_DRAW_FROM_WALL, seat=seat)
    view = table.view(state, seat)
    rack = list(view.rack)
    candidates = [rack[-1], *rack] if state.move_number else rack
    tile = next(t for t in candidates if not same_face(t, view.okey))
    return game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=seat, tile=tile)


def play_101_round(table: Table, opening: Position) -> PlayedRound:
    """A 101 round played to its end by `policy_101`, every move through ApplyMove."""
    played = PlayedRound([opening], [], [])
    state = opening
    for _ in range(MAX_MOVES):
        if state.phase == state_pb2.PHASE_ROUND_OVER:
            return played
        chosen = policy_101(table, state)
        answer = table.apply(state, chosen)
        assert answer.legal, (chosen, answer.reason, answer.message)
        state = position(answer)
        played.states.append(state)
        played.moves.append(chosen)
        played.events.extend(answer.events)
    raise AssertionError(f"the round did not end within {MAX_MOVES} moves")
