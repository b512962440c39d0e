"""okey.v1.DealService: seeds (fresh, given or committed), the engine's deal, the answer."""

from __future__ import annotations

import secrets

import grpc
from okey.v1 import deal_pb2, deal_pb2_grpc
from okey_rules.deal import deal
from okey_rules.deal_fairness import check_deal_id, commitment_for, derive_seed
from okey_rules.errors import InvalidInputError

from okey_server.config import Config
from okey_server.convert_deal import deal_to_proto, method_from_proto
from okey_server.convert_ruleset import ruleset_from_proto

FRESH_SEED_BYTES = 32  # a seed the server draws: 64 hex digits
DEAL_ID_BYTES = 16  # a committed deal's id: 32 hex digits


class DealServicer(deal_pb2_grpc.DealServiceServicer):
    """Thin: the shuffle and every dealing rule are in okey_rules; this class translates."""

    def __init__(self, config: Config) -> None:
        self._key = config.signing_key

    async def Deal(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.DealRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.DealResponse:
        rules = ruleset_from_proto(request.preset, request.ruleset)
        method = method_from_proto(request.method)
        deal_id = ""
        if request.commit:
            if request.seed:
                raise InvalidInputError(
                    "seed", "a committed deal takes its seed from the server: leave seed empty"
                )
            deal_id = secrets.token_hex(DEAL_ID_BYTES)
            seed = derive_seed(self._key, deal_id)
        else:
            seed = request.seed or secrets.token_hex(FRESH_SEED_BYTES)
        dealt = deal(
            rules,
            request.player_count,
            request.dealer_seat,
            method,
            seed=seed,
            dice=list(request.dice),
        )
        return deal_to_proto(dealt, self._key, deal_id)

    async def RevealSeed(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.RevealSeedRequest, _context: grpc.aio.ServicerContext
    ) -> deal_pb2.RevealSeedResponse:
        deal_id = check_deal_id(request.deal_id)
        seed = derive_seed(self._key, deal_id)
        return deal_pb2.RevealSeedResponse(
            deal_id=deal_id, seed=seed, commitment=commitment_for(seed)
        )
