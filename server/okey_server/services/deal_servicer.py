"""okey.v1.DealService: seeds (fresh, given or committed), stacked positions, the answer."""

from __future__ import annotations

import grpc
from okey.v1 import deal_pb2, deal_pb2_grpc
from okey_rules.dealing.deal import DEFAULT_PLAYERS
from okey_rules.dealing.deal_fairness import CommittedInputs
from okey_rules.dealing.deal_types import DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Game

from okey_server.rpc.config import Config
from okey_server.services.deal_request import (
    deal_for_request,
    new_commitment,
    open_deal_id,
    resolved_inputs,
    seal_deal_id,
)
from okey_server.wire.convert_deal import METHOD_TO_PROTO, deal_to_proto, method_from_proto
from okey_server.wire.convert_ruleset import GAME_TO_PROTO, ruleset_from_proto
from okey_server.wire.convert_state import state_from_token, state_token
from okey_server.wire.round_status import round_status
from okey_server.wire.sealing import KeyRing

HASH_HEX_DIGITS = 64


def inputs_to_proto(inputs: CommittedInputs) -> deal_pb2.CommittedInputs:
    return deal_pb2.CommittedInputs(
        game=GAME_TO_PROTO[Game(inputs.game)],
        player_count=inputs.player_count,
        dealer_seat=inputs.dealer,
        method=METHOD_TO_PROTO[DealMethod(inputs.method)],
        round=inputs.round,
        client_seed_count=inputs.client_seed_count,
        client_seed_hashes=[digest.hex() for digest in inputs.client_seed_hashes],
    )


def _client_seed_hashes(request: deal_pb2.CommitSeedRequest, players: int) -> tuple[bytes, ...]:
    """The committed hashes of the players' client seeds, one per seat; () with
    `no_client_seeds`."""
    hashes = list(request.client_seed_hashes)
    if request.no_client_seeds:
        if hashes:
            raise InvalidInputError(
                "client_seed_hashes", "no_client_seeds is set: a deal without client seeds has"
                " no hashes to commit",
            )
        return ()
    if len(hashes) != players:
        raise InvalidInputError(
            "client_seed_hashes",
            f"{len(hashes)} hashes given; commit the SHA-256 of one client seed per seat "
            f"({players}, in seat order), or set no_client_seeds",
        )
    digests = []
    for seat, text in enumerate(hashes):
        if len(text) != HASH_HEX_DIGITS or text.strip("0123456789abcdef"):
            raise InvalidInputError(
                f"client_seed_hashes[{seat}]",
                "a client seed's hash is its SHA-256 in 64 lower-case hex digits",
            )
        digests.append(bytes.fromhex(text))
    return tuple(digests)


class DealServicer(deal_pb2_grpc.DealServiceServicer):
    """Thin: the shuffle and every dealing rule are in okey_rules; this class translates."""

    def __init__(self, config: Config) -> None:
        self._keys = KeyRing(config.signing_key, config.previous_signing_keys)

    async def Deal(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.DealRequest,
        _context: grpc.aio.ServicerContext[deal_pb2.DealRequest, deal_pb2.DealResponse],
    ) -> deal_pb2.DealResponse:
        dealt = deal_for_request(request, self._keys)
        response = deal_to_proto(dealt.deal)
        # A committed deal's seed stays secret; the seed given back is the base
        # seed, even when client seeds changed the one the shuffle ran on.
        response.seed = "" if dealt.committed else dealt.seed
        response.commitment = dealt.commitment
        response.deal_id = dealt.deal_id
        response.round = dealt.state.round
        response.client_seeds.extend(dealt.client_seeds)
        response.state = state_token(dealt.state, self._keys)
        response.status.CopyFrom(round_status(dealt.state))
        return response

    async def CommitSeed(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.CommitSeedRequest,
        _context: grpc.aio.ServicerContext[deal_pb2.CommitSeedRequest, deal_pb2.CommitSeedResponse],
    ) -> deal_pb2.CommitSeedResponse:
        rules = ruleset_from_proto(request.preset, request.ruleset)
        method = method_from_proto(request.method)
        players = request.player_count or DEFAULT_PLAYERS
        hashes = _client_seed_hashes(request, players)
        count = 0 if request.no_client_seeds else players
        inputs = resolved_inputs(
            rules, request.player_count, request.dealer_seat, method, request.round,
            client_seed_count=count, client_seed_hashes=hashes,
        )
        committed = new_commitment(rules, inputs)
        return deal_pb2.CommitSeedResponse(
            deal_id=seal_deal_id(self._keys, committed),
            commitment=committed.commitment,
            inputs=inputs_to_proto(inputs),
        )

    async def RevealSeed(  # noqa: N802 (the RPC's name)
        self, request: deal_pb2.RevealSeedRequest,
        _context: grpc.aio.ServicerContext[deal_pb2.RevealSeedRequest, deal_pb2.RevealSeedResponse],
    ) -> deal_pb2.RevealSeedResponse:
        committed = open_deal_id(self._keys, request.deal_id)
        # Only once the round is over: a seed known during play would show every rack.
        state = state_from_token(request.state, self._keys)
        if state.deal_id != committed.commitment:
            raise InvalidInputError(
                "state", "this state belongs to another deal: pass the finished state of deal_id"
            )
        if state.outcome is None:
            raise InvalidInputError(
                "state",
                "the round is not over yet: the seed is revealed with the round's finished state",
            )
        return deal_pb2.RevealSeedResponse(
            deal_id=request.deal_id,
            seed=committed.seed,
            commitment=committed.commitment,
            inputs=inputs_to_proto(committed.inputs),
        )

