"""okey.v1.DealService: seeds (fresh, given or committed), the engine's deal, the answer."""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, deal_pb2_grpc
from okey_rules.deal_fairness import check_deal_id, commitment_for, derive_seed

from okey_server.config import Config
from okey_server.convert_deal import deal_to_proto
from okey_server.deal_request import deal_for_request


class DealServicer(deal_pb2_grpc.DealServiceServicer):
    """Thin: the shuffle and every dealing rule are in okey_rules; this class translates."""

    def __init__(self, config: Config) -> None:
        self._key = config.signing_key

    async def Deal(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.DealRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.DealResponse:
        dealt = deal_for_request(request, self._key)
        return deal_to_proto(dealt.deal, self._key, dealt.state, dealt.committed)

    async def RevealSeed(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.RevealSeedRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.RevealSeedResponse:
        deal_id = check_deal_id(request.deal_id)
        seed = derive_seed(self._key, deal_id)
        return deal_pb2.RevealSeedResponse(
            deal_id=deal_id, seed=seed, commitment=commitment_for(seed)
        )
