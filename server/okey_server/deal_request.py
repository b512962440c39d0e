"""A DealRequest turned into the engine's deal: one place for the Deal RPC and for Replay."""

from __future__ import annotations

import secrets
from typing import NamedTuple

from okey.v1 import deal_pb2
from okey_rules.deal import deal
from okey_rules.deal_fairness import (
    DEAL_ID_NONCE_BYTES,
    check_deal_id,
    check_issued_deal_id,
    derive_seed,
    seeded_deal_id,
    shuffle_seed,
    tagged_deal_id,
)
from okey_rules.deal_types import Deal
from okey_rules.errors import InvalidInputError
from okey_rules.game import start_round
from okey_rules.game101 import start_round_101
from okey_rules.game101_types import State101
from okey_rules.game_types import GameState
from okey_rules.ruleset import Game

from okey_server.convert_deal import method_from_proto
from okey_server.convert_game import clock_ms
from okey_server.convert_ruleset import ruleset_from_proto

FRESH_SEED_BYTES = 32  # a seed the server draws: 64 hex digits


class DealtRound(NamedTuple):
    """A deal as a request asked for it, with its opening game state.

    `seed` is the base seed (the one the commitment covers and RevealSeed
    gives back); with client seeds, `deal.seed` is the mixed seed the
    shuffle ran on (docs/dealing.md, "Client seeds").
    """

    deal: Deal
    deal_id: str
    committed: bool  # the seed stays secret until RevealSeed
    state: GameState | State101  # bound to the deal id and the round
    seed: str
    client_seeds: tuple[str, ...]


def new_deal_id(key: bytes) -> str:
    """A fresh committed deal id under `key`: 12 secure random bytes and their 4-byte tag,
    as 32 lower-case hex digits."""
    return tagged_deal_id(key, secrets.token_bytes(DEAL_ID_NONCE_BYTES))


def _committed_seed(request: deal_pb2.DealRequest, key: bytes) -> tuple[str, str]:
    """(deal id, secret seed) of a committed request, or ("", "") for a seeded one."""
    if request.deal_id:
        check_deal_id(request.deal_id)
        if request.seed:
            raise InvalidInputError(
                "seed", "a deal from a CommitSeed id takes its seed from the server: leave seed"
                " empty",
            )
        if request.commit:
            raise InvalidInputError(
                "commit", "a deal from a CommitSeed id is committed already: leave commit unset"
            )
        check_issued_deal_id(key, request.deal_id)
        return request.deal_id, derive_seed(key, request.deal_id)
    if request.commit:
        if request.seed:
            raise InvalidInputError(
                "seed", "a committed deal takes its seed from the server: leave seed empty"
            )
        deal_id = new_deal_id(key)
        return deal_id, derive_seed(key, deal_id)
    return "", ""


# A table's round number stops here: no game runs a million rounds, and the
# bound keeps every number derived from it (the next round a scored state
# names) inside its uint32 field.
MAX_ROUND = 1_000_000


def deal_for_request(request: deal_pb2.DealRequest, key: bytes) -> DealtRound:
    """The deal a request asks for, its deal id and its opening state."""
    if request.round > MAX_ROUND:
        raise InvalidInputError("round", f"a round number is at most {MAX_ROUND:,}")
    rules = ruleset_from_proto(request.preset, request.ruleset)
    method = method_from_proto(request.method)
    deal_id, seed = _committed_seed(request, key)
    if not seed:
        seed = request.seed or secrets.token_hex(FRESH_SEED_BYTES)
    client_seeds = tuple(request.client_seeds)
    dealt = deal(
        rules,
        request.player_count,
        request.dealer_seat,
        method,
        seed=shuffle_seed(seed, client_seeds),
        dice=list(request.dice),
    )
    committed = bool(deal_id)
    if not committed:
        # From the seed the shuffle ran on, so client seeds give the deal another id.
        deal_id = seeded_deal_id(dealt.seed)
    state: GameState | State101
    if rules.game is Game.OKEY_101:
        # Okey 101 rounds are not timed: the caller's clock is not used.
        state = start_round_101(dealt, deal_id=deal_id, round_number=request.round or 1)
    else:
        state = start_round(
            dealt,
            deal_id=deal_id,
            round_number=request.round or 1,
            now_ms=clock_ms(request),
        )
    return DealtRound(dealt, deal_id, committed, state, seed, client_seeds)
