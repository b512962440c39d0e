"""okey.v1.GameService: sealed state in, the engine's judgement, sealed state out.

Stateless: every call carries the state the server issued, checked against
its seal before anything else; the rules are in okey_rules (okey_rules.play.round picks the
game's).
"""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, game_pb2, game_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import RoundState, round_of

from okey_server.rpc.config import Config
from okey_server.services.deal_request import deal_for_request
from okey_server.wire.convert_game import (
    clock_ms,
    fill_events,
    illegal_reason_to_proto,
    move_from_proto,
    move_to_proto,
    view_to_proto,
)
from okey_server.wire.convert_state import state_from_token, state_token
from okey_server.wire.round_status import round_status
from okey_server.wire.sealing import KeyRing


class GameServicer(game_pb2_grpc.GameServiceServicer):
    """Thin: translation only. The state's rules pick the game's round (its rules of
    play, okey_rules.play.round); both games' moves, events and views are translated the
    same way (okey_server.wire.convert_game). Nothing here asks which game it is."""

    def __init__(self, config: Config) -> None:
        self._keys = KeyRing(config.signing_key, config.previous_signing_keys)

    async def ApplyMove(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ApplyMoveRequest,
        _context: grpc.aio.ServicerContext[game_pb2.ApplyMoveRequest, game_pb2.ApplyMoveResponse],
    ) -> game_pb2.ApplyMoveResponse:
        state = state_from_token(request.state, self._keys)
        move = move_from_proto(request.move, "move")
        result = round_of(state).apply(state, move, clock_ms(request))
        if not result.legal or result.state is None:
            return game_pb2.ApplyMoveResponse(
                legal=False, reason=illegal_reason_to_proto(result.reason), message=result.message
            )
        answer = game_pb2.ApplyMoveResponse(
            legal=True,
            state=state_token(result.state, self._keys),
            status=round_status(result.state),
        )
        fill_events(answer.events, result.events, result.state)
        return answer

    async def LegalMoves(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.LegalMovesRequest,
        _context: grpc.aio.ServicerContext[game_pb2.LegalMovesRequest, game_pb2.LegalMovesResponse],
    ) -> game_pb2.LegalMovesResponse:
        state = state_from_token(request.state, self._keys)
        moves = round_of(state).legal_moves(state, request.seat, clock_ms(request))
        return game_pb2.LegalMovesResponse(moves=[move_to_proto(move) for move in moves])

    async def PlayerView(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.PlayerViewRequest,
        _context: grpc.aio.ServicerContext[game_pb2.PlayerViewRequest, game_pb2.PlayerViewResponse],
    ) -> game_pb2.PlayerViewResponse:
        state = state_from_token(request.state, self._keys)
        return view_to_proto(round_of(state).view(state, request.seat))

    async def Replay(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ReplayRequest,
        _context: grpc.aio.ServicerContext[game_pb2.ReplayRequest, game_pb2.ReplayResponse],
    ) -> game_pb2.ReplayResponse:
        state = self._replay_start(request)
        log = [
            (move_from_proto(entry.move, f"moves[{index}].move"),
             clock_ms(entry, path=f"moves[{index}].now"))
            for index, entry in enumerate(request.moves)
        ]
        result = round_of(state).replay(state, log)
        answer = game_pb2.ReplayResponse(
            legal=result.legal,
            state=state_token(result.state, self._keys),
            moves_applied=result.applied,
            status=round_status(result.state),
        )
        if not result.legal:
            answer.illegal_index = result.applied  # the first move not applied
            answer.reason = illegal_reason_to_proto(result.reason)
            answer.message = result.message
        fill_events(answer.events, result.events, result.state)
        return answer

    def _replay_start(self, request: game_pb2.ReplayRequest) -> RoundState:
        start = request.WhichOneof("start")
        if start == "state":
            return state_from_token(request.state, self._keys)
        if start == "deal":
            return _redealt(request.deal, self._keys)
        raise InvalidInputError(
            "start", "a replay starts from a deal request (with its seed) or from a state"
        )


def _redealt(request: deal_pb2.DealRequest, keys: KeyRing) -> RoundState:
    """The opening state of a seeded or stacked deal, dealt again; errors name
    ``deal.<field>``."""
    if request.deal_id:
        raise InvalidInputError(
            "deal.deal_id",
            "a committed deal cannot be re-dealt here: replay from its opening state instead",
        )
    if not request.seed and not request.HasField("stacked"):
        raise InvalidInputError(
            "deal.seed", "replaying from a deal needs the seed it was dealt with"
        )
    try:
        return deal_for_request(request, keys, prefix="deal.").state
    except InvalidInputError as exc:
        field = exc.field if exc.field.startswith("deal.") else f"deal.{exc.field}"
        raise InvalidInputError(field, exc.description) from exc
