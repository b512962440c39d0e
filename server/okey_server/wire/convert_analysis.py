"""AnalyzeHand's request and answer <-> the engine's hand analysis (okey_rules.analysis)."""

from __future__ import annotations

from okey.v1 import analysis_pb2
from okey_rules.analysis.draws import DiscardChoice
from okey_rules.analysis.hand_analysis import HandAnalysis
from okey_rules.analysis.hand_distance import Distance
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import Tile, indicator_for

from okey_server.wire.convert_ruleset import ruleset_proto_cached
from okey_server.wire.convert_tile import fill_tile, tiles_from_notation, tiles_from_proto

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


def analysis_answer(
    found: HandAnalysis, okey: Tile, rules: Ruleset
) -> analysis_pb2.AnalyzeHandResponse:
    answer = analysis_pb2.AnalyzeHandResponse(
        ruleset=ruleset_proto_cached(rules), best_discard=found.best_discard,
        from_view=found.from_view,
    )
    fill_tile(answer.indicator, indicator_for(okey))
    fill_tile(answer.okey, okey)
    if found.distance is not None:
        _fill_distance(answer.distance, found.distance)
    for choice in found.discards:
        _fill_discard(answer.discards.add(), choice)
    return answer
