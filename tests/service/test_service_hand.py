"""HandService/CheckHand through a real server: the servicer only translates the engine's answer."""

from __future__ import annotations

import grpc
import pytest
from okey.v1 import hand_pb2, hand_pb2_grpc, ruleset_pb2
from okey_rules import okey_for, parse_tile, parse_tiles, preset
from okey_rules.search.hand import check_hand, winning_discards
from service_helpers import decode_error, notation_of, pb_tile, pb_tiles

pytestmark = pytest.mark.service

HANDS_14 = [
    pytest.param("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K3", id="one-colour-runs"),
    pytest.param("R7 Y7 B7 K1 K2 K3 Y10 Y11 Y12 B1 B2 B3 B4 K9", "R4", id="okey-R5-missing-loses"),
    pytest.param("R7 Y7 B7 K1 K2 K3 Y10 Y11 Y12 B1 B2 B3 B4 R5", "R4", id="okey-R5-as-wild-wins"),
    pytest.param("R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 Y6 Y6 B8 B8", "K8", id="seven-pairs"),
    pytest.param("R12 R13 R1 Y1 Y2 Y3 B4 B5 B6 K7 K8 K9 K10 K11", "B10", id="run-12-13-1"),
    pytest.param("R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 F", "B2", id="scattered-loses"),
]


def _stub(channel: grpc.Channel) -> hand_pb2_grpc.HandServiceStub:
    return hand_pb2_grpc.HandServiceStub(channel)


def _kind_name(kind: object) -> str:
    return "WIN_KIND_" + kind.name if kind is not None else "WIN_KIND_UNSPECIFIED"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("hand", "indicator"), HANDS_14)
@pytest.mark.parametrize("as_notation", [False, True], ids=["tiles", "hand_notation"])
def test_check_hand_14_answers_what_the_engine_answers(
    channel: grpc.Channel, hand: str, indicator: str, as_notation: bool
) -> None:
    request = hand_pb2.CheckHandRequest(indicator=pb_tile(indicator))
    if as_notation:
        request.hand_notation = hand.lower()  # notation is case-insensitive on input
    else:
        request.hand.tiles.extend(pb_tiles(hand))
    response = _stub(channel).CheckHand(request)

    verdict = check_hand(parse_tiles(hand), okey_for(parse_tile(indicator)), preset("classic"))
    assert response.winning == verdict.winning
    assert hand_pb2.WinKind.Name(response.kind) == _kind_name(verdict.kind)
    assert [hand_pb2.WinKind.Name(k) for k in response.kinds] == [
        _kind_name(k) for k in verdict.kinds
    ]
    assert response.summary == verdict.summary
    assert not response.winning_discards
    if verdict.arrangement is None:
        assert not response.HasField("arrangement")
    else:
        assert response.arrangement.notation == verdict.arrangement.notation()
        assert sum(len(m.tiles) for m in response.arrangement.melds) == 14


def test_arrangement_shows_what_the_wild_stands_for(channel: grpc.Channel) -> None:
    hand = "R7 Y7 B7 K1 K2 K3 Y10 Y11 Y12 B1 B2 B3 B4 R5"
    response = _stub(channel).CheckHand(
        hand_pb2.CheckHandRequest(hand_notation=hand, indicator_notation="R4")
    )
    assert response.winning
    wilds = [p for m in response.arrangement.melds for p in m.tiles if p.wild]
    # docs/rules.md §2: the okey (R5 under indicator R4) is the hand's only wild.
    assert [notation_of(p.tile) for p in wilds] == ["R5"]
    placed = [notation_of(p.stands_for) for m in response.arrangement.melds for p in m.tiles]
    assert sorted(placed) != sorted(hand.split())  # the wild plays as another tile


def test_indicator_and_okey_may_be_given_in_any_of_the_four_forms(channel: grpc.Channel) -> None:
    hand = "R7 Y7 B7 K1 K2 K3 Y10 Y11 Y12 B1 B2 B3 B4 R5"
    forms = [
        {"indicator": pb_tile("R4")},
        {"okey": pb_tile("R5")},
        {"indicator_notation": "r4"},
        {"okey_notation": "R5"},
    ]
    answers = {
        _stub(channel).CheckHand(
            hand_pb2.CheckHandRequest(hand_notation=hand, **form)  # type: ignore[arg-type]
        ).SerializeToString(deterministic=True)
        for form in forms
    }
    assert len(answers) == 1


@pytest.mark.parametrize(
    ("given", "indicator", "okey"),
    [
        pytest.param({"indicator_notation": "B13"}, "B13", "B1", id="indicator-13-shows-okey-1"),
        pytest.param({"okey_notation": "B1"}, "B13", "B1", id="okey-1-means-indicator-13"),
        pytest.param({"indicator": pb_tile("Y4")}, "Y4", "Y5", id="indicator-shows-number-plus-1"),
        pytest.param({"okey": pb_tile("K13")}, "K12", "K13", id="okey-means-number-minus-1"),
    ],
)
def test_response_always_names_indicator_and_okey(
    channel: grpc.Channel, given: dict[str, object], indicator: str, okey: str
) -> None:
    request = hand_pb2.CheckHandRequest(
        hand_notation="R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y9", **given  # type: ignore[arg-type]
    )
    response = _stub(channel).CheckHand(request)
    assert (notation_of(response.indicator), notation_of(response.okey)) == (indicator, okey)


def test_check_hand_15_lists_the_engine_s_winning_discards(channel: grpc.Channel) -> None:
    hand = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K9"
    response = _stub(channel).CheckHand(
        hand_pb2.CheckHandRequest(hand_notation=hand, indicator_notation="Y3")
    )
    verdict = winning_discards(parse_tiles(hand), okey_for(parse_tile("Y3")))
    assert response.winning == verdict.winning
    assert [notation_of(d.tile) for d in response.winning_discards] == [
        str(d.tile) for d in verdict.discards
    ]
    assert [d.arrangement.notation for d in response.winning_discards] == [
        d.arrangement.notation() for d in verdict.discards
    ]
    assert response.okey_discard_wins == verdict.okey_discard_wins
    # For 15 tiles the answer is the discards; the 14-tile fields stay unset.
    assert not response.HasField("arrangement")
    assert response.kind == hand_pb2.WIN_KIND_UNSPECIFIED


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K9", id="one-discard-wins"),
        pytest.param("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 Y4", id="okey-discard-wins"),
        pytest.param("R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 F B9", id="nothing-wins"),
    ],
)
def test_15_tiles_winning_means_at_least_one_winning_discard(
    channel: grpc.Channel, hand: str
) -> None:
    response = _stub(channel).CheckHand(
        hand_pb2.CheckHandRequest(hand_notation=hand, okey_notation="Y4")
    )
    assert response.winning == bool(response.winning_discards)
    assert response.okey_discard_wins == any(d.okey for d in response.winning_discards)
    for discard in response.winning_discards:
        assert sum(len(m.tiles) for m in discard.arrangement.melds) == 14
        assert notation_of(discard.tile) in hand.split()


def test_discarding_the_okey_from_a_ready_hand_is_the_double(channel: grpc.Channel) -> None:
    # docs/rules.md §4.5: a ready 14 plus an okey may finish by discarding the okey.
    response = _stub(channel).CheckHand(
        hand_pb2.CheckHandRequest(
            hand_notation="R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 Y4", okey_notation="Y4"
        )
    )
    assert response.okey_discard_wins
    assert [notation_of(d.tile) for d in response.winning_discards if d.okey] == ["Y4"]


KAFA_HAND = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
WRAP_HAND = "R12 R13 R1 Y1 Y2 Y3 B4 B5 B6 K7 K8 K9 K10 K11"
WILD_PAIR_HAND = "R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 Y6 Y6 K9 K9"


@pytest.mark.parametrize(
    ("hand", "preset_name", "ruleset", "kind", "expected"),
    [
        pytest.param(KAFA_HAND, "", None, "WIN_KIND_KAFA", False, id="kafa-off-by-default"),
        pytest.param(KAFA_HAND, "classic", None, "WIN_KIND_KAFA", False, id="kafa-off-in-classic"),
        pytest.param(KAFA_HAND, "okey.gg", None, "WIN_KIND_KAFA", False, id="kafa-off-in-okey-gg"),
        pytest.param(KAFA_HAND, "OKEY.GG", ruleset_pb2.Ruleset(kafa=True), "WIN_KIND_KAFA", True,
                     id="preset-name-any-case"),
        pytest.param(KAFA_HAND, "classic", ruleset_pb2.Ruleset(kafa=True), "WIN_KIND_KAFA", True,
                     id="ruleset-kafa-overrides-preset"),
        pytest.param(KAFA_HAND, "okey.gg", ruleset_pb2.Ruleset(kafa=False), "WIN_KIND_KAFA", False,
                     id="ruleset-kafa-false-overrides-preset"),
        pytest.param(WRAP_HAND, "", None, "WIN_KIND_MELDS", True, id="run-12-13-1-in-classic"),
        pytest.param(WRAP_HAND, "", ruleset_pb2.Ruleset(runs_13_to_1=False), "WIN_KIND_MELDS",
                     False, id="ruleset-runs-13-to-1-off-forbids-12-13-1"),
        pytest.param(WRAP_HAND, "101", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_CLASSIC),
                     "WIN_KIND_MELDS", True, id="ruleset-game-classic-overrides-101-preset"),
        pytest.param(WILD_PAIR_HAND, "", None, "WIN_KIND_SEVEN_PAIRS", True,
                     id="two-okeys-pair-by-default"),
        pytest.param(WILD_PAIR_HAND, "", ruleset_pb2.Ruleset(wild_pairs=False),
                     "WIN_KIND_SEVEN_PAIRS", False, id="wild-pairs-off-forbids-okey-pair"),
    ],
)
def test_ruleset_and_preset_reach_the_engine(
    channel: grpc.Channel,
    hand: str,
    preset_name: str,
    ruleset: ruleset_pb2.Ruleset | None,
    kind: str,
    expected: bool,
) -> None:
    request = hand_pb2.CheckHandRequest(hand_notation=hand, okey_notation="K9", preset=preset_name)
    if ruleset is not None:
        request.ruleset.CopyFrom(ruleset)
    response = _stub(channel).CheckHand(request)
    assert (kind in [hand_pb2.WinKind.Name(k) for k in response.kinds]) is expected


def test_same_request_same_answer_byte_for_byte(channel: grpc.Channel) -> None:
    request = hand_pb2.CheckHandRequest(
        hand_notation="R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 Y4", okey_notation="Y4"
    )
    answers = {_stub(channel).CheckHand(request).SerializeToString() for _ in range(3)}
    assert len(answers) == 1


@pytest.mark.parametrize(
    ("hand", "okey"),
    [
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K3", "K3"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 Y4", "Y4"),
    ],
    ids=["14-tiles", "15-tiles"],
)
def test_omit_arrangements_leaves_only_the_arrangements_out(
    channel: grpc.Channel, hand: str, okey: str
) -> None:
    """CheckHandRequest.omit_arrangements: same verdict, kinds and discards, no arrangement."""
    request = hand_pb2.CheckHandRequest(hand_notation=hand, okey_notation=okey)
    full = _stub(channel).CheckHand(request)
    request.omit_arrangements = True
    lean = _stub(channel).CheckHand(request)
    assert full.winning
    assert lean.winning
    assert not lean.HasField("arrangement")
    assert all(not d.HasField("arrangement") for d in lean.winning_discards)
    full.ClearField("arrangement")
    for discard in full.winning_discards:
        discard.ClearField("arrangement")
    assert lean == full


@pytest.mark.parametrize(
    ("preset_name", "ruleset", "field"),
    [
        pytest.param("101", None, "preset", id="preset-101"),
        pytest.param(" 101 ", ruleset_pb2.Ruleset(runs_13_to_1=True), "preset",
                     id="preset-101-with-options"),
        pytest.param("", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101), "ruleset.game",
                     id="ruleset-game-101"),
        pytest.param("classic", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101),
                     "ruleset.game", id="classic-preset-asked-for-101"),
    ],
)
@pytest.mark.parametrize("tiles", [WRAP_HAND, WRAP_HAND + " R5 R6 R7 Y9 Y10 Y11 B2"],
                         ids=["14-tiles", "a-21-tile-rack"])
def test_check_hand_refuses_okey_101_and_points_to_best_opening(
    channel: grpc.Channel,
    preset_name: str,
    ruleset: ruleset_pb2.Ruleset | None,
    field: str,
    tiles: str,
) -> None:
    """hand.proto: 101 racks are judged by BestOpening; CheckHand is classic Okey only."""
    request = hand_pb2.CheckHandRequest(hand_notation=tiles, okey_notation="K9", preset=preset_name)
    if ruleset is not None:
        request.ruleset.CopyFrom(ruleset)
    with pytest.raises(grpc.RpcError) as raised:
        _stub(channel).CheckHand(request)
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert error.fields == (field,)
    assert "BestOpening" in error.descriptions[0]
    assert error.reason == "ERROR_REASON_INVALID_RULESET"
