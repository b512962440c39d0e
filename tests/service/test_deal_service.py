"""DealService through a real server: seeds, commit and reveal, formal procedure, state, errors."""

from __future__ import annotations

import hashlib
import re

import grpc
import pytest
from fair_deal_helpers import play_to_the_end
from okey.v1 import deal_pb2, deal_pb2_grpc, ruleset_pb2, state_pb2
from okey_rules import Ruleset, format_tile, preset
from okey_rules.deal import deal
from okey_rules.deal_types import DealMethod
from okey_rules.shuffle import shuffled_codes
from okey_server.state_mac import state_mac_ok
from service_helpers import code_of, codes_of, decode_error, notation_of

pytestmark = pytest.mark.service

FORMAL = deal_pb2.DEAL_METHOD_FORMAL
HEX64 = re.compile(r"[0-9a-f]{64}")
KEY = b"deal service test key"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)


def _stub(channel: grpc.Channel) -> deal_pb2_grpc.DealServiceStub:
    return deal_pb2_grpc.DealServiceStub(channel)


def _same_deal(response: deal_pb2.DealResponse, expected) -> None:
    assert code_of(response.indicator) == expected.indicator
    assert notation_of(response.indicator) == format_tile(expected.indicator_tile)
    assert notation_of(response.okey) == format_tile(expected.okey)
    assert [codes_of(rack.tiles) for rack in response.racks] == [list(r) for r in expected.racks]
    assert codes_of(response.wall) == list(expected.wall)
    assert response.first_seat == expected.first_seat


@pytest.mark.parametrize(
    ("request_fields", "engine_args"),
    [
        pytest.param({"seed": "42"}, {}, id="classic-informal-4"),
        pytest.param({"seed": "s", "player_count": 2, "dealer_seat": 1},
                     {"player_count": 2, "dealer": 1}, id="classic-informal-2"),
        pytest.param({"seed": "s", "preset": "101", "dealer_seat": 2},
                     {"rules": preset("101"), "dealer": 2}, id="okey-101"),
        pytest.param({"seed": "s", "ruleset": ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101)},
                     {"rules": preset("101")}, id="okey-101-by-ruleset-game"),
        pytest.param({"seed": "t", "method": FORMAL, "dealer_seat": 3},
                     {"method": DealMethod.FORMAL, "dealer": 3}, id="classic-formal"),
        pytest.param({"seed": "t", "method": FORMAL, "dice": [3, 4]},
                     {"method": DealMethod.FORMAL, "dice": [3, 4]}, id="formal-given-dice"),
        pytest.param({"seed": "d", "ruleset": ruleset_pb2.Ruleset(indicator_drawable_last=True)},
                     {"rules": Ruleset(indicator_drawable_last=True)}, id="indicator-drawable"),
    ],
)
def test_deal_answers_what_the_engine_deals(channel, request_fields, engine_args):
    response = _stub(channel).Deal(deal_pb2.DealRequest(**request_fields))
    _same_deal(response, deal(seed=request_fields["seed"], **engine_args))
    assert response.seed == request_fields["seed"]
    assert response.commitment == hashlib.sha256(request_fields["seed"].encode()).hexdigest()


def test_same_request_same_answer_byte_for_byte(channel):
    request = deal_pb2.DealRequest(seed="bytes", method=FORMAL)
    first = _stub(channel).Deal(request).SerializeToString(deterministic=True)
    assert _stub(channel).Deal(request).SerializeToString(deterministic=True) == first


def test_no_seed_draws_a_fresh_secure_seed_and_returns_it(channel):
    stub = _stub(channel)
    first, second = stub.Deal(deal_pb2.DealRequest()), stub.Deal(deal_pb2.DealRequest())
    assert HEX64.fullmatch(first.seed)
    assert first.seed != second.seed
    again = stub.Deal(deal_pb2.DealRequest(seed=first.seed))
    assert list(again.wall) == list(first.wall)
    assert [r.tiles for r in again.racks] == [r.tiles for r in first.racks]


def test_committed_deal_hides_the_seed_and_reveal_gives_it_back(make_server):
    """docs/dealing.md, "Fairness you can verify": commit: true withholds the seed; once the
    round is over RevealSeed gives it back, matching the commitment and dealing the racks."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        stub = _stub(opened)
        committed = stub.Deal(deal_pb2.DealRequest(commit=True, player_count=3))
        assert committed.seed == ""
        assert re.fullmatch(r"[0-9a-f]{32}", committed.deal_id)
        finished = play_to_the_end(committed.state, KEY)
        revealed = stub.RevealSeed(
            deal_pb2.RevealSeedRequest(deal_id=committed.deal_id, state=finished)
        )
    assert hashlib.sha256(revealed.seed.encode()).hexdigest() == committed.commitment
    assert revealed.commitment == committed.commitment
    _same_deal(committed, deal(player_count=3, seed=revealed.seed))


def test_formal_response_shows_the_procedure(channel):
    response = _stub(channel).Deal(deal_pb2.DealRequest(seed="proc", method=FORMAL))
    formal = response.formal
    assert len(formal.stacks) == 21
    order = shuffled_codes("proc")
    assert [codes_of(s.tiles) for s in formal.stacks] == [
        order[5 * k : 5 * k + 5] for k in range(21)
    ]
    assert code_of(formal.spare) == order[105]
    assert formal.indicator_stack == formal.dice[0] - 1
    assert formal.indicator_position == formal.dice[-1]
    assert not formal.dice_given
    assert formal.stacks[formal.indicator_stack].letter == ""
    assert formal.stacks[(formal.indicator_stack + 1) % 21].letter == "a"
    assert [t.letter for t in formal.takes] == list("abcdefghijjkkl")
    assert sum(len(t.tiles) for t in formal.takes) == 57
    assert formal.stacks[0].notation.split() == [
        notation_of(t) for t in formal.stacks[0].tiles]


def test_rack_notation_is_sorted_by_colour_then_number(channel):
    response = _stub(channel).Deal(deal_pb2.DealRequest(seed="sorted"))
    for rack in response.racks:
        words = rack.notation.split()
        assert len(words) == len(rack.tiles)
        assert sorted(notation_of(t) for t in rack.tiles) == sorted(words)
        keys = [(w == "F", "RYBK".find(w[0]), int(w[1:]) if w != "F" else 0) for w in words]
        assert keys == sorted(keys)


def test_opening_state_is_signed_and_ready_for_the_first_discard(make_server):
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        response = _stub(opened).Deal(deal_pb2.DealRequest(seed="state", preset="101",
                                                           dealer_seat=2))
    state = response.state
    assert state.phase == state_pb2.PHASE_FIRST_DISCARD
    assert state.turn_seat == 2 == response.first_seat
    assert state.move_number == 0
    assert [list(s.rack) for s in state.seats] == [codes_of(r.tiles) for r in response.racks]
    assert all(not s.discards for s in state.seats)
    assert list(state.wall) == codes_of(response.wall)
    assert state.indicator == code_of(response.indicator)
    assert state.okey_face == (response.okey.color - 1) * 13 + response.okey.number - 1
    assert state.ruleset.game == ruleset_pb2.GAME_OKEY_101
    assert state.ruleset.HasField("indicator_drawable_last")
    assert len(state.mac) == 32
    assert state_mac_ok(state, KEY)
    assert not state_mac_ok(state, b"another key")
    tampered = state_pb2.GameState()
    tampered.CopyFrom(state)
    tampered.seats[0].rack[0], tampered.wall[0] = tampered.wall[0], tampered.seats[0].rack[0]
    assert not state_mac_ok(tampered, KEY)


def _reroll_case() -> tuple[str, list[int]]:
    """A seed and dice whose die 2 hits a false joker (found via the engine's shuffle)."""
    for n in range(1000):
        order = shuffled_codes(f"reroll-{n}")
        for die1 in range(1, 7):
            tall = [*order[5 * (die1 - 1) : 5 * die1], order[105]]
            for die2, code in enumerate(tall, 1):
                if code % 53 == 52:
                    return f"reroll-{n}", [die1, die2]
    raise AssertionError("no seed with a false joker in reach")


REROLL_SEED, REROLL_DICE = _reroll_case()

# (id naming the rule, request, field the violation must name)
BAD_REQUESTS = [
    ("player-count-5", deal_pb2.DealRequest(player_count=5), "player_count"),
    ("player-count-1", deal_pb2.DealRequest(player_count=1), "player_count"),
    ("okey-101-needs-4-players", deal_pb2.DealRequest(preset="101", player_count=3),
     "player_count"),
    ("dealer-seat-4-of-4", deal_pb2.DealRequest(dealer_seat=4), "dealer_seat"),
    ("dealer-seat-2-of-2", deal_pb2.DealRequest(player_count=2, dealer_seat=2), "dealer_seat"),
    ("formal-with-3-players", deal_pb2.DealRequest(method=FORMAL, player_count=3), "method"),
    ("formal-with-okey-101", deal_pb2.DealRequest(method=FORMAL, preset="101"), "method"),
    ("unknown-method-value", deal_pb2.DealRequest(method=7), "method"),
    ("die-7", deal_pb2.DealRequest(method=FORMAL, dice=[7, 2]), "dice[0]"),
    ("die-0", deal_pb2.DealRequest(method=FORMAL, dice=[3, 0]), "dice[1]"),
    ("dice-in-informal-deal", deal_pb2.DealRequest(dice=[3, 2]), "dice"),
    ("surplus-die", deal_pb2.DealRequest(seed="x", method=FORMAL, dice=[3, 2, 1, 1, 1, 1, 1, 1]),
     "dice"),
    ("re-roll-needed", deal_pb2.DealRequest(seed=REROLL_SEED, method=FORMAL, dice=REROLL_DICE),
     "dice"),
    ("seed-over-256-bytes", deal_pb2.DealRequest(seed="x" * 257), "seed"),
    ("commit-with-a-seed", deal_pb2.DealRequest(seed="mine", commit=True), "seed"),
    ("unknown-preset", deal_pb2.DealRequest(preset="nope"), "preset"),
    # deal.proto: a round number is at most 1,000,000 (the next round must fit its field).
    ("round-over-a-million", deal_pb2.DealRequest(seed="x", round=1_000_001), "round"),
    ("round-at-the-uint32-top", deal_pb2.DealRequest(seed="x", round=2**32 - 1), "round"),
]


@pytest.mark.parametrize(("request_", "field"), [c[1:] for c in BAD_REQUESTS],
                         ids=[c[0] for c in BAD_REQUESTS])
def test_bad_deal_request_is_invalid_argument_naming_the_field(channel, request_, field):
    with pytest.raises(grpc.RpcError) as error:
        _stub(channel).Deal(request_)
    violation = decode_error(error.value)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)


def test_the_millionth_round_is_dealt(channel):
    """deal.proto: round 1,000,000 is the last one a Deal takes."""
    assert _stub(channel).Deal(deal_pb2.DealRequest(seed="x", round=1_000_000)).round == 1_000_000


@pytest.mark.parametrize("deal_id", ["", "xyz", "AB" * 16, "ab" * 17])
def test_reveal_with_a_malformed_deal_id_is_invalid_argument(channel, deal_id):
    with pytest.raises(grpc.RpcError) as error:
        _stub(channel).RevealSeed(deal_pb2.RevealSeedRequest(deal_id=deal_id))
    violation = decode_error(error.value)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("deal_id",)


_DEAL_REASONS = {
    "player_count": "ERROR_REASON_INVALID_DEAL",
    "dealer_seat": "ERROR_REASON_INVALID_DEAL",
    "method": "ERROR_REASON_INVALID_DEAL",
    "dice": "ERROR_REASON_INVALID_DICE",
    "seed": "ERROR_REASON_INVALID_SEED",
    "preset": "ERROR_REASON_INVALID_RULESET",
    "round": "ERROR_REASON_INVALID_ROUND",
}


@pytest.mark.parametrize(("request_", "field"), [c[1:] for c in BAD_REQUESTS],
                         ids=[c[0] for c in BAD_REQUESTS])
def test_bad_deal_request_carries_an_error_info_reason_for_its_field(channel, request_, field):
    with pytest.raises(grpc.RpcError) as error:
        _stub(channel).Deal(request_)
    violation = decode_error(error.value)
    assert violation.reason == _DEAL_REASONS[field.split("[")[0]]
    assert violation.domain == "okey-rules"
