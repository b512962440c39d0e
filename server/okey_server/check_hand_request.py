"""CheckHand's inputs (tiles, indicator and okey, ruleset) from a CheckHandRequest."""

from __future__ import annotations

from okey.v1 import hand_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FALSE_JOKER_FACE, Tile, check_tile_multiset, okey_for

from okey_server.convert_ruleset import ruleset_from_proto
from okey_server.convert_tile import (
    tile_from_notation,
    tile_from_proto,
    tiles_from_notation,
    tiles_from_proto,
)

HAND_SIZES = (14, 15)
Inputs = tuple[list[Tile], Tile, Tile, Ruleset]  # tiles, indicator, okey, rules


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
