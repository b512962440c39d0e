"""BestOpening's inputs from its request, and the engine's openings as a BestOpeningResponse.

The rack and the wild are `oneof`s as in CheckHand (same field names, same
forms), so the wild is read by check_hand_request's reader and errors about
the rack name the request field the same way. The ruleset defaults to Okey
101; a classic one is refused on the field that chose it.
"""

from __future__ import annotations

from typing import NamedTuple

from okey.v1 import hand_pb2, ruleset_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.rulebook import OPENING_PAIRS, OPENING_POINTS
from okey_rules.ruleset import Game, Ruleset
from okey_rules.search.opening import (
    MAX_TILES,
    MeldOpening,
    PairsOpening,
    best_openings,
)
from okey_rules.tiles import Tile

from okey_server.services.check_hand_request import hand_error, indicator_and_okey
from okey_server.wire.convert_hand import arrangement_bytes
from okey_server.wire.convert_ruleset import ruleset_from_proto
from okey_server.wire.convert_tile import tile_message, tiles_from_notation, tiles_from_proto

OKEY_101_PRESET = "101"


class OpeningInputs(NamedTuple):
    """What BestOpening asks, checked (the rack's own rules are the engine's)."""

    tiles: list[Tile]
    indicator: Tile
    okey: Tile
    rules: Ruleset
    # The request field that gave the rack: engine errors about it name it.
    hand_field: str


def opening_inputs(request: hand_pb2.BestOpeningRequest) -> OpeningInputs:
    """The inputs of a BestOpeningRequest: the rack, then the wild, then the ruleset."""
    tiles = rack_tiles(request)
    indicator, okey = indicator_and_okey(request)
    rules = opening_rules(request.preset, request.ruleset)
    hand_field = "hand.tiles" if request.HasField("hand") else "hand_notation"
    return OpeningInputs(tiles, indicator, okey, rules, hand_field)


def rack_tiles(request: hand_pb2.BestOpeningRequest) -> list[Tile]:
    """1 to 22 tiles from `hand` or `hand_notation` (the engine checks they can exist together)."""
    form = request.WhichOneof("hand_form")
    if form is None:
        raise InvalidInputError("hand", "give the rack, as tiles (hand) or as hand_notation")
    if form == "hand":
        messages = request.hand.tiles
        _check_count(len(messages), "hand.tiles")  # before converting: a huge list costs nothing
        return tiles_from_proto(messages, "hand.tiles")
    tiles = tiles_from_notation(request.hand_notation, "hand_notation")
    _check_count(len(tiles), "hand_notation")
    return tiles


def _check_count(count: int, field: str) -> None:
    if not 1 <= count <= MAX_TILES:
        raise InvalidInputError(
            field, f"a rack has 1 to {MAX_TILES} tiles (21, the dealer 22), not {count}"
        )


def opening_rules(preset_name: str, message: ruleset_pb2.Ruleset) -> Ruleset:
    """The ruleset asked for: the 101 preset unless the request names another game.

    With no preset and no `game`, Okey 101. A classic ruleset is refused on
    `ruleset.game` when that field chose classic, else on `preset`.
    """
    game_set = message.game != ruleset_pb2.GAME_UNSPECIFIED
    if not preset_name and not game_set:
        preset_name = OKEY_101_PRESET
    rules = ruleset_from_proto(preset_name, message)
    if rules.game is not Game.OKEY_101:
        field = "ruleset.game" if game_set else "preset"
        raise InvalidInputError(
            field,
            "openings are a rule of Okey 101: leave the preset empty or name \"101\","
            " or set ruleset.game to GAME_OKEY_101",
        )
    return rules


def openings(asked: OpeningInputs) -> tuple[MeldOpening, PairsOpening]:
    """The engine's two openings; errors about the rack name the request's rack field."""
    try:
        return best_openings(asked.tiles, asked.okey, asked.rules)
    except InvalidInputError as exc:
        raise hand_error(exc, asked.hand_field) from None


def opening_answer(
    melds: MeldOpening, pairs: PairsOpening, indicator: Tile, okey: Tile
) -> hand_pb2.BestOpeningResponse:
    """The BestOpeningResponse for both openings."""
    answer = hand_pb2.BestOpeningResponse(
        value=melds.value,
        opens=melds.opens,
        okeys_used=melds.okeys_used,
        unused=[tile_message(tile) for tile in melds.unused],
        indicator=tile_message(indicator),
        okey=tile_message(okey),
        summary=summary(melds, pairs),
    )
    # The arrangements through CheckHand's writer: the same bytes for the same melds.
    answer.arrangement.MergeFromString(arrangement_bytes(melds.arrangement))
    answer.pairs.arrangement.MergeFromString(arrangement_bytes(pairs.arrangement))
    answer.pairs.count = pairs.count
    answer.pairs.opens = pairs.opens
    return answer


def summary(melds: MeldOpening, pairs: PairsOpening) -> str:
    """E.g. "melds: 104 points in 4 melds (opens); pairs: 3 (short of 5)"."""
    count = len(melds.arrangement.melds)
    melds_part = (
        f"melds: {melds.value} points in {count} meld{'' if count == 1 else 's'}"
        f" ({'opens' if melds.opens else f'short of {OPENING_POINTS}'})"
    )
    pairs_part = (
        f"pairs: {pairs.count} ({'opens' if pairs.opens else f'short of {OPENING_PAIRS}'})"
    )
    return f"{melds_part}; {pairs_part}"
