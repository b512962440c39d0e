"""A DealRequest turned into the engine's deal: one place for the Deal RPC and for Replay.

Three kinds of deal: seeded (the table's seed, or one the server draws),
committed (a secret seed sealed in a deal id with every input it binds) and
stacked (a position given tile by tile).
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

from okey.internal.v1 import round_state_pb2
from okey.v1 import deal_pb2, ruleset_pb2
from okey_rules.dealing.deal import DEFAULT_PLAYERS, deal, validate_deal_input
from okey_rules.dealing.deal_fairness import (
    CommitmentMismatchError,
    CommittedInputs,
    check_committed_client_seeds,
    commitment_for,
    seeded_deal_id,
    shuffle_seed,
)
from okey_rules.dealing.deal_stacked import stacked_deal
from okey_rules.dealing.deal_types import Deal, DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import RoundState, round_for
from okey_rules.ruleset import Ruleset

from okey_server.wire.convert_deal import method_from_proto
from okey_server.wire.convert_game import clock_ms
from okey_server.wire.convert_ruleset import ruleset_from_proto, ruleset_to_proto
from okey_server.wire.convert_tile import tile_from_proto
from okey_server.wire.sealing import (
    DEAL_ID,
    KeyRing,
    key_ring,
    seal,
    text_token,
    token_from_text,
    unseal,
)

FRESH_SEED_BYTES = 32  # a seed the server draws: 64 hex digits
# A table's round number stops here: no game runs a million rounds, and the
# bound keeps every number derived from it (the next round a scored state
# names) inside its uint32 field.
MAX_ROUND = 1_000_000


class DealtRound(NamedTuple):
    """A deal as a request asked for it, with its opening game state.

    `seed` is the base seed (the one a commitment covers and RevealSeed gives
    back); with client seeds, `deal.seed` is the mixed seed the shuffle ran on
    (docs/dealing.md, "Client seeds"). `deal_id` is what the answer's deal_id
    carries: a committed deal's secret token, a seeded deal's keyed id, or
    empty for a stacked deal.
    """

    deal: Deal
    deal_id: str
    committed: bool  # the seed stays secret until RevealSeed
    stacked: bool
    state: RoundState  # bound to the deal reference and the round
    seed: str
    client_seeds: tuple[str, ...]
    commitment: str  # a committed deal's commitment, else ""


class Commitment(NamedTuple):
    """An opened or new committed deal: its secret seed, inputs and resolved rules."""

    seed: str
    inputs: CommittedInputs
    rules: Ruleset

    @property
    def commitment(self) -> str:
        return commitment_for(self.seed, self.inputs)


def resolved_inputs(
    rules: Ruleset,
    player_count: int,
    dealer: int,
    method: DealMethod,
    round_number: int,
    *,
    client_seed_count: int,
    client_seed_hashes: tuple[bytes, ...] = (),
) -> CommittedInputs:
    """The inputs of a deal as a commitment binds them (defaults resolved, checked)."""
    check_round(round_number)
    players = validate_deal_input(rules, player_count, dealer, method, None)
    return CommittedInputs(
        game=rules.game.value,
        player_count=players,
        dealer=dealer,
        method=method.value,
        round=round_number or 1,
        client_seed_count=client_seed_count,
        client_seed_hashes=client_seed_hashes,
    )


def check_round(round_number: int, field: str = "round") -> None:
    if round_number > MAX_ROUND:
        raise InvalidInputError(field, f"a round number is at most {MAX_ROUND:,}")


def new_commitment(rules: Ruleset, inputs: CommittedInputs) -> Commitment:
    """A fresh secret seed committed with `inputs`."""
    return Commitment(secrets.token_hex(FRESH_SEED_BYTES), inputs, rules)


def seal_deal_id(keys: KeyRing | bytes, committed: Commitment) -> str:
    """The secret deal id of a commitment: its seed, inputs and rules, sealed."""
    inputs = committed.inputs
    message = round_state_pb2.CommittedDeal(
        seed=committed.seed,
        game=inputs.game,
        player_count=inputs.player_count,
        dealer_seat=inputs.dealer,
        method=inputs.method,
        round=inputs.round,
        client_seed_count=inputs.client_seed_count,
        client_seed_hashes=inputs.client_seed_hashes,
        ruleset=ruleset_to_proto(committed.rules).SerializeToString(deterministic=True),
    )
    return text_token(seal(keys, DEAL_ID, message.SerializeToString(deterministic=True)))


def open_deal_id(keys: KeyRing | bytes, deal_id: str, field: str = "deal_id") -> Commitment:
    """The commitment a deal id seals; INVALID_ARGUMENT on `field` unless this server's ring
    sealed it."""
    token = token_from_text(deal_id, field, "deal id")
    plaintext, _ = unseal(keys, DEAL_ID, token, field, "deal id")
    message = round_state_pb2.CommittedDeal.FromString(plaintext)
    rules = ruleset_from_proto("", ruleset_pb2.Ruleset.FromString(message.ruleset), field)
    inputs = CommittedInputs(
        game=message.game,
        player_count=message.player_count,
        dealer=message.dealer_seat,
        method=message.method,
        round=message.round,
        client_seed_count=message.client_seed_count,
        client_seed_hashes=tuple(message.client_seed_hashes),
    )
    return Commitment(message.seed, inputs, rules)


def _mismatch(field: str, asked: object, committed: object) -> CommitmentMismatchError:
    return CommitmentMismatchError(
        field, f"{asked} differs from the committed {committed}: exactly one deal can be "
        f"made under a commitment"
    )


def _check_same_rules(request: deal_pb2.DealRequest, rules: Ruleset, committed: Ruleset) -> None:
    if rules == committed:
        return
    asked = ruleset_to_proto(rules)
    bound = ruleset_to_proto(committed)
    for descriptor in bound.DESCRIPTOR.fields:
        mine, theirs = getattr(asked, descriptor.name), getattr(bound, descriptor.name)
        if mine != theirs:
            field = "preset" if request.preset and not request.HasField("ruleset") else (
                f"ruleset.{descriptor.name}"
            )
            if descriptor.enum_type is not None:
                mine = descriptor.enum_type.values_by_number[mine].name
                theirs = descriptor.enum_type.values_by_number[theirs].name
            raise _mismatch(field, f"{descriptor.name} {mine}", f"{theirs}")
    raise CommitmentMismatchError("ruleset", "the rules differ from the committed ones")


def _committed(request: deal_pb2.DealRequest, keys: KeyRing, rules: Ruleset) -> Commitment | None:
    """The commitment a request deals under, its inputs checked against the request's; None
    for a seeded or stacked deal."""
    if not request.deal_id:
        return None
    for name, given in (("seed", request.seed), ("dice", list(request.dice)),
                        ("stacked", request.HasField("stacked"))):
        if given:
            raise InvalidInputError(
                name, f"a deal under a commitment takes its seed and dice from the commitment: "
                f"leave {name} unset",
            )
    committed = open_deal_id(keys, request.deal_id)
    bound = committed.inputs
    _check_same_rules(request, rules, committed.rules)
    asked = (
        ("player_count", request.player_count or DEFAULT_PLAYERS, bound.player_count),
        ("dealer_seat", request.dealer_seat, bound.dealer),
        ("method", method_from_proto(request.method).value, bound.method),
        ("round", request.round or 1, bound.round),
    )
    for field, value, expected in asked:
        if value != expected:
            raise _mismatch(field, f"{field} {value}", f"{expected}")
    check_committed_client_seeds(bound, request.client_seeds)
    return committed


def _stacked(request: deal_pb2.DealRequest, rules: Ruleset, prefix: str) -> Deal:
    """The stacked position; field paths (also those quoted in messages) start `prefix`."""
    for name, given in (("seed", request.seed), ("dice", list(request.dice)),
                        ("client_seeds", list(request.client_seeds))):
        if given:
            raise InvalidInputError(name, f"a stacked deal places every tile: leave {name} unset")
    if method_from_proto(request.method) is not DealMethod.INFORMAL:
        raise InvalidInputError("method", "a stacked deal is informal: its tiles are given")
    stacked, where = request.stacked, f"{prefix}stacked"
    racks = [
        [tile_from_proto(t, f"{where}.racks[{seat}].tiles[{i}]").code
         for i, t in enumerate(rack.tiles)]
        for seat, rack in enumerate(stacked.racks)
    ]
    wall = [tile_from_proto(t, f"{where}.wall[{i}]").code for i, t in enumerate(stacked.wall)]
    if not stacked.HasField("indicator"):
        raise InvalidInputError(f"{where}.indicator", "a stacked deal needs its indicator")
    indicator = tile_from_proto(stacked.indicator, f"{where}.indicator").code
    return stacked_deal(
        rules, request.player_count, request.dealer_seat,
        racks=racks, wall=wall, indicator=indicator, field=where,
    )


def deal_for_request(
    request: deal_pb2.DealRequest, keys: KeyRing | bytes, prefix: str = ""
) -> DealtRound:
    """The deal a request asks for, its deal id and its opening state. A stacked
    position's field paths start `prefix` (Replay's "deal.")."""
    ring = key_ring(keys)
    check_round(request.round)
    rules = ruleset_from_proto(request.preset, request.ruleset)
    committed = _committed(request, ring, rules)
    client_seeds = tuple(request.client_seeds)
    commitment = ""
    if request.HasField("stacked"):
        dealt = _stacked(request, rules, prefix)
        seed, deal_id, deal_ref = "", "", ""
    else:
        if committed is not None:
            seed = committed.seed
        else:
            seed = request.seed or secrets.token_hex(FRESH_SEED_BYTES)
        dealt = deal(
            rules,
            request.player_count,
            request.dealer_seat,
            method_from_proto(request.method),
            seed=shuffle_seed(seed, client_seeds),
            dice=None if committed is not None else list(request.dice),
        )
        if committed is not None:
            commitment = committed.commitment
            deal_id = request.deal_id
            deal_ref = commitment
        else:
            # From the seed the shuffle ran on, so client seeds give the deal another id.
            deal_id = deal_ref = seeded_deal_id(ring.current.seeded_id_key, dealt.seed)
    # Okey 101 rounds are not timed: its round leaves the caller's clock unused.
    state = round_for(rules.game).start(
        dealt, deal_ref=deal_ref, round_number=request.round or 1, now_ms=clock_ms(request)
    )
    return DealtRound(
        dealt, deal_id, committed is not None, request.HasField("stacked"), state, seed,
        client_seeds, commitment,
    )
