"""Tile <-> okey.v1.Tile, and tiles from request notation, with field paths in errors."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from okey.v1 import tile_pb2
from okey_rules.errors import InvalidInputError, NotationError
from okey_rules.tiles import (
    COPIES,
    FACES,
    NUMBERS,
    TILE_OF_CODE,
    Color,
    Tile,
    parse_tile,
    parse_tiles,
)

# Proto colours are 1-based (0 is UNSPECIFIED); domain colours are 0-based.
COLOR_TO_DOMAIN: dict[tile_pb2.Color, Color] = {
    tile_pb2.COLOR_RED: Color.RED,
    tile_pb2.COLOR_YELLOW: Color.YELLOW,
    tile_pb2.COLOR_BLUE: Color.BLUE,
    tile_pb2.COLOR_BLACK: Color.BLACK,
}
COLOR_TO_PROTO: dict[Color, tile_pb2.Color] = {
    color: value for value, color in COLOR_TO_DOMAIN.items()
}
# Notation longer than this is no hand: refuse it before parsing.
MAX_NOTATION_CHARS = 1000
_INDEX = re.compile(r"\[(\d+)\]")

# Every valid (color, number, false_joker, copy) wire form -> its shared frozen Tile:
# the common case is one dict lookup per tile; only a miss pays for diagnosis.
_VALID: dict[tuple[int, int, bool, int], Tile] = {
    (0, 0, True, copy): Tile.false_joker(copy) for copy in range(COPIES)
} | {
    (value, number, False, copy): Tile(color, number, copy)
    for value, color in COLOR_TO_DOMAIN.items()
    for number in range(1, NUMBERS + 1)
    for copy in range(COPIES)
}


def tile_from_proto(message: tile_pb2.Tile, field: str) -> Tile:
    """The domain tile of `message`; InvalidInputError names ``field.color`` etc."""
    key = (message.color, message.number, message.false_joker, message.copy)
    tile = _VALID.get(key)
    if tile is not None:
        return tile
    if message.false_joker:
        if message.color != tile_pb2.COLOR_UNSPECIFIED:
            raise InvalidInputError(f"{field}.color", "a false joker has no colour: leave it unset")
        if message.number != 0:
            raise InvalidInputError(f"{field}.number", "a false joker has no number: leave it 0")
    else:
        if message.color == tile_pb2.COLOR_UNSPECIFIED:
            raise InvalidInputError(
                f"{field}.color",
                "a numbered tile needs a colour (set false_joker for a false joker)",
            )
        if message.color not in COLOR_TO_DOMAIN:
            raise InvalidInputError(f"{field}.color", f"unknown colour value {message.color}")
        if not 1 <= message.number <= NUMBERS:
            raise InvalidInputError(
                f"{field}.number", f"number must be 1-{NUMBERS}, not {message.number}"
            )
    raise InvalidInputError(f"{field}.copy", f"copy must be 0 or 1, not {message.copy}")


def tiles_from_proto(messages: Sequence[tile_pb2.Tile], field: str) -> list[Tile]:
    """Each tile converted, errors naming ``field[i]...``."""
    valid = _VALID
    try:
        # The hot path: one lookup per tile, no field path built unless needed.
        return [valid[(m.color, m.number, m.false_joker, m.copy)] for m in messages]
    except KeyError:
        return [tile_from_proto(m, f"{field}[{index}]") for index, m in enumerate(messages)]


def tile_to_proto(tile: Tile) -> tile_pb2.Tile:
    if tile.color is None:
        return tile_pb2.Tile(false_joker=True, copy=tile.copy)
    return tile_pb2.Tile(color=COLOR_TO_PROTO[tile.color], number=tile.number, copy=tile.copy)


# One message per physical tile, by code (copy * 53 + face); see `tile_message`.
_MESSAGES: tuple[tile_pb2.Tile, ...] = tuple(
    tile_to_proto(tile) for tile in TILE_OF_CODE
)


# The same, serialized, by code (the answer encoder writes tiles from these).
_WIRE: tuple[bytes, ...] = tuple(message.SerializeToString() for message in _MESSAGES)


def tile_bytes(tile: Tile) -> bytes:
    """`tile` as an okey.v1.Tile message serialized (shared bytes, one per physical tile)."""
    return _WIRE[tile.copy * FACES + tile.face]


def tile_message(tile: Tile) -> tile_pb2.Tile:
    """A shared message for `tile`, to pass where protobuf copies it (constructor, extend).

    Never mutate it: it is the same object for every answer. Building a tile
    message costs more than the copy protobuf makes of this one.
    """
    return _MESSAGES[tile.copy * FACES + tile.face]


def tile_messages(codes: Iterable[int]) -> list[tile_pb2.Tile]:
    """Shared messages for tiles given as packed codes (see `tile_message`)."""
    return [_MESSAGES[code] for code in codes]


def fill_tile(target: tile_pb2.Tile, tile: Tile) -> None:
    """Writes `tile` into an existing sub-message (cheaper than building and copying)."""
    if tile.color is None:
        target.false_joker = True
    else:
        target.color = COLOR_TO_PROTO[tile.color]
        target.number = tile.number
    if tile.copy:
        target.copy = tile.copy


def tiles_to_proto(tiles: Iterable[Tile]) -> list[tile_pb2.Tile]:
    return [tile_to_proto(tile) for tile in tiles]


def _check_length(text: str, field: str) -> None:
    if len(text) > MAX_NOTATION_CHARS:
        raise InvalidInputError(field, f"notation longer than {MAX_NOTATION_CHARS} characters")


def tiles_from_notation(text: str, field: str) -> list[Tile]:
    """Tiles from notation such as ``"R1 R2 r3, F"``; errors name `field` and the tile's place."""
    _check_length(text, field)
    try:
        return parse_tiles(text)
    except NotationError as exc:
        match = _INDEX.fullmatch(exc.field)
        where = f"tile {int(match.group(1)) + 1}: " if match else ""
        raise InvalidInputError(field, where + exc.description) from None


def tile_from_notation(text: str, field: str) -> Tile:
    """One tile from notation such as ``"R4"``; errors name `field`."""
    _check_length(text, field)
    try:
        return parse_tile(text)
    except NotationError as exc:
        raise InvalidInputError(field, exc.description) from None
