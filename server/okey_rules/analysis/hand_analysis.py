"""One answer for a classic hand of 14 or 15 tiles, from the hand alone or from a seat's
view of a round: what AnalysisService.AnalyzeHand gives (docs/analysis.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from okey_rules.analysis.draws import DiscardChoice, analyze_discards
from okey_rules.analysis.hand_distance import Distance, distance
from okey_rules.errors import InvalidInputError
from okey_rules.play.view_types import PlayerView
from okey_rules.rulebook import HAND_SIZE
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import TILE_OF_CODE, Tile, indicator_for, okey_for


class HandAnalysis(NamedTuple):
    """14 tiles: their distance to a win. 15 tiles: each distinct discard, and the best."""

    distance: Distance | None  # 14 tiles
    discards: tuple[DiscardChoice, ...]  # 15 tiles, in tile order
    best_discard: int  # 15 tiles: the index of the best discard
    from_view: bool  # unseen copies count more than the hand and the indicator


def best_discard(choices: Sequence[DiscardChoice]) -> int:
    """The discard that leaves the fewest tiles to replace, then the most unseen copies of
    useful draws, then the first in tile order."""
    return min(range(len(choices)),
               key=lambda i: (choices[i].distance.best, -choices[i].useful_unseen, i))


def analyze_hand(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset, seen: Iterable[Tile] | None = None
) -> HandAnalysis:
    """14 or 15 classic tiles. `seen`: the other tiles the seat has seen (discards), beside
    the hand and the indicator; None when only those two are seen."""
    if rules.game is not Game.CLASSIC:
        raise InvalidInputError(
            "ruleset.game", "AnalyzeHand analyzes classic Okey hands; an Okey 101 rack's"
            " opening is HandService.BestOpening's")
    if len(tiles) == HAND_SIZE:
        return HandAnalysis(distance(tiles, okey, rules), (), 0, seen is not None)
    known = None if seen is None else [*tiles, indicator_for(okey), *seen]
    choices = analyze_discards(tiles, okey, rules, known)
    return HandAnalysis(None, choices, best_discard(choices), seen is not None)


def analyze_seat(view: PlayerView) -> tuple[HandAnalysis, list[Tile], Tile]:
    """A seat's own rack, seen as the seat sees the table (every tile its view shows):
    the analysis, the rack's tiles and the okey."""
    if view.rules.game is not Game.CLASSIC:
        raise InvalidInputError(
            "state.ruleset.game", "AnalyzeHand analyzes classic Okey hands; an Okey 101"
            " rack's opening is HandService.BestOpening's")
    rack = [TILE_OF_CODE[code] for code in view.rack]
    if len(rack) not in (HAND_SIZE, HAND_SIZE + 1):
        raise InvalidInputError(
            "seat", f"the seat holds {len(rack)} tiles: the round is over for its rack")
    okey = okey_for(TILE_OF_CODE[view.indicator])
    discards = [TILE_OF_CODE[code] for seat in view.seats for code in seat.discards]
    return analyze_hand(rack, okey, view.rules, discards), rack, okey
