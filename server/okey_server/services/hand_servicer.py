"""okey.v1.HandService: reads each call's inputs, asks the engine, writes the answer.

CheckHand's answer is written as bytes by convert_hand (measured: building
the message and serializing it costs the RPC about a sixth more server CPU);
the per-RPC wrapper sends a servicer's bytes as they are. BestOpening's is
an ordinary message (convert_opening): the search costs far more than that.
"""

from __future__ import annotations

import grpc
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.search.hand import check_hand, winning_discards

from okey_server.rpc.config import Config
from okey_server.services.check_hand_request import HAND_SIZES, hand_error, request_inputs
from okey_server.wire.convert_hand import discards_answer, hand_answer
from okey_server.wire.convert_opening import opening_answer, opening_inputs, openings


class HandServicer(hand_pb2_grpc.HandServiceServicer):
    """Thin: every rule is in okey_rules (hand, opening); this class only translates."""

    def __init__(self, config: Config) -> None:
        self._config = config

    async def CheckHand(  # noqa: N802 (the RPC's name)
        self, request: hand_pb2.CheckHandRequest,
        _context: grpc.aio.ServicerContext[hand_pb2.CheckHandRequest, bytes],
    ) -> bytes:
        """A CheckHandResponse, serialized."""
        # Every input is checked before the engine runs, so a bad request is
        # never mistaken for an engine failure.
        asked = request_inputs(request)
        tiles, okey, rules = asked.tiles, asked.okey, asked.rules
        try:
            if len(tiles) == HAND_SIZES[0]:
                verdict = check_hand(tiles, okey, rules)
                return hand_answer(verdict, asked.indicator, okey, asked.arrangements)
            verdicts = winning_discards(tiles, okey, rules)
            return discards_answer(verdicts, asked.indicator, okey, asked.arrangements)
        except InvalidInputError as exc:
            raise hand_error(exc, asked.hand_field) from None

    async def BestOpening(  # noqa: N802 (the RPC's name)
        self, request: hand_pb2.BestOpeningRequest,
        _context: grpc.aio.ServicerContext[
            hand_pb2.BestOpeningRequest, hand_pb2.BestOpeningResponse
        ],
    ) -> hand_pb2.BestOpeningResponse:
        """Okey 101: the most valuable melds and the most pairs of a rack
        (okey_rules.search.opening)."""
        asked = opening_inputs(request)
        melds, pairs = openings(asked)
        return opening_answer(melds, pairs, asked.indicator, asked.okey)
