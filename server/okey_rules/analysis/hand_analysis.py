"""What AnalysisService.AnalyzeHand gives (docs/analysis.md), for either game, looked up by
the rules' game: a classic hand of 14 or 15 tiles (its distance to a win, each discard's
useful draws) or an Okey 101 rack (okey_rules.analysis.opening_analysis), from the hand
alone or from a seat's view of a round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from okey_rules.analysis.draws import DiscardChoice, analyze_discards
from okey_rules.analysis.hand_distance import Distance, distance
from okey_rules.analysis.opening_analysis import OpeningAnalysis, analyze_rack, analyze_seat_rack
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


class Analysis(NamedTuple):
    """Either game's answer: `hand` for classic, `opening` for Okey 101."""

    hand: HandAnalysis | None
    opening: OpeningAnalysis | None
    okey: Tile
    rules: Ruleset


def analyze(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset, seen: Iterable[Tile] | None = None
) -> Analysis:
    """A hand or rack of the rules' game; `seen` (classic): the other tiles seen."""
    if rules.game is Game.OKEY_101:
        return Analysis(None, analyze_rack(tiles, okey, rules), okey, rules)
    return Analysis(analyze_hand(tiles, okey, rules, seen), None, okey, rules)


def analyze_view(view: PlayerView) -> Analysis:
    """A seat's own rack, seen as its view shows the table, in either game."""
    okey = okey_for(TILE_OF_CODE[view.indicator])
    if view.rules.game is Game.OKEY_101:
        return Analysis(None, analyze_seat_rack(view), okey, view.rules)
    return Analysis(_classic_seat(view, okey), None, okey, view.rules)


def analyze_hand(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset, seen: Iterable[Tile] | None = None
) -> HandAnalysis:
    """14 or 15 classic tiles. `seen`: the other tiles the seat has seen (discards), beside
    the hand and the indicator; None when only those two are seen."""
    if len(tiles) not in (HAND_SIZE, HAND_SIZE + 1):
        raise InvalidInputError("tiles", f"a hand has 14 or 15 tiles, not {len(tiles)}")
    if len(tiles) == HAND_SIZE:
        return HandAnalysis(distance(tiles, okey, rules), (), 0, seen is not None)
    known = None if seen is None else [*tiles, indicator_for(okey), *seen]
    choices = analyze_discards(tiles, okey, rules, known)
    return HandAnalysis(None, choices, best_discard(choices), seen is not None)


def _classic_seat(view: PlayerView, okey: Tile) -> HandAnalysis:
    """A classic seat's own rack, unseen copies counted from every tile its view shows."""
    rack = [TILE_OF_CODE[code] for code in view.rack]
    if len(rack) not in (HAND_SIZE, HAND_SIZE + 1):
        raise InvalidInputError(
            "seat", f"the seat holds {len(rack)} tiles: the round is over for its rack")
    discards = [TILE_OF_CODE[code] for seat in view.seats for code in seat.discards]
    return analyze_hand(rack, okey, view.rules, discards)
