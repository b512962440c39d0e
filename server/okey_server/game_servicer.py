"""okey.v1.GameService: sealed state in, the engine's judgement, sealed state out.

Stateless: every call carries the state the server issued, checked against
its seal before anything else; the rules are in okey_rules.game.
"""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, game_pb2, game_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.game import apply_move, check_playable, legal_moves, replay
from okey_rules.game101 import apply_move_101, legal_moves_101, replay_101
from okey_rules.game101_types import State101
from okey_rules.game101_view import player_view_101
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
from okey_server.convert_game101 import (
    REASON_TO_PROTO as REASON_101_TO_PROTO,
)
from okey_server.convert_game101 import (
    fill_events_101,
    move_101_from_proto,
    move_101_to_proto,
    view_101_to_proto,
)
from okey_server.convert_state import state_from_token, state_token
from okey_server.deal_request import deal_for_request
from okey_server.round_status import round_status
from okey_server.sealing import KeyRing


class GameServicer(game_pb2_grpc.GameServiceServicer):
    """Thin: translation only; every rule of play is in okey_rules.game (classic) and
    okey_rules.game101 (Okey 101): the state's ruleset says which game it is."""

    def __init__(self, config: Config) -> None:
        self._keys = KeyRing(config.signing_key, config.previous_signing_keys)

    async def ApplyMove(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ApplyMoveRequest,
        _context: grpc.aio.ServicerContext[game_pb2.ApplyMoveRequest, game_pb2.ApplyMoveResponse],
    ) -> game_pb2.ApplyMoveResponse:
        state = state_from_token(request.state, self._keys)
        if isinstance(state, State101):
            return self._apply_101(state, request)
        move = move_from_proto(request.move, "move")
        result = apply_move(state, move, clock_ms(request))
        if not result.legal or result.state is None:
            return game_pb2.ApplyMoveResponse(
                legal=False,
                reason=illegal_reason_to_proto(result.reason),
                message=result.message,
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
        if isinstance(state, State101):
            moves_101 = legal_moves_101(state, request.seat)
            return game_pb2.LegalMovesResponse(moves=[move_101_to_proto(m) for m in moves_101])
        moves = legal_moves(state, request.seat, clock_ms(request))
        return game_pb2.LegalMovesResponse(moves=[move_to_proto(move) for move in moves])

    async def PlayerView(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.PlayerViewRequest,
        _context: grpc.aio.ServicerContext[game_pb2.PlayerViewRequest, game_pb2.PlayerViewResponse],
    ) -> game_pb2.PlayerViewResponse:
        state = state_from_token(request.state, self._keys)
        if isinstance(state, State101):
            return view_101_to_proto(player_view_101(state, request.seat))
        return view_to_proto(player_view(state, request.seat), state)

    async def Replay(  # noqa: N802 (the RPC's name)
        self, request: game_pb2.ReplayRequest,
        _context: grpc.aio.ServicerContext[game_pb2.ReplayRequest, game_pb2.ReplayResponse],
    ) -> game_pb2.ReplayResponse:
        state = self._replay_start(request)
        if isinstance(state, State101):
            return self._replay_101(state, request)
        log = [
            (move_from_proto(entry.move, f"moves[{index}].move"),
             clock_ms(entry, path=f"moves[{index}].now"))
            for index, entry in enumerate(request.moves)
        ]
        result = replay(state, log)
        answer = game_pb2.ReplayResponse(
            legal=result.legal,
            state=state_token(result.state, self._keys),
            moves_applied=result.applied,
            status=round_status(result.state),
        )
        if not result.legal:
            answer.illegal_index = result.illegal_index
            answer.reason = illegal_reason_to_proto(result.reason)
            answer.message = result.message
        fill_events(answer.events, result.events, result.state)
        return answer

    def _apply_101(
        self, state: State101, request: game_pb2.ApplyMoveRequest
    ) -> game_pb2.ApplyMoveResponse:
        result = apply_move_101(state, move_101_from_proto(request.move, "move"))
        if not result.legal or result.state is None:
            return game_pb2.ApplyMoveResponse(
                legal=False,
                reason=(
                    REASON_101_TO_PROTO[result.reason]
                    if result.reason
                    else game_pb2.ILLEGAL_REASON_UNSPECIFIED
                ),
                message=result.message,
            )
        answer = game_pb2.ApplyMoveResponse(
            legal=True,
            state=state_token(result.state, self._keys),
            status=round_status(result.state),
        )
        fill_events_101(answer.events, result.events, result.state.outcome)
        return answer

    def _replay_101(
        self, state: State101, request: game_pb2.ReplayRequest
    ) -> game_pb2.ReplayResponse:
        log = [
            move_101_from_proto(entry.move, f"moves[{index}].move")
            for index, entry in enumerate(request.moves)
        ]
        legal, final, applied, events, reason, message = replay_101(state, log)  # Replay101
        answer = game_pb2.ReplayResponse(
            legal=legal,
            moves_applied=applied,
            state=state_token(final, self._keys),
            status=round_status(final),
        )
        if not legal:
            answer.illegal_index = applied
            answer.reason = (
                REASON_101_TO_PROTO[reason] if reason else game_pb2.ILLEGAL_REASON_UNSPECIFIED
            )
            answer.message = message
        fill_events_101(answer.events, events, final.outcome)
        return answer

    def _replay_start(self, request: game_pb2.ReplayRequest) -> GameState | State101:
        start = request.WhichOneof("start")
        if start == "state":
            state = state_from_token(request.state, self._keys)
        elif start == "deal":
            state = _redealt(request.deal, self._keys)
        else:
            raise InvalidInputError(
                "start", "a replay starts from a deal request (with its seed) or from a state"
            )
        if isinstance(state, GameState):
            check_playable(state, start)
        return state


def _redealt(request: deal_pb2.DealRequest, keys: KeyRing) -> GameState | State101:
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
