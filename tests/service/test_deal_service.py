"""DealService through a real server: seeds, commit and reveal, formal procedure, the sealed
opening state and its status, stacked positions, errors."""

from __future__ import annotations

import re

import grpc
import pytest
from fair_deal_helpers import play_to_the_end
from game_service_helpers import Table
from okey.v1 import deal_pb2, deal_pb2_grpc, game_pb2, ruleset_pb2, state_pb2, tile_pb2
from okey_rules import Ruleset, format_tile, preset
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_types import DealMethod
from okey_rules.dealing.shuffle import shuffled_codes
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import State101
from okey_server.wire.convert_state import state_from_token
from service_helpers import code_of, codes_of, decode_error, notation_of

pytestmark = pytest.mark.service

FORMAL = deal_pb2.DEAL_METHOD_FORMAL
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")
# deal.proto: a committed deal id is an opaque URL-safe base64 token.
URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")
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
    """A seeded deal: the engine's deal of the seed; the seed in the answer, no commitment
    (a seeded deal commits to nothing), its keyed id as deal_id and in the status."""
    response = _stub(channel).Deal(deal_pb2.DealRequest(**request_fields))
    _same_deal(response, deal(seed=request_fields["seed"], **engine_args))
    assert response.seed == request_fields["seed"]
    assert response.commitment == ""
    assert response.status.deal_kind == state_pb2.DEAL_KIND_SEEDED
    assert HEX32.fullmatch(response.deal_id)
    assert response.status.seeded_deal_id == response.deal_id
    assert response.status.commitment == ""


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
    """docs/dealing.md, "Fairness you can verify": CommitSeed then Deal under its deal id
    withholds the seed; once the round is over RevealSeed gives it back with the same
    commitment, and the seed deals the racks played (no client seeds were committed)."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        stub = _stub(opened)
        commit = stub.CommitSeed(
            deal_pb2.CommitSeedRequest(player_count=3, no_client_seeds=True)
        )
        committed = stub.Deal(deal_pb2.DealRequest(deal_id=commit.deal_id, player_count=3))
        assert committed.seed == ""
        assert committed.deal_id == commit.deal_id
        assert URL_SAFE.fullmatch(committed.deal_id)
        assert committed.commitment == commit.commitment == committed.status.commitment
        assert committed.status.deal_kind == state_pb2.DEAL_KIND_COMMITTED
        assert committed.status.seeded_deal_id == ""
        finished = play_to_the_end(committed.state, KEY)
        revealed = stub.RevealSeed(
            deal_pb2.RevealSeedRequest(deal_id=committed.deal_id, state=finished)
        )
    assert revealed.commitment == committed.commitment
    assert revealed.inputs == commit.inputs
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


def test_opening_state_is_sealed_and_ready_for_the_first_discard(make_server):
    """deal.proto: the opening state is a sealed token (version byte 1); its status and any
    seat's view give the public facts; opened with the server's key it holds the deal
    answered; under another key it does not open."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        response = _stub(opened).Deal(deal_pb2.DealRequest(seed="state", preset="101",
                                                           dealer_seat=2))
        view = Table(opened).view(response.state, 2)
    status = response.status
    assert status.phase == state_pb2.PHASE_FIRST_DISCARD
    assert status.turn_seat == 2 == response.first_seat
    assert (status.move_number, status.round, status.dealer_seat) == (0, 1, 2)
    assert status.game == ruleset_pb2.GAME_OKEY_101
    assert not status.round_over
    assert not status.HasField("outcome")
    assert codes_of(view.rack) == codes_of(response.racks[2].tiles)
    assert view.wall_size == len(response.wall)
    assert code_of(view.indicator) == code_of(response.indicator)
    assert view.ruleset.game == ruleset_pb2.GAME_OKEY_101
    assert view.ruleset.HasField("indicator_drawable_last")
    token = response.state
    assert token[0] == 1
    # cached=False: the token opened for real, not answered from the states lately sealed.
    state = state_from_token(token, KEY, cached=False)
    assert isinstance(state, State101)
    assert [list(s.rack) for s in state.seats] == [codes_of(r.tiles) for r in response.racks]
    assert all(not s.discards for s in state.seats)
    assert list(state.wall) == codes_of(response.wall)
    assert state.indicator == code_of(response.indicator)
    with pytest.raises(InvalidInputError):
        state_from_token(token, b"another key, 32 bytes long......", cached=False)


def _stacked_from(response: deal_pb2.DealResponse) -> deal_pb2.StackedDeal:
    """A seeded deal's racks, wall and indicator, given back tile by tile."""
    return deal_pb2.StackedDeal(
        racks=[deal_pb2.StackedRack(tiles=rack.tiles) for rack in response.racks],
        wall=response.wall,
        indicator=response.indicator,
    )


def test_a_stacked_deal_places_the_tiles_as_given(channel):
    """deal.proto StackedDeal: the racks, wall and indicator given tile by tile are the ones
    dealt; no seed, no deal id, no commitment; marked DEAL_KIND_STACKED in the status and
    in every view; it plays like any deal."""
    stub = _stub(channel)
    seeded = stub.Deal(deal_pb2.DealRequest(seed="to stack", player_count=3, dealer_seat=1))
    stacked = stub.Deal(deal_pb2.DealRequest(
        player_count=3, dealer_seat=1, stacked=_stacked_from(seeded)
    ))
    assert [r.tiles for r in stacked.racks] == [r.tiles for r in seeded.racks]
    assert list(stacked.wall) == list(seeded.wall)
    assert stacked.indicator == seeded.indicator
    assert (stacked.seed, stacked.deal_id, stacked.commitment) == ("", "", "")
    assert stacked.status.deal_kind == state_pb2.DEAL_KIND_STACKED
    assert (stacked.status.commitment, stacked.status.seeded_deal_id) == ("", "")
    assert stacked.status.turn_seat == seeded.status.turn_seat == 2
    table = Table(channel)
    view = table.view(stacked.state, 2)
    assert view.deal_kind == state_pb2.DEAL_KIND_STACKED
    assert view.rack == seeded.racks[2].tiles
    opening = game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=2, tile=view.rack[0])
    assert table.apply(stacked.state, opening).status.deal_kind == state_pb2.DEAL_KIND_STACKED


def _stacked_bad(change: str) -> deal_pb2.DealRequest:
    """A stacked request from seed "s" (4 seats), broken as `change` says."""
    dealt = deal(seed="s")
    tiles = [tile_pb2.Tile(color=(c % 53) // 13 + 1, number=(c % 53) % 13 + 1, copy=c // 53)
             if c % 53 != 52 else tile_pb2.Tile(false_joker=True, copy=c // 53)
             for c in range(106)]
    stacked = deal_pb2.StackedDeal(
        racks=[deal_pb2.StackedRack(tiles=[tiles[c] for c in rack]) for rack in dealt.racks],
        wall=[tiles[c] for c in dealt.wall],
        indicator=tiles[dealt.indicator],
    )
    request = deal_pb2.DealRequest(stacked=stacked)
    if change == "seed":
        request.seed = "s"
    elif change == "client-seeds":
        request.client_seeds.append("mine")
    elif change == "formal":
        request.method = FORMAL
    elif change == "no-indicator":
        request.stacked.ClearField("indicator")
    elif change == "tile-twice":
        request.stacked.wall[0].CopyFrom(request.stacked.wall[1])
    return request


@pytest.mark.parametrize(("change", "field"), [
    ("seed", "seed"), ("client-seeds", "client_seeds"), ("formal", "method"),
    ("no-indicator", "stacked.indicator"), ("tile-twice", "stacked"),
])
def test_a_stacked_deal_takes_no_randomness_and_every_tile_once(channel, change, field):
    """deal.proto: `seed`, `dice`, `client_seeds` and `deal_id` empty, the method informal,
    the indicator given, every one of the 106 tiles exactly once; else INVALID_ARGUMENT
    naming the field."""
    assert _stub(channel).Deal(_stacked_bad("none")).status.deal_kind == (
        state_pb2.DEAL_KIND_STACKED
    )
    with pytest.raises(grpc.RpcError) as error:
        _stub(channel).Deal(_stacked_bad(change))
    violation = decode_error(error.value)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields[0].startswith(field), violation.fields


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
    # The commit flag is gone: a committed deal is CommitSeed then Deal(deal_id).
    ("deal-id-with-a-seed", deal_pb2.DealRequest(seed="mine", deal_id="x"), "seed"),
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
