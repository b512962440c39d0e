"""okey.v1.GameService: signed state in, the engine's judgement, signed state out.

Stateless: every call carries the state the server issued, checked against
its MAC before anything else; the rules are in okey_rules.game.
"""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, game_pb2, game_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.game import apply_move, check_playable, legal_moves, replay
from okey_rules.game_types import GameState
from okey_rules.game_view import player_view

from okey_server.config import Config
from okey_server.convert_game import (
    clock_ms,
    fill_events,
    illegal_reason_to_proto,
    move_from_proto,
    move_to_proto,
    view_to_proto,
)
from okey_server.convert_state import state_from_proto, state_to_proto
from okey_server.deal_request import deal_for_request


class GameServicer(game_pb2_grpc.GameServiceServicer):
    """Thin: translation only; every rule of play is in okey_rules.game."""

    def __init__(self, config: Config) -> None:
        self._key = config.signing_key

    async def ApplyMove(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ApplyMoveRequest, _context: grpc.aio.ServicerContext
    ) -> game_pb2.ApplyMoveResponse:
        state = state_from_proto(request.state, self._key)
        move = move_from_proto(request.move, "move")
        result = apply_move(state, move, clock_ms(request))
        if not result.legal or result.state is None:
            return game_pb2.ApplyMoveResponse(
                legal=False,
                reason=illegal_reason_to_proto(result.reason),  # type: ignore[arg-type]
                message=result.message,
            )
        answer = game_pb2.ApplyMoveResponse(
            legal=True, state=state_to_proto(result.state, self._key)
        )
        fill_events(answer.events, result.events, result.state)
        return answer

    async def LegalMoves(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.LegalMovesRequest, _context: grpc.aio.ServicerContext
    ) -> game_pb2.LegalMovesResponse:
        state = state_from_proto(request.state, self._key)
        moves = legal_moves(state, request.seat, clock_ms(request))
        return game_pb2.LegalMovesResponse(moves=[move_to_proto(move) for move in moves])

    async def PlayerView(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.PlayerViewRequest, _context: grpc.aio.ServicerContext
    ) -> game_pb2.PlayerViewResponse:
        state = state_from_proto(request.state, self._key)
        return view_to_proto(player_view(state, request.seat), state)

    async def Replay(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ReplayRequest, _context: grpc.aio.ServicerContext
    ) -> game_pb2.ReplayResponse:
        state = self._replay_start(request)
        log = [
            (move_from_proto(entry.move, f"moves[{index}].move"), clock_ms(entry))
            for index, entry in enumerate(request.moves)
        ]
        result = replay(state, log)
        answer = game_pb2.ReplayResponse(
            legal=result.legal,
            state=state_to_proto(result.state, self._key),
            moves_applied=result.applied,
        )
        if not result.legal:
            answer.illegal_index = result.illegal_index
            answer.reason = illegal_reason_to_proto(result.reason)  # type: ignore[assignment]
            answer.message = result.message
        fill_events(answer.events, result.events, result.state)
        return answer

    def _replay_start(self, request: game_pb2.ReplayRequest) -> GameState:
        start = request.WhichOneof("start")
        if start == "state":
            state = state_from_proto(request.state, self._key)
        elif start == "deal":
            state = _redealt(request.deal, self._key)
        else:
            raise InvalidInputError(
                "start", "a replay starts from a deal request (with its seed) or from a state"
            )
        check_playable(state, start)
        return state


def _redealt(request: deal_pb2.DealRequest, key: bytes) -> GameState:
    """The opening state of a seeded deal, dealt again; errors name ``deal.<field>``."""
    if request.deal_id or request.commit:
        field = "deal.deal_id" if request.deal_id else "deal.commit"
        raise InvalidInputError(
            field, "a committed deal cannot be re-dealt: replay from its opening state instead"
        )
    if not request.seed:
        raise InvalidInputError(
            "deal.seed", "replaying from a deal needs the seed it was dealt with"
        )
    try:
        return deal_for_request(request, key).state
    except InvalidInputError as exc:
        raise InvalidInputError(f"deal.{exc.field}", exc.description) from exc
