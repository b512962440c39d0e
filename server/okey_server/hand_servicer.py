"""okey.v1.HandService: validates and converts CheckHand, asks the engine, converts back."""

from __future__ import annotations

import grpc
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.hand import check_hand, winning_discards
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import Tile, check_tile_multiset, indicator_for, okey_for

from okey_server.config import Config
from okey_server.convert_hand import discard_verdict_to_proto, hand_verdict_to_proto
from okey_server.convert_ruleset import ruleset_from_proto
from okey_server.convert_tile import (
    tile_from_notation,
    tile_from_proto,
    tiles_from_notation,
    tiles_from_proto,
)

HAND_SIZES = (14, 15)
_WILD_FIELDS = ("indicator", "okey", "indicator_notation", "okey_notation")


def hand_tiles(request: hand_pb2.CheckHandRequest) -> list[Tile]:
    """The 14 or 15 tiles of the request, from `tiles` or `tiles_notation` (exactly one)."""
    has_tiles, has_notation = len(request.tiles) > 0, request.tiles_notation != ""
    if has_tiles == has_notation:
        raise InvalidInputError(
            "tiles",
            "give the hand either as tiles or as tiles_notation"
            + (", not both" if has_tiles else ""),
        )
    if has_tiles:
        _check_count(len(request.tiles))  # before converting: a huge list costs nothing
        tiles = tiles_from_proto(request.tiles, "tiles")
        check_tile_multiset(tiles, "tiles")
        return tiles
    tiles = tiles_from_notation(request.tiles_notation, "tiles_notation")
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


def _same_face(tile: Tile) -> Tile:
    # Only the face of the indicator and the okey matters; copy 0 keeps answers canonical.
    return Tile(tile.color, tile.number) if tile.copy else tile


def indicator_and_okey(request: hand_pb2.CheckHandRequest) -> tuple[Tile, Tile]:
    """The indicator and the okey from whichever one of the four wild fields is set."""
    given = [
        name
        for name in _WILD_FIELDS
        if (request.HasField(name) if name in ("indicator", "okey") else getattr(request, name))
    ]
    if len(given) != 1:
        wanted = "give exactly one of indicator, okey, indicator_notation, okey_notation"
        got = f" (got {', '.join(given)})" if given else ""
        raise InvalidInputError("indicator", wanted + got)
    field = given[0]
    if field in ("indicator", "okey"):
        tile = tile_from_proto(getattr(request, field), field)
    else:
        tile = tile_from_notation(getattr(request, field), field)
    if tile.is_false_joker:
        # RULES.md §2: a false joker turned up as indicator goes back; it is never the okey.
        role = "indicator" if field.startswith("indicator") else "okey"
        raise InvalidInputError(field, f"a false joker cannot be the {role}")
    tile = _same_face(tile)
    if field.startswith("indicator"):
        return tile, okey_for(tile)
    return indicator_for(tile), tile


class HandServicer(hand_pb2_grpc.HandServiceServicer):
    """Thin: every rule is in okey_rules.hand; this class only translates."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def CheckHand(  # noqa: N802 (the RPC's name)
        self, request: hand_pb2.CheckHandRequest, _context: grpc.ServicerContext
    ) -> hand_pb2.CheckHandResponse:
        # Validate everything before the engine runs, so a bad request is never
        # mistaken for an engine failure.
        tiles = hand_tiles(request)
        indicator, okey = indicator_and_okey(request)
        rules: Ruleset = ruleset_from_proto(request.preset, request.ruleset)
        if len(tiles) == HAND_SIZES[0]:
            return hand_verdict_to_proto(check_hand(tiles, okey, rules), indicator, okey)
        return discard_verdict_to_proto(winning_discards(tiles, okey, rules), indicator, okey)
