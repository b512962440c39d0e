"""Issue 2 point 6 via a real server: a malformed request is INVALID_ARGUMENT naming the field."""

from __future__ import annotations

import re
from collections.abc import Callable

import grpc
import pytest
from okey.v1 import hand_pb2, hand_pb2_grpc, ruleset_pb2, tile_pb2
from service_helpers import decode_error, hand_request, pb_tile

pytestmark = pytest.mark.service

HAND = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5"  # 14 valid tiles
WORDS = HAND.split()


def _with_tile(index: int, **fields: object) -> hand_pb2.CheckHandRequest:
    request = hand_request(HAND, indicator=pb_tile("K3"))
    request.hand.tiles[index].Clear()
    for name, value in fields.items():
        setattr(request.hand.tiles[index], name, value)
    return request


def _notation(tiles: str, **fields: object) -> hand_pb2.CheckHandRequest:
    return hand_pb2.CheckHandRequest(hand_notation=tiles, **fields)  # type: ignore[arg-type]


# (id naming the rule, request builder, field the violation must name, text the description holds)
CASES: list[tuple[str, Callable[[], hand_pb2.CheckHandRequest], str, str]] = [
    ("tile-count-13-is-not-a-hand",
     lambda: hand_request(" ".join(WORDS[:13]), indicator=pb_tile("K3")), "hand.tiles", "not 13"),
    ("tile-count-16-is-not-a-hand",
     lambda: _notation(HAND + " Y1 Y2", indicator_notation="K3"), "hand_notation", "not 16"),
    ("tile-count-1-is-not-a-hand", lambda: hand_request("R1", indicator=pb_tile("K3")),
     "hand.tiles", "not 1"),
    ("tile-count-13-in-notation-is-not-a-hand",
     lambda: _notation(" ".join(WORDS[1:]), indicator_notation="K3"), "hand_notation", "not 13"),
    ("no-hand-at-all", lambda: hand_pb2.CheckHandRequest(indicator=pb_tile("K3")),
     "hand", "give the hand"),
    ("unknown-colour-enum-9", lambda: _with_tile(3, color=9, number=4), "hand.tiles[3].color", "9"),
    ("numbered-tile-without-colour",
     lambda: _with_tile(2, number=3), "hand.tiles[2].color", "colour"),
    ("number-0-outside-1-13",
     lambda: _with_tile(5, color=tile_pb2.COLOR_RED, number=0), "hand.tiles[5].number", "0"),
    ("number-14-outside-1-13",
     lambda: _with_tile(5, color=tile_pb2.COLOR_RED, number=14), "hand.tiles[5].number", "14"),
    ("false-joker-with-a-colour",
     lambda: _with_tile(0, false_joker=True, color=tile_pb2.COLOR_RED),
     "hand.tiles[0].color", "false"),
    ("false-joker-with-a-number",
     lambda: _with_tile(0, false_joker=True, number=5), "hand.tiles[0].number", "false"),
    ("copy-index-2-is-not-0-or-1",
     lambda: _with_tile(1, color=tile_pb2.COLOR_RED, number=2, copy=2), "hand.tiles[1].copy", "2"),
    ("three-copies-of-a-tile",
     lambda: hand_request("R7 R7 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", indicator=pb_tile("K3")),
     "hand.tiles[8]", "R7"),
    ("three-copies-of-a-tile-in-notation",
     lambda: _notation("R7 R7 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", indicator_notation="K3"),
     "hand_notation", "R7"),
    ("three-false-jokers",
     lambda: hand_request("F F R1 R2 R3 R4 R5 R6 F R8 R9 R10 R11 R12", indicator=pb_tile("K3")),
     "hand.tiles[8]", "false joker"),
    ("three-copies-in-a-fifteen-tile-hand",
     lambda: hand_request(" ".join(WORDS[:12]) + " K5 K5 K5", indicator=pb_tile("K3")),
     "hand.tiles[14]", "K5"),
    ("indicator-is-a-false-joker", lambda: hand_request(HAND, indicator=pb_tile("F")),
     "indicator", "false joker"),
    ("indicator-notation-is-a-false-joker", lambda: hand_request(HAND, indicator_notation="F"),
     "indicator_notation", "false joker"),
    ("okey-is-a-false-joker", lambda: hand_request(HAND, okey=pb_tile("F")), "okey", "false joker"),
    ("okey-notation-is-a-false-joker", lambda: hand_request(HAND, okey_notation="f"),
     "okey_notation", "false joker"),
    ("indicator-with-unknown-colour",
     lambda: hand_request(HAND, indicator=tile_pb2.Tile(color=9, number=3)),
     "indicator.color", "9"),
    ("indicator-with-number-14",
     lambda: hand_request(HAND, indicator=tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=14)),
     "indicator.number", "14"),
    ("unparseable-notation-unknown-letter",
     lambda: _notation("R1 R2 X3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", indicator_notation="K3"),
     "hand_notation", "X3"),
    ("unparseable-notation-number-14",
     lambda: _notation("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R14 K5", indicator_notation="K3"),
     "hand_notation", "R14"),
    ("unparseable-notation-number-0",
     lambda: _notation("R0 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", indicator_notation="K3"),
     "hand_notation", "R0"),
    ("unparseable-indicator-notation", lambda: hand_request(HAND, indicator_notation="Q4"),
     "indicator_notation", "Q4"),
    ("unparseable-okey-notation", lambda: hand_request(HAND, okey_notation="R 5"),
     "okey_notation", "R 5"),
    ("no-indicator-and-no-okey", lambda: hand_request(HAND), "indicator", "give the wild"),
    ("unknown-preset", lambda: hand_request(HAND, indicator=pb_tile("K3"), preset="okey.org"),
     "preset", "okey.org"),
    ("unknown-game-enum-7",
     lambda: hand_request(HAND, indicator=pb_tile("K3"), ruleset=ruleset_pb2.Ruleset(game=7)),
     "ruleset.game", "7"),
    ("notation-too-long-to-be-a-hand",
     lambda: _notation("R1 " * 2000, indicator_notation="K3"), "hand_notation", "longer"),
]


@pytest.mark.parametrize(
    ("build", "field", "mentions"),
    [pytest.param(build, field, mentions, id=name) for name, build, field, mentions in CASES],
)
def test_malformed_request_is_invalid_argument_naming_the_field(
    channel: grpc.Channel,
    build: Callable[[], hand_pb2.CheckHandRequest],
    field: str,
    mentions: str,
) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    with pytest.raises(grpc.RpcError) as raised:
        stub.CheckHand(build())
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert error.fields == (field,)
    assert mentions.lower() in error.descriptions[0].lower()
    assert error.domain == "okey-rules"
    assert re.fullmatch(r"[A-Z]+(_[A-Z]+)*", error.reason)
    assert field in error.message


def test_same_bad_tile_has_same_field_whether_sent_as_14_or_15_tiles(channel: grpc.Channel) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    fields = []
    for hand in (HAND, HAND + " Y9"):
        request = hand_request(hand, indicator=pb_tile("K3"))
        request.hand.tiles[4].number = 0
        with pytest.raises(grpc.RpcError) as raised:
            stub.CheckHand(request)
        fields.append(decode_error(raised.value).fields)
    assert fields == [("hand.tiles[4].number",), ("hand.tiles[4].number",)]


def test_undecodable_request_body_is_invalid_argument_not_internal(channel: grpc.Channel) -> None:
    raw = channel.unary_unary("/okey.v1.HandService/CheckHand")
    with pytest.raises(grpc.RpcError) as raised:
        raw(b"\xff\xff\xff\xff")  # a field key with no end: no valid message reads like this
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    assert error.fields == ("request",)
    assert error.reason == "ERROR_REASON_MALFORMED_REQUEST"

