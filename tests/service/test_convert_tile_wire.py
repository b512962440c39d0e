"""Reading CheckHand tiles from the request's bytes agrees with reading the messages.

The servicer reads `tiles` through a wire view (field 3 as raw bytes, each
looked up among the valid tiles' bytes); anything unusual falls back to the
message path, which names the bad field. These tests hold the two together.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from okey.v1 import hand_pb2, tile_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.tiles import Tile
from okey_server.convert_tile import (
    TILES_FIELD_NUMBER,
    tile_to_proto,
    tiles_from_proto,
    tiles_from_wire,
)


def test_the_view_reads_the_field_that_holds_the_tiles():
    assert hand_pb2.CheckHandRequest.DESCRIPTOR.fields_by_name["tiles"].number == TILES_FIELD_NUMBER


@given(st.lists(st.integers(0, 105), min_size=0, max_size=15))
def test_wire_view_gives_the_same_tiles_as_the_messages(codes):
    request = hand_pb2.CheckHandRequest(
        tiles=[tile_to_proto(Tile.from_code(code)) for code in codes], okey_notation="R5"
    )
    assert tiles_from_wire(request, "tiles") == [Tile.from_code(c) for c in codes]


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        (tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=14), "tiles[1].number"),
        (tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=3, copy=2), "tiles[1].copy"),
        (tile_pb2.Tile(number=3), "tiles[1].color"),
        (tile_pb2.Tile(false_joker=True, number=3), "tiles[1].number"),
    ],
)
def test_a_bad_tile_falls_back_and_is_named_by_its_field(bad, field):
    request = hand_pb2.CheckHandRequest(tiles=[tile_to_proto(Tile.from_code(0)), bad])
    with pytest.raises(InvalidInputError) as raised:
        tiles_from_wire(request, "tiles")
    assert raised.value.field == field


def test_a_tile_with_an_unknown_field_is_still_read_by_the_message_path():
    # Bytes of a valid red 7 followed by an unknown field 15 (varint 1): not
    # the bytes protobuf writes for a red 7, so the view misses and falls back.
    red7 = tile_to_proto(Tile.from_face(6)).SerializeToString() + b"\x78\x01"
    request = hand_pb2.CheckHandRequest()
    request.tiles.add().MergeFromString(red7)
    assert tiles_from_wire(request, "tiles") == [Tile.from_face(6)]
    assert tiles_from_proto(request.tiles, "tiles") == [Tile.from_face(6)]
