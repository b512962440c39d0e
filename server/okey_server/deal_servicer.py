"""okey.v1.DealService: seeds (fresh, given or committed), the engine's deal, the answer."""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, deal_pb2_grpc
from okey_rules.deal_fairness import check_issued_deal_id, commitment_for, derive_seed
from okey_rules.errors import InvalidInputError

from okey_server.config import Config
from okey_server.convert_deal import deal_to_proto
from okey_server.convert_state import any_state_from_proto
from okey_server.deal_request import deal_for_request, new_deal_id


class DealServicer(deal_pb2_grpc.DealServiceServicer):
    """Thin: the shuffle and every dealing rule are in okey_rules; this class translates."""

    def __init__(self, config: Config) -> None:
        self._key = config.signing_key

    async def Deal(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.DealRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.DealResponse:
        dealt = deal_for_request(request, self._key)
        response = deal_to_proto(dealt.deal, self._key, dealt.state, dealt.committed)
        # The seed and commitment are the base seed's, even when client seeds
        # changed the seed the shuffle ran on (docs/dealing.md, "Client seeds").
        response.seed = "" if dealt.committed else dealt.seed
        response.commitment = commitment_for(dealt.seed)
        response.client_seeds.extend(dealt.client_seeds)
        return response

    async def CommitSeed(  # noqa: N802 (the RPC's name)
        self, _request: deal_pb2.CommitSeedRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.CommitSeedResponse:
        deal_id = new_deal_id(self._key)
        return deal_pb2.CommitSeedResponse(
            deal_id=deal_id, commitment=commitment_for(derive_seed(self._key, deal_id))
        )

    async def RevealSeed(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.RevealSeedRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.RevealSeedResponse:
        deal_id = check_issued_deal_id(self._key, request.deal_id)
        # Only once the round is over: a seed known during play would show every rack.
        state = any_state_from_proto(request.state, self._key)
        if state.deal_id != deal_id:
            raise InvalidInputError(
                "state", "this state belongs to another deal: pass the finished state of deal_id"
            )
        if state.outcome is None:
            raise InvalidInputError(
                "state",
                "the round is not over yet: the seed is revealed with the round's finished state",
            )
        seed = derive_seed(self._key, deal_id)
        return deal_pb2.RevealSeedResponse(
            deal_id=deal_id, seed=seed, commitment=commitment_for(seed)
        )
