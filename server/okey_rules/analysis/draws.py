"""Fifteen tiles: per discard, the distance left and the draws that would lower it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from okey_rules.analysis.hand_distance import (
    CLASSIC,
    Distance,
    Reading,
    distances,
    read_hand,
)
from okey_rules.analysis.meld_search import HAND_SLOTS
from okey_rules.analysis.other_kinds import kafa_kept, pairs_kept
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.packed import FIELD, ONE
from okey_rules.tiles import COPIES, FACES, FALSE_JOKER_FACE, TILE_OF_CODE, Tile, format_tile

HAND_AND_DRAW = HAND_SLOTS + 1


class UsefulDraw(NamedTuple):
    """A tile face that lowers the distance when drawn, and how many copies are unseen."""

    tile: Tile  # the face's first copy
    unseen: int


class DiscardChoice(NamedTuple):
    """One distinct discard of 15 tiles: what the other 14 are worth, and their useful draws."""

    tile: Tile  # the face's first copy
    okey: bool  # the discard is an okey tile
    distance: Distance
    useful: tuple[UsefulDraw, ...]  # in tile order
    useful_unseen: int  # unseen copies of every useful face, together


def analyze_discards(
    tiles: Sequence[Tile],
    okey: Tile,
    rules: Ruleset = CLASSIC,
    seen: Iterable[Tile] | None = None,
) -> tuple[DiscardChoice, ...]:
    """For 15 tiles: each distinct discard (in tile order) with its distance and useful draws.

    `seen`: every tile whose place the seat knows (its own rack, which holds
    these 15, every discard pile, the indicator). Without it, the hand alone
    is the view: a face's unseen copies are two, less those among the 15,
    less the indicator on the table.
    """
    full = read_hand(tiles, okey, rules, (HAND_AND_DRAW,))
    unseen = _unseen(tiles, full.indicator_face, seen)
    held = [0] * FACES
    for tile in tiles:
        held[tile.face] += 1
    choices = []
    for face in range(FACES):
        if not held[face]:
            continue
        held[face] -= 1
        rest = _without(full, face)
        found, useful = _analyze(rest, held, rules)
        held[face] += 1
        draws = tuple(UsefulDraw(TILE_OF_CODE[f], unseen[f]) for f in useful)
        choices.append(
            DiscardChoice(
                TILE_OF_CODE[face],
                face == okey.face,
                found,
                draws,
                sum(d.unseen for d in draws),
            )
        )
    return tuple(choices)


def _without(full: Reading, face: int) -> Reading:
    """The reading of the hand less one tile of physical `face`."""
    if face == full.okey_face:
        return full._replace(wilds=full.wilds - 1)
    played = full.okey_face if face == FALSE_JOKER_FACE else face
    return full._replace(naturals=full.naturals - ONE[played])


def _analyze(hand: Reading, held: list[int], rules: Ruleset) -> tuple[Distance, list[int]]:
    """The distances of 14 read tiles and the physical faces whose draw lowers the best.

    `held` counts the 14 by physical face. A draw lowers a way's distance
    by one at most (drawing and discarding is one replacement), so only the
    ways at the best distance matter. By melds, a natural lowers it exactly
    when it fills a missing slot of some best plan, and a wild whenever a
    natural is to be replaced; pairs and kafa are counted again with the draw.
    """
    found, plan = distances(hand, rules)
    best = found.best
    if best == 0:
        return found, []
    naturals, wilds, okey_face = hand.naturals, hand.wilds, hand.okey_face
    caps = hand.caps
    melds_count = found.melds == best
    pairs_count = found.pairs == best
    kafa_count = found.kafa == best
    useful = []
    for face in range(FACES):
        # Only a tile the 14 could hold beside themselves can be drawn.
        if face in (FALSE_JOKER_FACE, okey_face):
            if held[face] >= COPIES:
                continue
        elif held[face] >= caps >> (FIELD * face) & 7:
            continue
        if face == okey_face:
            more_naturals, more_wilds = naturals, wilds + 1
            by_melds = melds_count
        else:
            played = okey_face if face == FALSE_JOKER_FACE else face
            more_naturals, more_wilds = naturals + ONE[played], wilds
            by_melds = melds_count and bool(plan.missing >> played & 1)
        if (
            by_melds
            or (pairs_count
            and HAND_SLOTS - pairs_kept(more_naturals, more_wilds, rules.wild_pairs) < best)
            or (kafa_count
            and HAND_SLOTS - kafa_kept(more_naturals, more_wilds) < best)
        ):
            useful.append(face)
    return found, useful


def _unseen(tiles: Sequence[Tile], indicator_face: int, seen: Iterable[Tile] | None) -> list[int]:
    """Copies of each physical face whose place the seat does not know."""
    counts = [0] * FACES
    if seen is None:
        for tile in tiles:
            counts[tile.face] += 1
        counts[indicator_face] += 1
    else:
        for tile in seen:
            counts[tile.face] += 1
        hand = [0] * FACES
        for tile in tiles:
            hand[tile.face] += 1
        for face in range(FACES):
            if counts[face] > COPIES:
                raise InvalidInputError(
                    "seen", f"more than two {_name(face)} tiles seen: the set has only two"
                )
            if counts[face] < hand[face]:
                raise InvalidInputError(
                    "seen", f"the seen tiles must hold the rack: {_name(face)} is missing"
                )
        if not counts[indicator_face]:
            raise InvalidInputError(
                "seen", f"the seen tiles must hold the indicator {_name(indicator_face)}"
            )
    return [max(0, COPIES - count) for count in counts]


def _name(face: int) -> str:
    return format_tile(TILE_OF_CODE[face])
