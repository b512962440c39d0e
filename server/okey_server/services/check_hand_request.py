"""CheckHand's inputs (the hand, the indicator and okey, the ruleset) from its request.

The hand and the wild are `oneof`s in the request; every check that can fail
names the request field at fault. BestOpening's request has the same wild
(and rack) fields, so `indicator_and_okey` and `hand_error` serve it too;
AnalyzeHand's has the same hand and wild.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from okey.v1 import analysis_pb2, hand_pb2, ruleset_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.rulebook import HAND_SIZE
from okey_rules.ruleset import Game, Ruleset, preset
from okey_rules.tiles import FALSE_JOKER_FACE, Tile, check_tile_multiset, okey_for

from okey_server.wire.convert_ruleset import ruleset_from_proto
from okey_server.wire.convert_tile import (
    tile_from_notation,
    tile_from_proto,
    tiles_from_notation,
    tiles_from_proto,
)

# A hand to check, or one that has drawn its 15th tile and is yet to discard.
HAND_SIZES = (HAND_SIZE, HAND_SIZE + 1)
_INDEX = re.compile(r"\[(\d+)\]")


class Inputs(NamedTuple):
    """What CheckHand asks, checked."""

    tiles: list[Tile]
    indicator: Tile
    okey: Tile
    rules: Ruleset
    # The request field that gave the hand: engine errors about the hand name it.
    hand_field: str
    arrangements: bool


def hand_error(exc: InvalidInputError, hand_field: str) -> InvalidInputError:
    """An engine error about the hand (field ``tiles...``), naming the request's hand field."""
    if not exc.field.startswith("tiles"):
        return exc
    if hand_field == "hand_notation":
        match = _INDEX.match(exc.field.removeprefix("tiles"))
        where = f"tile {int(match.group(1)) + 1}: " if match else ""
        return InvalidInputError(hand_field, where + exc.description)
    return InvalidInputError("hand." + exc.field, exc.description)


def request_inputs(request: hand_pb2.CheckHandRequest) -> Inputs:
    """The inputs of a CheckHandRequest message, checked in field order of importance.

    An Okey 101 ruleset first (the request belongs to BestOpening, whatever
    else it holds), then the tiles, then the wild, then the ruleset: a
    request wrong in several places is told about its tiles.
    """
    refuse_okey_101(request.preset, request.ruleset)
    tiles = hand_tiles(request)
    indicator, okey = indicator_and_okey(request)
    rules = ruleset_from_proto(request.preset, request.ruleset)
    hand_field = "hand.tiles" if request.HasField("hand") else "hand_notation"
    return Inputs(tiles, indicator, okey, rules, hand_field, not request.omit_arrangements)


def refuse_okey_101(preset_name: str, message: ruleset_pb2.Ruleset) -> None:
    """CheckHand judges classic hands only: a 101 ruleset is refused on the field that chose it.

    A 101 rack is not a 14-tile hand that wins by melds; its question is
    whether it can open, which BestOpening answers. An unknown preset is left
    for the ruleset's own check to report.
    """
    if message.game == ruleset_pb2.GAME_OKEY_101:
        field = "ruleset.game"
    elif message.game != ruleset_pb2.GAME_UNSPECIFIED:
        return  # classic, whatever the preset
    else:
        try:
            named = preset(preset_name)
        except InvalidInputError:
            return
        if named.game is not Game.OKEY_101:
            return
        field = "preset"
    raise InvalidInputError(
        field,
        "CheckHand judges classic Okey hands; Okey 101 racks are judged by"
        " HandService.BestOpening",
    )


def hand_tiles(request: hand_pb2.CheckHandRequest) -> list[Tile]:
    """The 14 or 15 tiles of the request, from `hand` or `hand_notation` (the oneof)."""
    form = request.WhichOneof("hand_form")
    if form is None:
        raise InvalidInputError("hand", "give the hand, as tiles (hand) or as hand_notation")
    if form == "hand":
        messages = request.hand.tiles
        _check_count(len(messages), "hand.tiles")  # before converting: a huge list costs nothing
        tiles = tiles_from_proto(messages, "hand.tiles")
        check_tile_multiset(tiles, "hand.tiles")
        return tiles
    return notation_tiles(request.hand_notation)


def notation_tiles(text: str) -> list[Tile]:
    """The hand given as `hand_notation`: 14 or 15 tiles that can exist together."""
    tiles = tiles_from_notation(text, "hand_notation")
    _check_count(len(tiles), "hand_notation")
    try:
        check_tile_multiset(tiles, "tiles")
    except InvalidInputError as exc:
        raise hand_error(exc, "hand_notation") from None
    return tiles


def _check_count(count: int, field: str) -> None:
    if count not in HAND_SIZES:
        raise InvalidInputError(
            field, f"a hand has 14 tiles (15 to ask which discard wins), not {count}"
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


def indicator_and_okey(
    request: (hand_pb2.CheckHandRequest | hand_pb2.BestOpeningRequest
              | analysis_pb2.AnalyzeHandRequest),
) -> tuple[Tile, Tile]:
    """The indicator and the okey from whichever member of the `wild` oneof is set."""
    field = request.WhichOneof("wild")
    if field is None:
        raise InvalidInputError(
            "indicator", "give the wild: indicator, okey, indicator_notation or okey_notation"
        )
    if field in ("indicator", "okey"):
        tile = tile_from_proto(getattr(request, field), field)
    else:
        tile = tile_from_notation(getattr(request, field), field)
    is_indicator = field.startswith("indicator")
    if tile.is_false_joker:
        # A false joker turned up as indicator goes back (docs/rules.md); it is never the okey.
        role = "indicator" if is_indicator else "okey"
        raise InvalidInputError(field, f"a false joker cannot be the {role}")
    return (_BY_INDICATOR_FACE if is_indicator else _BY_OKEY_FACE)[tile.face]
