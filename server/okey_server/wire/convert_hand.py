"""Hand-checking answers (HandVerdict / DiscardVerdict) -> serialized okey.v1.CheckHandResponse.

The one module that writes protobuf bytes by hand. The answer is put
together from parts kept per meld, per tile and per indicator, each part
serialized by protobuf itself once. It earns its place: building the message
and serializing it instead cost CheckHand about 100 more server CPU-µs per
call in bench/rpc_bench.py (its ratio to the health Check went from about
1.2 to 1.4), about a sixth of the RPC's whole cost.

The price is that a field added to the contract is not written until it is
added here: `WRITTEN_FIELDS` lists every field this module writes, and
tests/unit/test_convert_hand_wire.py fails when the descriptors hold one more.
Those tests also hold every answer equal to protobuf's own serialization.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from google.protobuf.message import Message
from okey.v1 import hand_pb2
from okey_rules.bounded_cache import BoundedCache
from okey_rules.search.hand_types import (
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

from okey_server.wire.convert_tile import tile_bytes, tile_message

# Every field of every message in an answer, by message: what this module
# writes (Tile and PlacedTile through protobuf, from the fields named here).
WRITTEN_FIELDS: dict[str, frozenset[str]] = {
    "okey.v1.CheckHandResponse": frozenset(
        {"winning", "kind", "arrangement", "indicator", "okey", "winning_discards",
         "okey_discard_wins", "kinds", "summary"}
    ),
    "okey.v1.Arrangement": frozenset({"melds", "notation"}),
    "okey.v1.Meld": frozenset({"kind", "tiles"}),
    "okey.v1.PlacedTile": frozenset({"tile", "stands_for", "wild"}),
    "okey.v1.WinningDiscard": frozenset({"tile", "okey", "kind", "arrangement"}),
    "okey.v1.Tile": frozenset({"color", "number", "false_joker", "copy"}),
}

WIN_KIND_TO_PROTO: dict[WinKind, hand_pb2.WinKind] = {
    WinKind.MELDS: hand_pb2.WIN_KIND_MELDS,
    WinKind.SEVEN_PAIRS: hand_pb2.WIN_KIND_SEVEN_PAIRS,
    WinKind.KAFA: hand_pb2.WIN_KIND_KAFA,
}
MELD_KIND_TO_PROTO: dict[MeldKind, hand_pb2.MeldKind] = {
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
# Per placed tile: Meld(tiles=[that PlacedTile]) serialized, and its notation.
# They depend on (tile code, stands-for code, wild) only: at most 106 * 106 * 2
# entries, in practice a few hundred. The engine builds each Placed once and
# keeps it (about 11,000: one per tile, okey and what it stands for), so they
# are also kept by identity, which is the cheaper lookup; that entry holds the
# Placed itself so that its id cannot be reused while the entry lives. Bounded
# by a BoundedCache, for callers that build their own.
_KEPT_LIMIT = 1 << 15  # entries per identity-keyed dict
_placed: BoundedCache[int, tuple[Placed, bytes, str]] = BoundedCache(_KEPT_LIMIT)
_placed_by_content: dict[tuple[int, int, bool], tuple[bytes, str]] = {}


def _placed_entry(placed: Placed) -> tuple[Placed, bytes, str]:
    tile, stands_for, wild = placed
    key = (tile.copy * FACES + tile.face, stands_for.copy * FACES + stands_for.face, wild)
    content = _placed_by_content.get(key)
    if content is None:
        # A benign race: two threads may build equal entries; either one serves.
        message = hand_pb2.PlacedTile(
            tile=tile_message(tile), stands_for=tile_message(stands_for), wild=wild
        )
        content = _placed_by_content[key] = (
            hand_pb2.Meld(tiles=[message]).SerializeToString(),
            placed.notation(),
        )
    return _remember(_placed, (placed, *content))


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


# Length prefixes up to this length come from a table: a meld, an
# arrangement and a discard entry are all shorter.
_SHORT = 1 << 12
_LENGTH_PREFIX = tuple(_varint(length) for length in range(_SHORT))


def _delimited(tag: bytes, payload: bytes) -> bytes:
    length = len(payload)
    prefix = _LENGTH_PREFIX[length] if length < _SHORT else _varint(length)
    return tag + prefix + payload


_VARINT, _LENGTH_DELIMITED = 0, 2
_MELDS_TAG = _tag(hand_pb2.Arrangement, "melds", _LENGTH_DELIMITED)

# Per meld: its bytes as one entry of Arrangement.melds, and its notation.
# The engine hands out the same Meld object for the same meld (it keeps the
# melds it built), so these are keyed by identity; the entry holds the Meld
# itself, so its id cannot be reused while the entry lives (a BoundedCache).
_meld_wire: BoundedCache[int, tuple[Meld, bytes, str]] = BoundedCache(_KEPT_LIMIT)


def _wire_of(meld: Meld) -> tuple[Meld, bytes, str]:
    datas, notations = _looked_up(meld.tiles, _placed, _placed_entry)
    body = _KIND_BYTES[meld.kind] + b"".join(datas)
    return _remember(_meld_wire, (meld, _delimited(_MELDS_TAG, body), " ".join(notations)))


def _arrangement_parts(arrangement: Arrangement) -> tuple[bytes, str]:
    """The melds of `arrangement` as Arrangement.melds entries, and its notation."""
    parts, notations = _looked_up(arrangement.melds, _meld_wire, _wire_of)
    return b"".join(parts), " | ".join(notations)


_Item = TypeVar("_Item")


def _looked_up(
    items: Iterable[_Item],
    kept: BoundedCache[int, tuple[_Item, bytes, str]],
    build: Callable[[_Item], tuple[_Item, bytes, str]],
) -> tuple[list[bytes], list[str]]:
    """Each item's bytes and notation, kept by identity (see `_placed`), built when missing."""
    datas = []
    notations = []
    entries = kept.entries  # the same dict after a clear: safe to bind once
    for item in items:
        entry = entries.get(id(item))
        if entry is None or entry[0] is not item:
            entry = build(item)
        datas.append(entry[1])
        notations.append(entry[2])
    return datas, notations


def _remember(
    kept: BoundedCache[int, tuple[_Item, bytes, str]], entry: tuple[_Item, bytes, str]
) -> tuple[_Item, bytes, str]:
    """Keeps `entry` by its item's identity (the cache empties itself when full)."""
    # A benign race: two threads may build equal entries; either one serves.
    return kept.put(id(entry[0]), entry)


def arrangement_bytes(arrangement: Arrangement) -> bytes:
    """`arrangement` as a serialized okey.v1.Arrangement: its melds, then its notation."""
    melds, notation = _arrangement_parts(arrangement)
    return melds + _delimited(_NOTATION, notation.encode())


_DISCARD_ENTRY = _tag(hand_pb2.CheckHandResponse, "winning_discards", _LENGTH_DELIMITED)
_DISCARD_TILE = _tag(hand_pb2.WinningDiscard, "tile", _LENGTH_DELIMITED)
_DISCARD_OKEY = _tag(hand_pb2.WinningDiscard, "okey", _VARINT) + b"\x01"
_DISCARD_KIND = _tag(hand_pb2.WinningDiscard, "kind", _VARINT)
_DISCARD_ARRANGEMENT = _tag(hand_pb2.WinningDiscard, "arrangement", _LENGTH_DELIMITED)
_NOTATION = _tag(hand_pb2.Arrangement, "notation", _LENGTH_DELIMITED)
_KIND_VARINT = {kind: _varint(value) for kind, value in WIN_KIND_TO_PROTO.items()}


def _discard_entry(discard: WinningDiscard, arrangements: bool) -> bytes:
    """One CheckHandResponse.winning_discards entry, written as bytes (see `_KIND_BYTES`)."""
    body = (
        _delimited(_DISCARD_TILE, tile_bytes(discard.tile))
        + (_DISCARD_OKEY if discard.okey else b"")
        + _DISCARD_KIND
        + _KIND_VARINT[discard.kind]
    )
    if arrangements:
        body += _delimited(_DISCARD_ARRANGEMENT, arrangement_bytes(discard.arrangement))
    return _delimited(_DISCARD_ENTRY, body)


# A CheckHandResponse is written as bytes too, its fields in number order (as
# protobuf writes them): winning, kind, arrangement, indicator, okey,
# winning_discards, okey_discard_wins, kinds (packed), summary. A false bool,
# an unset kind and an empty list are left out, as proto3 does.
_RESPONSE = hand_pb2.CheckHandResponse
_WINNING = _tag(_RESPONSE, "winning", _VARINT) + b"\x01"
_KIND = {
    kind: _tag(_RESPONSE, "kind", _VARINT) + varint for kind, varint in _KIND_VARINT.items()
}
_ARRANGEMENT = _tag(_RESPONSE, "arrangement", _LENGTH_DELIMITED)
_OKEY_DISCARD_WINS = _tag(_RESPONSE, "okey_discard_wins", _VARINT) + b"\x01"
_KINDS = _tag(_RESPONSE, "kinds", _LENGTH_DELIMITED)
_SUMMARY = _tag(_RESPONSE, "summary", _LENGTH_DELIMITED)

# Bytes that recur, built on first use: the indicator and okey fields by
# (indicator code, okey code); the kinds field by kinds; the summary field of
# 14-tile answers by summary (a handful of texts).
_HEADERS: dict[tuple[int, int], bytes] = {}
_KINDS_FIELD: dict[tuple[WinKind, ...], bytes] = {}
_SUMMARY_FIELD: dict[str, bytes] = {}


def _header(indicator: Tile, okey: Tile) -> bytes:
    key = (indicator.copy * FACES + indicator.face, okey.copy * FACES + okey.face)
    header = _HEADERS.get(key)
    if header is None:
        # A benign race: two threads may serialize equal bytes; either one serves.
        header = _HEADERS[key] = _RESPONSE(
            indicator=tile_message(indicator), okey=tile_message(okey)
        ).SerializeToString()
    return header


def _kinds_field(kinds: tuple[WinKind, ...]) -> bytes:
    field = _KINDS_FIELD.get(kinds)
    if field is None:
        packed = b"".join([_KIND_VARINT[kind] for kind in kinds])
        field = _KINDS_FIELD[kinds] = _delimited(_KINDS, packed) if kinds else b""
    return field


def _summary_field(summary: str) -> bytes:
    field = _SUMMARY_FIELD.get(summary)
    if field is None:
        field = _SUMMARY_FIELD[summary] = _delimited(_SUMMARY, summary.encode())
    return field


def hand_answer(
    verdict: HandVerdict, indicator: Tile, okey: Tile, arrangements: bool = True
) -> bytes:
    """The serialized answer for 14 tiles: verdict, best kind, every kind, one arrangement.

    Without `arrangements` the arrangement is left out (and never built).
    """
    header = _header(indicator, okey)
    if not verdict.winning:
        return header + _summary_field(verdict.summary)
    # A winning verdict has a kind and an arrangement (HandVerdict); the types say
    # Optional, and the hot path does not check again.
    arrangement = (
        _delimited(_ARRANGEMENT, arrangement_bytes(verdict.arrangement))  # type: ignore[arg-type]  # winning
        if arrangements
        else b""
    )
    return (
        _WINNING
        + _KIND[verdict.kind]  # type: ignore[index]  # winning: a kind
        + arrangement
        + header
        + _kinds_field(verdict.kinds)
        + _summary_field(verdict.summary)
    )


def discards_answer(
    verdict: DiscardVerdict, indicator: Tile, okey: Tile, arrangements: bool = True
) -> bytes:
    """The serialized answer for 15 tiles: `winning` is true when at least one discard wins.

    Without `arrangements` no discard carries its arrangement (none is built).
    """
    return b"".join(
        [
            _WINNING if verdict.winning else b"",
            _header(indicator, okey),
            *[_discard_entry(discard, arrangements) for discard in verdict.discards],
            _OKEY_DISCARD_WINS if verdict.okey_discard_wins else b"",
            # Each winning 15 has its own summary: not worth keeping.
            _delimited(_SUMMARY, verdict.summary.encode()),
        ]
    )

