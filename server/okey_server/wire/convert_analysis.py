"""AnalyzeHand's request and answer <-> the engine's hand analysis (okey_rules.analysis)."""

from __future__ import annotations

from okey.v1 import analysis_pb2
from okey_rules.analysis.draws import DiscardChoice
from okey_rules.analysis.hand_analysis import Analysis, HandAnalysis
from okey_rules.analysis.hand_distance import Distance
from okey_rules.analysis.opening_analysis import OpeningAnalysis
from okey_rules.errors import InvalidInputError
from okey_rules.search.opening import MAX_TILES
from okey_rules.tiles import Tile, check_tile_multiset, indicator_for

from okey_server.wire.convert_ruleset import ruleset_proto_cached
from okey_server.wire.convert_tile import fill_tile, tiles_from_notation, tiles_from_proto
from okey_server.wire.round_enums import OPENED_TO_PROTO

# The fields a request from a round's state may not give: the state holds them.
_HAND_FIELDS = ("hand", "hand_notation", "indicator", "okey", "indicator_notation",
                "okey_notation", "ruleset", "seen", "seen_notation")


def refuse_hand_beside_state(request: analysis_pb2.AnalyzeHandRequest) -> None:
    """With `state`, the hand, wild, rules and seen tiles are the round's: none is given."""
    for name in _HAND_FIELDS:
        if request.HasField(name):
            raise InvalidInputError(
                name, "with a state, the hand, the wild, the rules and the seen tiles are the"
                " round's own: leave this field out")
    if request.preset:
        raise InvalidInputError("preset", "with a state, the round's own rules apply")


def seen_tiles(request: analysis_pb2.AnalyzeHandRequest) -> list[Tile] | None:
    """The seen tiles (`seen` or `seen_notation`), or None when the request names none."""
    form = request.WhichOneof("seen_form")
    if form is None:
        return None
    if form == "seen":
        return tiles_from_proto(request.seen.tiles, "seen.tiles")
    return tiles_from_notation(request.seen_notation, "seen_notation")


def _fill_distance(target: analysis_pb2.HandDistance, found: Distance) -> None:
    target.melds = found.melds
    target.seven_pairs = found.pairs
    target.kafa_played = found.kafa is not None
    target.kafa = found.kafa or 0
    target.best = found.best


def _fill_discard(target: analysis_pb2.DiscardAnalysis, choice: DiscardChoice) -> None:
    fill_tile(target.tile, choice.tile)
    target.okey = choice.okey
    _fill_distance(target.distance, choice.distance)
    for draw in choice.useful:
        fill_tile(target.useful_draws.add(unseen=draw.unseen).tile, draw.tile)
    target.useful_unseen = choice.useful_unseen


def _fill_hand(answer: analysis_pb2.AnalyzeHandResponse, found: HandAnalysis) -> None:
    answer.best_discard = found.best_discard
    answer.from_view = found.from_view
    if found.distance is not None:
        _fill_distance(answer.distance, found.distance)
    for choice in found.discards:
        _fill_discard(answer.discards.add(), choice)


def _fill_opening(target: analysis_pb2.OpeningAnalysis, found: OpeningAnalysis) -> None:
    target.points = found.points
    target.points_needed = found.points_needed
    target.points_missing = found.points_missing
    target.pairs = found.pairs
    target.pairs_needed = found.pairs_needed
    target.pairs_missing = found.pairs_missing
    target.opened = OPENED_TO_PROTO[found.opened]
    for lay_off in found.lay_offs:
        fill_tile(target.lay_offs.add(meld=lay_off.meld).tile, lay_off.tile)
    for left in found.discards:
        fill_tile(target.discards.add(points=left.points, pairs=left.pairs,
                                      keeps_points=left.keeps_points,
                                      keeps_pairs=left.keeps_pairs).tile, left.tile)


def analysis_answer(found: Analysis) -> analysis_pb2.AnalyzeHandResponse:
    """Either game's analysis: the hand's parts (classic) or `opening` (Okey 101)."""
    answer = analysis_pb2.AnalyzeHandResponse(ruleset=ruleset_proto_cached(found.rules))
    fill_tile(answer.indicator, indicator_for(found.okey))
    fill_tile(answer.okey, found.okey)
    if found.hand is not None:
        _fill_hand(answer, found.hand)
    if found.opening is not None:
        _fill_opening(answer.opening, found.opening)
    return answer


def request_tiles(request: analysis_pb2.AnalyzeHandRequest) -> tuple[list[Tile], str]:
    """The hand or rack as given (the engine checks its size for the game) and the request
    field that gave it."""
    form = request.WhichOneof("hand_form")
    if form is None:
        raise InvalidInputError("hand", "give the hand, as tiles (hand) or as hand_notation")
    if form == "hand":
        messages = request.hand.tiles
        if len(messages) > MAX_TILES:  # before converting: a huge list costs nothing
            raise InvalidInputError("hand.tiles", f"at most {MAX_TILES} tiles, not {len(messages)}")
        tiles = tiles_from_proto(messages, "hand.tiles")
        check_tile_multiset(tiles, "hand.tiles")
        return tiles, "hand.tiles"
    tiles = tiles_from_notation(request.hand_notation, "hand_notation")
    check_tile_multiset(tiles, "hand_notation")
    return tiles, "hand_notation"
