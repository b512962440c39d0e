"""CheckHand read from its bytes answers exactly as CheckHand read as a message.

The servicer reads a usual request through a view of its bytes (the quick
way) and anything else as a CheckHandRequest message (the ordinary way, which
names a bad field). These tests send both ways the same bytes, well-formed
and not, and hold them to the same answer or the same error.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey.v1 import hand_pb2, ruleset_pb2, tile_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.hand import check_hand, winning_discards
from okey_rules.ruleset import PRESETS
from okey_rules.tiles import Tile, format_tile, format_tiles
from okey_server.check_hand_request import (
    check_hand_inputs,
    quick_inputs,
    request_inputs,
)
from okey_server.convert_hand import discards_answer, hand_answer
from okey_server.convert_tile import tile_to_proto
from okey_server.hand_servicer import HandServicer
from strategies import built_hands

_SERVICER = HandServicer(config=None)  # type: ignore[arg-type]  # CheckHand reads no config


def _outcome(call):
    """The answer bytes, or the error's field and description."""
    try:
        return ("answer", call())
    except InvalidInputError as exc:
        return ("error", exc.field, exc.description)


def _ordinary(data: bytes):
    """CheckHand the obvious way: the message, its inputs, the engine, the answer."""
    tiles, indicator, okey, rules = request_inputs(hand_pb2.CheckHandRequest.FromString(data))
    if len(tiles) == 14:
        return hand_answer(check_hand(tiles, okey, rules), indicator, okey)
    return discards_answer(winning_discards(tiles, okey, rules), indicator, okey)


def _assert_same(data: bytes) -> None:
    quick = _outcome(lambda: _SERVICER.CheckHand(data, None))
    assert quick == _outcome(lambda: _ordinary(data))


def _bad_tile(draw) -> tile_pb2.Tile:
    return draw(
        st.sampled_from(
            [
                tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=14),
                tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=3, copy=2),
                tile_pb2.Tile(number=3),
                tile_pb2.Tile(false_joker=True, number=3),
                tile_pb2.Tile(color=9, number=3),
                tile_pb2.Tile(),
            ]
        )
    )


@st.composite
def requests(draw) -> bytes:
    """CheckHandRequest bytes: mostly usual, with every kind of oddity mixed in."""
    tiles, okey = draw(st.one_of(built_hands(max_swaps=2), built_hands(size=15, max_swaps=2)))
    tiles = list(tiles)
    if draw(st.integers(0, 9)) == 0:
        tiles = tiles[: draw(st.integers(0, len(tiles)))]  # a wrong count
    if draw(st.integers(0, 9)) == 0 and tiles:
        tiles.append(tiles[0])  # a face once too often, perhaps
    request = hand_pb2.CheckHandRequest()
    as_notation = draw(st.booleans())
    if as_notation:
        text = format_tiles(tiles)
        request.tiles_notation = text.lower() if draw(st.integers(0, 9)) == 0 else text
    else:
        request.tiles.extend(tile_to_proto(t) for t in tiles)
        if draw(st.integers(0, 9)) == 0 and request.tiles:
            request.tiles[draw(st.integers(0, len(tiles) - 1))].CopyFrom(_bad_tile(draw))
    indicator = Tile.from_face((okey.face - 1) % 13 + okey.face // 13 * 13)
    wild_forms = draw(
        st.sampled_from(
            [["okey"], ["indicator"], ["okey_notation"], ["indicator_notation"], [],
             ["okey", "indicator"], ["okey_notation", "okey"]]
        )
    )
    for form in wild_forms:
        tile = indicator if form.startswith("indicator") else okey
        if draw(st.integers(0, 19)) == 0:
            tile = Tile.false_joker()
        if form.endswith("notation"):
            text = format_tile(tile)
            setattr(request, form, f" {text}" if draw(st.integers(0, 9)) == 0 else text)
        else:
            getattr(request, form).CopyFrom(tile_to_proto(tile))
    request.preset = draw(st.sampled_from(["", "", "", *PRESETS, "Classic", "nope"]))
    if draw(st.integers(0, 9)) == 0:
        request.ruleset.CopyFrom(ruleset_pb2.Ruleset(wild_pairs=draw(st.booleans())))
    data = request.SerializeToString()
    if draw(st.integers(0, 19)) == 0:
        data += b"\x78\x01"  # an unknown field 15
    return data


@settings(max_examples=400, deadline=None)
@given(data=requests())
def test_the_quick_way_answers_as_the_ordinary_way(data):
    _assert_same(data)


@settings(max_examples=100, deadline=None)
@given(hand=st.one_of(built_hands(max_swaps=1), built_hands(size=15, max_swaps=1)),
       notation=st.booleans(), indicator=st.booleans())
def test_usual_requests_are_read_the_quick_way(hand, notation, indicator):
    tiles, okey = hand
    request = hand_pb2.CheckHandRequest()
    if notation:
        request.tiles_notation = format_tiles(tiles)
    else:
        request.tiles.extend(tile_to_proto(t) for t in tiles)
    if indicator:
        request.indicator_notation = format_tile(
            Tile.from_face((okey.face - 1) % 13 + okey.face // 13 * 13)
        )
    else:
        request.okey.CopyFrom(tile_to_proto(okey))
    data = request.SerializeToString()
    assert quick_inputs(data) is not None
    assert quick_inputs(data) == request_inputs(request)


def test_a_wild_field_given_twice_is_merged_as_protobuf_merges_it():
    # Parsing merges repeats of a message field: a false joker, then a red 4,
    # is a false joker with a colour, which is no tile. Read the quick way,
    # only the last would count.
    hand = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y1"
    request = hand_pb2.CheckHandRequest(tiles_notation=hand)
    data = (
        request.SerializeToString()
        + hand_pb2.CheckHandRequest(indicator=tile_pb2.Tile(false_joker=True)).SerializeToString()
        + hand_pb2.CheckHandRequest(
            indicator=tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=4)
        ).SerializeToString()
    )
    assert quick_inputs(data) is None
    with pytest.raises(InvalidInputError) as raised:
        check_hand_inputs(data)
    assert raised.value.field == "indicator.color"  # a false joker has no colour
    _assert_same(data)


def test_bytes_that_do_not_parse_are_refused_as_the_request():
    with pytest.raises(InvalidInputError) as raised:
        check_hand_inputs(b"\xff\xff\xff")
    assert raised.value.field == "request"
    assert raised.value.description.startswith("the request body does not decode")


def test_a_tile_with_an_unknown_field_is_read_the_ordinary_way():
    # A red 7 followed by an unknown field 15: not the bytes protobuf writes
    # for a red 7, so the quick way steps aside; the tile is still a red 7.
    request = hand_pb2.CheckHandRequest(okey_notation="B5")
    for code in range(13):
        request.tiles.add().CopyFrom(tile_to_proto(Tile.from_code(code)))
    request.tiles.add().MergeFromString(
        tile_to_proto(Tile.from_face(6, 1)).SerializeToString() + b"\x78\x01"
    )
    data = request.SerializeToString()
    assert quick_inputs(data) is None
    tiles, _, _, _ = check_hand_inputs(data)
    assert tiles[-1] == Tile.from_face(6, 1)
    _assert_same(data)


def test_the_view_has_the_request_fields_with_their_numbers():
    from okey_server.check_hand_request import _RequestView

    def numbers(descriptor):
        return {f.name: f.number for f in descriptor.fields}

    assert numbers(_RequestView.DESCRIPTOR) == numbers(hand_pb2.CheckHandRequest.DESCRIPTOR)
