"""CheckHand's inputs (tiles, indicator and okey, ruleset) from the request's bytes.

The servicer receives CheckHand requests as bytes. A well-formed request is
read through a view (`_RequestView`): the request's own fields, with every
message-typed field read as repeated raw bytes. Its tiles are then one lookup
each among the valid tiles' serialized forms, its indicator or okey one
lookup, its preset one lookup. Anything else (a tile written otherwise than
protobuf writes it, a ruleset, a field given twice, any mistake) is read the
ordinary way, as a CheckHandRequest message, which names what is wrong. Both
ways share every check that can fail, so they give the same answer.

A singular message field read as repeated shows when a request repeats it:
protobuf merges repeats of a message field, and only the ordinary way does.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message
from okey.v1 import hand_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import PRESETS, Ruleset
from okey_rules.tiles import FALSE_JOKER_FACE, Tile, check_tile_multiset, format_tile, okey_for

from okey_server.convert_ruleset import ruleset_from_proto
from okey_server.convert_tile import (
    TILE_OF_BYTES,
    tile_from_notation,
    tile_from_proto,
    tiles_from_notation,
    tiles_from_proto,
)
from okey_server.rpc_wrapper import undecodable

HAND_SIZES = (14, 15)
Inputs = tuple[list[Tile], Tile, Tile, Ruleset]  # tiles, indicator, okey, rules


def check_hand_inputs(data: bytes) -> Inputs:
    """The inputs of a serialized CheckHandRequest; InvalidInputError names a bad field."""
    quick = quick_inputs(data)
    if quick is not None:
        return quick
    try:
        request = hand_pb2.CheckHandRequest.FromString(data)
    except DecodeError as exc:
        raise InvalidInputError("request", undecodable(exc)) from None
    return request_inputs(request)


def request_inputs(request: hand_pb2.CheckHandRequest) -> Inputs:
    """The inputs of a CheckHandRequest message, checked in field order of importance.

    Tiles first, then the wild, then the ruleset: a request wrong in several
    places is told about its tiles.
    """
    tiles = hand_tiles(request)
    indicator, okey = indicator_and_okey(request)
    return tiles, indicator, okey, ruleset_from_proto(request.preset, request.ruleset)


def hand_tiles(request: hand_pb2.CheckHandRequest) -> list[Tile]:
    """The 14 or 15 tiles of the request, from `tiles` or `tiles_notation` (exactly one)."""
    messages = request.tiles
    count = len(messages)
    has_notation = request.tiles_notation != ""
    if (count > 0) == has_notation:
        raise InvalidInputError(
            "tiles",
            "give the hand either as tiles or as tiles_notation"
            + (", not both" if count else ""),
        )
    if count:
        _check_count(count)  # before converting: a huge list costs nothing
        tiles = tiles_from_proto(messages, "tiles")
        check_tile_multiset(tiles, "tiles")
        return tiles
    return notation_tiles(request.tiles_notation)


def notation_tiles(text: str) -> list[Tile]:
    """The hand given as `tiles_notation`: 14 or 15 tiles that can exist together."""
    tiles = tiles_from_notation(text, "tiles_notation")
    _check_count(len(tiles))
    try:
        check_tile_multiset(tiles, "tiles")
    except InvalidInputError as exc:
        # The engine names tiles[i]; for notation input point at the string instead.
        place = int(exc.field.removeprefix("tiles[").removesuffix("]")) + 1
        raise InvalidInputError("tiles_notation", f"tile {place}: {exc.description}") from None
    return tiles


def _check_count(count: int) -> None:
    if count not in HAND_SIZES:
        raise InvalidInputError(
            "tiles", f"a hand has 14 tiles (15 to ask which discard wins), not {count}"
        )


def _wild_tables() -> tuple[dict[int, tuple[Tile, Tile]], dict[int, tuple[Tile, Tile]]]:
    """(indicator, okey) pairs by the indicator's face and by the okey's, from `okey_for`.

    Only the faces matter, so both tiles are copy 0, which keeps answers canonical.
    """
    by_indicator, by_okey = {}, {}
    for face in range(FALSE_JOKER_FACE):
        indicator = Tile.from_face(face)
        pair = (indicator, okey_for(indicator))
        by_indicator[face] = by_okey[pair[1].face] = pair
    return by_indicator, by_okey


_BY_INDICATOR_FACE, _BY_OKEY_FACE = _wild_tables()
_WILD_FIELDS = ("indicator", "okey", "indicator_notation", "okey_notation")


def indicator_and_okey(request: hand_pb2.CheckHandRequest) -> tuple[Tile, Tile]:
    """The indicator and the okey from whichever one of the four wild fields is set."""
    given = (
        request.HasField("indicator"),
        request.HasField("okey"),
        request.indicator_notation != "",
        request.okey_notation != "",
    )
    if sum(given) != 1:
        names = [name for name, is_set in zip(_WILD_FIELDS, given, strict=True) if is_set]
        wanted = "give exactly one of indicator, okey, indicator_notation, okey_notation"
        got = f" (got {', '.join(names)})" if names else ""
        raise InvalidInputError("indicator", wanted + got)
    field = _WILD_FIELDS[given.index(True)]
    if given[0] or given[1]:
        tile = tile_from_proto(getattr(request, field), field)
    else:
        tile = tile_from_notation(getattr(request, field), field)
    is_indicator = field.startswith("indicator")
    if tile.is_false_joker:
        # RULES.md §2: a false joker turned up as indicator goes back; it is never the okey.
        role = "indicator" if is_indicator else "okey"
        raise InvalidInputError(field, f"a false joker cannot be the {role}")
    return (_BY_INDICATOR_FACE if is_indicator else _BY_OKEY_FACE)[tile.face]


def _view_class() -> type[Message]:
    """CheckHandRequest's fields, each message-typed one as ``repeated bytes``.

    Built at run time from the request's own descriptor, so the two cannot
    drift apart; it is no part of the public contract.
    """
    file = descriptor_pb2.FileDescriptorProto(
        name="okey_server/check_hand_request_view.proto",
        package="okey_server.internal",
        syntax="proto3",
    )
    view = file.message_type.add(name="CheckHandRequestView")
    types = descriptor_pb2.FieldDescriptorProto
    for field in hand_pb2.CheckHandRequest.DESCRIPTOR.fields:
        if field.type == types.TYPE_MESSAGE:
            kind, label = types.TYPE_BYTES, types.LABEL_REPEATED
        else:
            # An enum's values are int32 on the wire (proto3 enums are open).
            kind = types.TYPE_INT32 if field.type == types.TYPE_ENUM else field.type
            label = types.LABEL_REPEATED if field.is_repeated else types.LABEL_OPTIONAL
        view.field.add(name=field.name, number=field.number, type=kind, label=label)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    found: type[Message] = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("okey_server.internal.CheckHandRequestView")
    )
    return found


_RequestView = _view_class()

# (indicator, okey) pairs by the serialized indicator or okey and by its
# canonical notation; rulesets by preset name as written. Misses go the
# ordinary way.
_WILD_BY_BYTES: tuple[dict[bytes, tuple[Tile, Tile]], dict[bytes, tuple[Tile, Tile]]] = (
    {data: _BY_INDICATOR_FACE[t.face] for data, t in TILE_OF_BYTES.items() if not t.is_false_joker},
    {data: _BY_OKEY_FACE[t.face] for data, t in TILE_OF_BYTES.items() if not t.is_false_joker},
)
_WILD_BY_NOTATION: tuple[dict[str, tuple[Tile, Tile]], dict[str, tuple[Tile, Tile]]] = (
    {format_tile(pair[0]): pair for pair in _BY_INDICATOR_FACE.values()},
    {format_tile(pair[1]): pair for pair in _BY_OKEY_FACE.values()},
)
_RULES_BY_PRESET: dict[str, Ruleset] = {
    name: ruleset_from_proto(name, hand_pb2.CheckHandRequest().ruleset) for name in ("", *PRESETS)
}
_NUMBER = {field.name: field.number for field in hand_pb2.CheckHandRequest.DESCRIPTOR.fields}
_PRESET, _TILES, _TILES_NOTATION = _NUMBER["preset"], _NUMBER["tiles"], _NUMBER["tiles_notation"]
# The four wild fields by number: (read as bytes?, its table).
_WildTable = dict[bytes, tuple[Tile, Tile]] | dict[str, tuple[Tile, Tile]]
_WILD_LOOKUP: dict[int, tuple[bool, _WildTable]] = {
    _NUMBER["indicator"]: (True, _WILD_BY_BYTES[0]),
    _NUMBER["okey"]: (True, _WILD_BY_BYTES[1]),
    _NUMBER["indicator_notation"]: (False, _WILD_BY_NOTATION[0]),
    _NUMBER["okey_notation"]: (False, _WILD_BY_NOTATION[1]),
}


def quick_inputs(data: bytes) -> Inputs | None:
    """The inputs of a well-formed request in its usual form, or None (see the module doc).

    The usual form: maybe a preset, the tiles (as tiles or as notation), and
    one wild field; nothing else.
    """
    try:
        # The fields present, in number order (a proto3 field at its default is absent).
        fields = _RequestView.FromString(data).ListFields()
    except DecodeError:
        return None
    rules = _RULES_BY_PRESET[""]
    if fields and fields[0][0].number == _PRESET:
        found = _RULES_BY_PRESET.get(fields[0][1])
        if found is None:
            return None
        rules = found
        del fields[0]
    if len(fields) != 2:
        return None
    (hand_field, hand), (wild_field, wild_value) = fields
    as_bytes, wilds = _WILD_LOOKUP.get(wild_field.number, (False, None))
    if wilds is None:
        return None
    if as_bytes:
        if len(wild_value) != 1:
            return None  # given twice: protobuf would merge them
        wild_value = wild_value[0]
    wild = wilds.get(wild_value)
    if wild is None:
        return None
    number = hand_field.number
    if number == _TILES_NOTATION:
        tiles = notation_tiles(hand)
    elif number == _TILES and len(hand) in HAND_SIZES:
        try:
            tiles = list(map(TILE_OF_BYTES.__getitem__, hand))
        except KeyError:
            return None
        # Whether these tiles can exist together is the engine's first check,
        # which names the tile as the ordinary way would.
    else:
        return None
    return tiles, wild[0], wild[1], rules
