"""Hand-checking answers (HandVerdict / DiscardVerdict) -> okey.v1.CheckHandResponse."""

from __future__ import annotations

from google.protobuf.message import Message
from okey.v1 import hand_pb2
from okey_rules.hand_types import (
    Arrangement,
    DiscardVerdict,
    HandVerdict,
    Meld,
    MeldKind,
    Placed,
    WinKind,
    WinningDiscard,
)
from okey_rules.tiles import FACES, Tile

from okey_server.convert_tile import tile_bytes, tile_message

WIN_KIND_TO_PROTO: dict[WinKind, int] = {
    WinKind.MELDS: hand_pb2.WIN_KIND_MELDS,
    WinKind.SEVEN_PAIRS: hand_pb2.WIN_KIND_SEVEN_PAIRS,
    WinKind.KAFA: hand_pb2.WIN_KIND_KAFA,
}
MELD_KIND_TO_PROTO: dict[MeldKind, int] = {
    MeldKind.SET: hand_pb2.MELD_KIND_SET,
    MeldKind.RUN: hand_pb2.MELD_KIND_RUN,
    MeldKind.PAIR: hand_pb2.MELD_KIND_PAIR,
}


# A meld is written as bytes and parsed once (C speed) rather than built field
# by field (Python speed): parsing the concatenation of serialized messages
# merges them, and a repeated field's elements are appended in order. So a
# Meld's bytes are its kind's Meld(kind=k) followed by one Meld(tiles=[t])
# per tile, both serialized by protobuf itself.
_KIND_BYTES: dict[MeldKind, bytes] = {
    kind: hand_pb2.Meld(kind=value).SerializeToString()
    for kind, value in MELD_KIND_TO_PROTO.items()
}
# Per placed tile: Meld(tiles=[that PlacedTile]) serialized, and its notation,
# by (tile code, stands-for code, wild): at most 106 * 106 * 2 entries, in
# practice a few hundred.
_PLACED: dict[tuple[int, int, bool], tuple[bytes, str]] = {}


def _placed_wire(placed: Placed) -> tuple[bytes, str]:
    tile, stands_for, wild = placed
    key = (tile.copy * FACES + tile.face, stands_for.copy * FACES + stands_for.face, wild)
    entry = _PLACED.get(key)
    if entry is None:
        # A benign race: two threads may serialize equal bytes; either one serves.
        message = hand_pb2.PlacedTile(
            tile=tile_message(tile), stands_for=tile_message(stands_for), wild=wild
        )
        entry = _PLACED[key] = (
            hand_pb2.Meld(tiles=[message]).SerializeToString(),
            placed.notation(),
        )
    return entry


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _tag(message: type[Message], field: str, wire_type: int) -> bytes:
    number: int = message.DESCRIPTOR.fields_by_name[field].number
    return _varint(number << 3 | wire_type)


def _delimited(tag: bytes, payload: bytes) -> bytes:
    return tag + _varint(len(payload)) + payload


_VARINT, _LENGTH_DELIMITED = 0, 2
_MELDS_TAG = _tag(hand_pb2.Arrangement, "melds", _LENGTH_DELIMITED)

# Per meld: its bytes as one entry of Arrangement.melds, and its notation.
# The engine hands out the same Meld object for the same meld (it keeps the
# melds it built), so these are keyed by identity; the entry holds the Meld
# itself, so its id cannot be reused while the entry lives. Bounded by clearing.
_MELD_WIRE_LIMIT = 1 << 15
_meld_wire: dict[int, tuple[Meld, bytes, str]] = {}


def _wire_of(meld: Meld) -> tuple[Meld, bytes, str]:
    placed = [_placed_wire(p) for p in meld.tiles]
    body = _KIND_BYTES[meld.kind] + b"".join([data for data, _ in placed])
    entry = (
        meld,
        _delimited(_MELDS_TAG, body),
        " ".join([notation for _, notation in placed]),
    )
    if len(_meld_wire) >= _MELD_WIRE_LIMIT:
        _meld_wire.clear()
    _meld_wire[id(meld)] = entry
    return entry


def _arrangement_parts(arrangement: Arrangement) -> tuple[bytes, str]:
    """The melds of `arrangement` as Arrangement.melds entries, and its notation."""
    parts = []
    notations = []
    for meld in arrangement.melds:
        entry = _meld_wire.get(id(meld))
        if entry is None or entry[0] is not meld:
            entry = _wire_of(meld)
        parts.append(entry[1])
        notations.append(entry[2])
    return b"".join(parts), " | ".join(notations)


def fill_arrangement(target: hand_pb2.Arrangement, arrangement: Arrangement) -> None:
    """Writes the melds and their notation into `target` (a hot path: see `_KIND_BYTES`)."""
    melds, notation = _arrangement_parts(arrangement)
    target.MergeFromString(melds)
    target.notation = notation


_DISCARD_ENTRY = _tag(hand_pb2.CheckHandResponse, "winning_discards", _LENGTH_DELIMITED)
_DISCARD_TILE = _tag(hand_pb2.WinningDiscard, "tile", _LENGTH_DELIMITED)
_DISCARD_OKEY = _tag(hand_pb2.WinningDiscard, "okey", _VARINT) + b"\x01"
_DISCARD_KIND = _tag(hand_pb2.WinningDiscard, "kind", _VARINT)
_DISCARD_ARRANGEMENT = _tag(hand_pb2.WinningDiscard, "arrangement", _LENGTH_DELIMITED)
_NOTATION = _tag(hand_pb2.Arrangement, "notation", _LENGTH_DELIMITED)
_KIND_VARINT = {kind: _varint(value) for kind, value in WIN_KIND_TO_PROTO.items()}


def _discard_entry(discard: WinningDiscard) -> bytes:
    """One CheckHandResponse.winning_discards entry, written as bytes (see `_KIND_BYTES`)."""
    melds, notation = _arrangement_parts(discard.arrangement)
    arrangement = melds + _delimited(_NOTATION, notation.encode())
    body = (
        _delimited(_DISCARD_TILE, tile_bytes(discard.tile))
        + (_DISCARD_OKEY if discard.okey else b"")
        + _DISCARD_KIND
        + _KIND_VARINT[discard.kind]
        + _delimited(_DISCARD_ARRANGEMENT, arrangement)
    )
    return _delimited(_DISCARD_ENTRY, body)


# The indicator and okey of an answer serialized, by (indicator code, okey code).
_HEADERS: dict[tuple[int, int], bytes] = {}


def _answer(
    winning: bool, summary: str, indicator: Tile, okey: Tile
) -> hand_pb2.CheckHandResponse:
    """The fields every CheckHand answer carries, for 14 tiles and for 15."""
    key = (indicator.copy * FACES + indicator.face, okey.copy * FACES + okey.face)
    header = _HEADERS.get(key)
    if header is None:
        header = _HEADERS[key] = hand_pb2.CheckHandResponse(
            indicator=tile_message(indicator), okey=tile_message(okey)
        ).SerializeToString()
    response = hand_pb2.CheckHandResponse.FromString(header)
    response.winning = winning
    response.summary = summary
    return response


def hand_verdict_to_proto(
    verdict: HandVerdict, indicator: Tile, okey: Tile
) -> hand_pb2.CheckHandResponse:
    """The answer for 14 tiles: verdict, best kind, every kind, one canonical arrangement."""
    response = _answer(verdict.winning, verdict.summary, indicator, okey)
    if verdict.kind is not None:
        response.kind = WIN_KIND_TO_PROTO[verdict.kind]
        response.kinds.extend([WIN_KIND_TO_PROTO[kind] for kind in verdict.kinds])
    if verdict.arrangement is not None:
        fill_arrangement(response.arrangement, verdict.arrangement)
    return response


def discard_verdict_to_proto(
    verdict: DiscardVerdict, indicator: Tile, okey: Tile
) -> hand_pb2.CheckHandResponse:
    """The answer for 15 tiles: `winning` is true when at least one discard wins."""
    response = _answer(verdict.winning, verdict.summary, indicator, okey)
    response.okey_discard_wins = verdict.okey_discard_wins
    if verdict.discards:
        # In order: parsing bytes appends to a repeated field.
        response.MergeFromString(b"".join([_discard_entry(d) for d in verdict.discards]))
    return response
