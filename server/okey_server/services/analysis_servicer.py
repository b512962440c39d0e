"""okey.v1.AnalysisService: a hand's distance to a win and its useful draws
(okey_rules.analysis), and a bot's move for a seat."""

from __future__ import annotations

import grpc
from okey.v1 import analysis_pb2, analysis_pb2_grpc
from okey_rules.analysis.hand_analysis import analyze, analyze_view
from okey_rules.bots.suggest import suggest_move
from okey_rules.bots.waiting import DEFAULT_LEVEL, check_level, why_no_move
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import round_of

from okey_server.rpc.config import Config
from okey_server.services.check_hand_request import hand_error, indicator_and_okey
from okey_server.wire.convert_analysis import (
    analysis_answer,
    refuse_hand_beside_state,
    request_tiles,
    seen_tiles,
)
from okey_server.wire.convert_game import clock_ms, move_to_proto
from okey_server.wire.convert_ruleset import ruleset_from_proto
from okey_server.wire.convert_state import state_from_token
from okey_server.wire.sealing import KeyRing


class AnalysisServicer(analysis_pb2_grpc.AnalysisServiceServicer):
    """Thin: the analysis and the bots are the engine's; this class only translates."""

    def __init__(self, config: Config) -> None:
        self._keys = KeyRing(config.signing_key, config.previous_signing_keys)

    async def AnalyzeHand(  # noqa: N802 (the RPC's name)
        self, request: analysis_pb2.AnalyzeHandRequest,
        _context: grpc.aio.ServicerContext[
            analysis_pb2.AnalyzeHandRequest, analysis_pb2.AnalyzeHandResponse
        ],
    ) -> analysis_pb2.AnalyzeHandResponse:
        if request.state:
            refuse_hand_beside_state(request)
            state = state_from_token(request.state, self._keys)
            return analysis_answer(analyze_view(round_of(state).view(state, request.seat)))
        tiles, hand_field = request_tiles(request)
        _, okey = indicator_and_okey(request)
        rules = ruleset_from_proto(request.preset, request.ruleset)
        seen = seen_tiles(request)
        try:
            found = analyze(tiles, okey, rules, seen)
        except InvalidInputError as exc:
            raise hand_error(exc, hand_field) from None
        return analysis_answer(found)

    async def SuggestMove(  # noqa: N802 (the RPC's name)
        self, request: analysis_pb2.SuggestMoveRequest,
        _context: grpc.aio.ServicerContext[
            analysis_pb2.SuggestMoveRequest, analysis_pb2.SuggestMoveResponse
        ],
    ) -> analysis_pb2.SuggestMoveResponse:
        """The bot's move for the seat, from that seat's view and legal moves only."""
        state = state_from_token(request.state, self._keys)
        rounds = round_of(state)
        legal = rounds.legal_moves(state, request.seat, clock_ms(request))
        view = rounds.view(state, request.seat)
        level = request.level or DEFAULT_LEVEL
        if not legal:
            check_level(level)
            return analysis_pb2.SuggestMoveResponse(reason=why_no_move(view), level=level)
        chosen = suggest_move(view, legal, level)
        return analysis_pb2.SuggestMoveResponse(
            move=move_to_proto(chosen.move), reason=chosen.reason, level=level)
