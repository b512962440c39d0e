"""CheckHand refuses a hand holding both copies of the indicator's face (docs/rules.md §2.4).

One copy lies face up on the table. The rule holds whichever wild field the
request sets (the okey names its indicator), as tiles or as notation; the
option `indicator_drawable_last` lifts it.
"""

from __future__ import annotations

import grpc
import pytest
from okey.v1 import hand_pb2, hand_pb2_grpc, ruleset_pb2
from service_helpers import decode_error, hand_request, pb_tile

pytestmark = pytest.mark.service

# Indicator R4, okey R5; the hand holds both R4 tiles.
BOTH_R4 = "R4 R4 R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4"
WILDS = {
    "indicator": {"indicator": pb_tile("R4")},
    "okey": {"okey": pb_tile("R5")},
    "indicator_notation": {"indicator_notation": "R4"},
    "okey_notation": {"okey_notation": "r5"},
}


def _stub(channel: grpc.Channel) -> hand_pb2_grpc.HandServiceStub:
    return hand_pb2_grpc.HandServiceStub(channel)


@pytest.mark.parametrize("wild", WILDS, ids=WILDS)
@pytest.mark.parametrize("extra", ["", " K9"], ids=["14-tiles", "15-tiles"])
def test_both_indicator_copies_are_invalid_argument_naming_the_hand(
    channel: grpc.Channel, wild: str, extra: str
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        _stub(channel).CheckHand(hand_request(BOTH_R4 + extra, **WILDS[wild]))
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert error.fields == ("hand.tiles",)
    assert error.reason == "ERROR_REASON_INVALID_TILES"
    assert "both R4 tiles" in error.descriptions[0]
    assert "face-up indicator" in error.descriptions[0]


def test_both_indicator_copies_given_as_notation_are_refused_too(channel: grpc.Channel) -> None:
    request = hand_pb2.CheckHandRequest(hand_notation=BOTH_R4, indicator_notation="R4")
    with pytest.raises(grpc.RpcError) as raised:
        _stub(channel).CheckHand(request)
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert error.fields == ("hand_notation",)
    assert "both R4 tiles" in error.descriptions[0]


def test_the_indicator_drawable_last_option_allows_both_copies(channel: grpc.Channel) -> None:
    request = hand_request(
        BOTH_R4,
        indicator=pb_tile("R4"),
        ruleset=ruleset_pb2.Ruleset(indicator_drawable_last=True),
    )
    response = _stub(channel).CheckHand(request)
    assert not response.winning  # judged, not refused: the second R4 fits no meld
