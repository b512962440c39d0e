"""Error statuses quote client input only as a short excerpt, what is not printable escaped:
trailers stay under 1 KB.

A request may carry kilobytes of text in a string field. Echoed whole in the
status message and again in the BadRequest details, it made the trailers
exceed what a client accepts, and the client saw RESOURCE_EXHAUSTED with no
BadRequest at all. Every case here sends about 4 KB into one field (or the
request id) and holds the whole trailer block under 1 KB.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

import grpc
import pytest
from okey.v1 import deal_pb2, deal_pb2_grpc, hand_pb2, hand_pb2_grpc
from okey_server.rpc.errors import DESCRIPTION_CHARS, bounded_description
from service_helpers import decode_error

pytestmark = pytest.mark.service

TRAILER_LIMIT = 1024
HAND = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5"
EMOJI_4KB = "\U0001f600" * 1024  # 4 bytes each in UTF-8
# Just under the 1000-character notation limit: the longest text a notation
# error quotes back (about 4 KB in UTF-8).
EMOJI_UNDER_LIMIT = "\U0001f600" * 999
LONG_TEXT = "x'\"\\\n" * 819  # quotes, a backslash and newlines: 4 KB to escape
BIG_VALUES = {"emoji-4kb": EMOJI_4KB, "emoji-999": EMOJI_UNDER_LIMIT, "text-4kb": LONG_TEXT}


def _check_hand(field: str, value: str) -> Callable[[grpc.Channel], object]:
    request = hand_pb2.CheckHandRequest(hand_notation=HAND, indicator_notation="K3")
    if field == "okey_notation":
        request.ClearField("indicator_notation")
    setattr(request, field, value)
    return lambda channel: hand_pb2_grpc.HandServiceStub(channel).CheckHand(request, timeout=10)


def _deal(field: str, value: str) -> Callable[[grpc.Channel], object]:
    request = deal_pb2.DealRequest(**{field: value})  # type: ignore[arg-type]
    return lambda channel: deal_pb2_grpc.DealServiceStub(channel).Deal(request, timeout=10)


def _reveal(value: str) -> Callable[[grpc.Channel], object]:
    request = deal_pb2.RevealSeedRequest(deal_id=value)
    return lambda channel: deal_pb2_grpc.DealServiceStub(channel).RevealSeed(request, timeout=10)


# (the RPC and field, how to call it with a value, the field the violation names)
FIELDS: list[tuple[str, Callable[[str], Callable[[grpc.Channel], object]], str]] = [
    ("CheckHand.hand_notation", lambda v: _check_hand("hand_notation", v), "hand_notation"),
    ("CheckHand.indicator_notation", lambda v: _check_hand("indicator_notation", v),
     "indicator_notation"),
    ("CheckHand.okey_notation", lambda v: _check_hand("okey_notation", v), "okey_notation"),
    ("CheckHand.preset", lambda v: _check_hand("preset", v), "preset"),
    ("Deal.preset", lambda v: _deal("preset", v), "preset"),
    ("Deal.seed", lambda v: _deal("seed", v), "seed"),
    ("RevealSeed.deal_id", _reveal, "deal_id"),
]


def trailer_bytes(error: grpc.RpcError) -> int:
    """The trailers' size as sent: keys and values, binary ones base64, the message escaped."""
    size = len("grpc-status") + len(str(error.code().value[0]))
    # grpc percent-encodes the message's bytes outside printable ASCII, and '%'.
    message = error.details().encode()
    size += len("grpc-message") + sum(3 if b < 0x20 or b > 0x7E or b == 0x25 else 1
                                      for b in message)
    for key, value in error.trailing_metadata():
        size += len(key)
        size += len(base64.b64encode(value)) if key.endswith("-bin") else len(value)
    return size


@pytest.mark.parametrize("value", BIG_VALUES.values(), ids=BIG_VALUES.keys())
@pytest.mark.parametrize(("where", "make", "field"), FIELDS, ids=[f[0] for f in FIELDS])
def test_a_4kb_field_is_invalid_argument_naming_it_with_trailers_under_1kb(
    channel: grpc.Channel, where: str, make, field: str, value: str
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        make(value)(channel)
    error = raised.value
    violation = decode_error(error)  # the BadRequest arrived and decodes
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT, where
    assert violation.fields == (field,)
    assert trailer_bytes(error) < TRAILER_LIMIT
    # What is quoted back is printable text: line breaks and the like come escaped.
    assert violation.descriptions[0].isprintable()


def test_a_4kb_request_id_is_replaced_and_the_error_stays_under_1kb(channel: grpc.Channel) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    bad = hand_pb2.CheckHandRequest(hand_notation="R1 R2", indicator_notation="K3")
    with pytest.raises(grpc.RpcError) as raised:
        stub.CheckHand(bad, metadata=(("x-request-id", "r" * 4096),), timeout=10)
    error = raised.value
    assert decode_error(error).fields == ("hand_notation",)
    ids = [value for key, value in error.trailing_metadata() if key == "x-request-id"]
    assert len(ids) == 1
    assert len(ids[0]) == 32  # a fresh id, not the client's 4 KB
    assert trailer_bytes(error) < TRAILER_LIMIT


def test_the_longest_accepted_request_id_with_the_longest_error_stays_under_1kb(
    channel: grpc.Channel,
) -> None:
    """Worst case: a 128-character client id echoed, beside a cut-short quote of 4 KB."""
    request = hand_pb2.CheckHandRequest(hand_notation=HAND, preset=LONG_TEXT)
    request.indicator_notation = "K3"
    with pytest.raises(grpc.RpcError) as raised:
        hand_pb2_grpc.HandServiceStub(channel).CheckHand(
            request, metadata=(("x-request-id", "i" * 128),), timeout=10
        )
    assert ("x-request-id", "i" * 128) in list(raised.value.trailing_metadata())
    assert trailer_bytes(raised.value) < TRAILER_LIMIT


def test_a_plain_bad_tile_is_still_named_and_quoted_in_full(channel: grpc.Channel) -> None:
    request = hand_pb2.CheckHandRequest(
        hand_notation=HAND.replace("K5", "X3"), indicator_notation="K3"
    )
    with pytest.raises(grpc.RpcError) as raised:
        hand_pb2_grpc.HandServiceStub(channel).CheckHand(request, timeout=10)
    violation = decode_error(raised.value)
    assert violation.fields == ("hand_notation",)
    assert "tile 14" in violation.descriptions[0]
    assert "'X3'" in violation.descriptions[0]
    assert "'X3'" in violation.message


@pytest.mark.parametrize(
    ("description", "sent"),
    [
        pytest.param("cannot read 'X3' as a tile", "cannot read 'X3' as a tile", id="short-kept"),
        pytest.param(f"unknown preset {'p' * 50!r} (known: 101)",
                     f"unknown preset '{'p' * 40}\u2026' (known: 101)", id="quote-cut-at-40"),
        pytest.param(f"cannot read {'a' + chr(10) + chr(0x202E) + chr(0x1F600)!r}",
                     "cannot read 'a\\n\\u202e\U0001f600'", id="unprintable-escaped"),
        # ö counts as long as its escape (4): the trailers stay as small as they were.
        pytest.param(f"unknown preset {'ö' * 30!r}", f"unknown preset '{'ö' * 10}\u2026'",
                     id="letters-kept-cut-at-40"),
        pytest.param("seat 1 shows gösterme once a round", "seat 1 shows gösterme once a round",
                     id="engine-text-keeps-its-letters"),
        pytest.param("the okey's tile", "the okey's tile", id="apostrophe-is-prose"),
    ],
)
def test_descriptions_quote_client_text_short_and_escaped(description: str, sent: str) -> None:
    assert bounded_description(description) == sent


def test_a_description_is_cut_at_120_characters() -> None:
    assert len(bounded_description("word " * 100)) == DESCRIPTION_CHARS + 1  # and the ellipsis
    # Each ö counts as long as its escape (4): 12 a word, 10 words in 120.
    assert bounded_description("gösterme " * 30) == "gösterme " * 10 + "\u2026"
