"""Fifteen tiles: per discard, the distance left and the useful draws (okey_rules.analysis).

A useful draw is a face that, drawn into the 14 left and followed by the best
discard, leaves a smaller best distance. Where the 14 are one tile from a win,
the referee is check_hand's own `winning_discards` on the 15 after the draw;
further away, it is the definition itself, with the 14-tile distance (held
to check_hand in test_analysis_distance.py).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from analysis_support import near_winning, physical, possible
from okey_rules.analysis import analyze_discards, distance
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import winning_discards
from okey_rules.tiles import (
    FALSE_JOKER_FACE,
    Tile,
    format_tile,
    indicator_for,
    parse_tile,
    parse_tiles,
)

CLASSIC = Ruleset()
FACES = 53


def _drawable(faces: list[int], okey: Tile, rules: Ruleset) -> list[int]:
    """The faces 14 tiles could hold one more of."""
    return [f for f in range(FACES) if possible([*faces, f], okey, rules)]


def _useful_by_winning_discards(faces: list[int], okey: Tile, rules: Ruleset) -> set[int]:
    """For 14 tiles one tile from a win: the draws after which some discard wins."""
    return {
        face
        for face in _drawable(faces, okey, rules)
        if winning_discards(physical([*faces, face]), okey, rules).winning
    }


def _useful_by_definition(faces: list[int], okey: Tile, rules: Ruleset, best: int) -> set[int]:
    found = set()
    for face in _drawable(faces, okey, rules):
        drawn = [*faces, face]
        for out in set(drawn):
            rest = list(drawn)
            rest.remove(out)
            if distance(physical(rest), okey, rules).best < best:
                found.add(face)
                break
    return found


def test_a_hand_one_tile_away_names_the_tiles_that_finish_it():
    """§4.1: thirteen tiles in melds and a stray: discarding Y11 leaves distance 1, and
    K4, R4, B8, B13, the fourth 5 (R5) and the okey (wild, §2.2) finish it; Y10 does not."""
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9 Y11")
    okey = parse_tile("R13")
    choices = {format_tile(c.tile): c for c in analyze_discards(tiles, okey)}
    after = choices["Y11"]
    assert after.distance.best == 1
    names = {format_tile(d.tile) for d in after.useful}
    assert {"K4", "R4", "B8", "B13", "R5", "R13"} <= names
    assert "Y10" not in names
    rest = [t.face for t in tiles if format_tile(t) != "Y11"]
    assert {d.tile.face for d in after.useful} == _useful_by_winning_discards(rest, okey, CLASSIC)


def test_a_winning_discard_has_distance_0_and_no_useful_draw():
    """§4.5: a discard that leaves a winning 14 leaves nothing to draw for."""
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 K4 Y9")
    choices = {format_tile(c.tile): c for c in analyze_discards(tiles, parse_tile("R13"))}
    assert choices["Y9"].distance.best == 0
    assert choices["Y9"].useful == ()
    assert choices["R1"].distance.best == 1


def test_every_distinct_discard_is_listed_once_in_tile_order():
    tiles = parse_tiles("R1 R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 F")
    choices = analyze_discards(tiles, parse_tile("R13"))
    faces = [c.tile.face for c in choices]
    assert faces == sorted({t.face for t in tiles})
    assert faces[-1] == FALSE_JOKER_FACE


def test_an_okey_discard_is_flagged():
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 K4 R13")
    choices = {format_tile(c.tile): c for c in analyze_discards(tiles, parse_tile("R13"))}
    assert choices["R13"].okey is True
    assert choices["R1"].okey is False


@pytest.mark.parametrize(
    "rules", [CLASSIC, Ruleset(runs_13_to_1=False), Ruleset(wild_pairs=False), Ruleset(kafa=True)]
)
def test_useful_draws_one_tile_from_a_win_agree_with_winning_discards(rules):
    """Per discard leaving distance 1: a face is useful exactly when, drawn, some discard
    of the 15 wins (check_hand's winning_discards)."""
    rng = random.Random(f"draws-{rules}")
    checked = 0
    while checked < 150:
        tiles, okey = near_winning(rng, rules, size=15, changed=rng.choice((1, 2)))
        for choice in analyze_discards(tiles, okey, rules):
            if choice.distance.best != 1:
                continue
            rest = [t.face for t in tiles]
            rest.remove(choice.tile.face)
            useful = {d.tile.face for d in choice.useful}
            assert useful == _useful_by_winning_discards(rest, okey, rules), (tiles, okey)
            checked += 1


def test_useful_draws_further_from_a_win_follow_the_definition():
    """Distances 2 and more: a face is useful exactly when some discard after drawing it
    leaves 14 at a smaller best distance."""
    rng = random.Random("draws-far")
    checked = 0
    while checked < 8:
        tiles, okey = near_winning(rng, CLASSIC, size=15, changed=3)
        choice = rng.choice(analyze_discards(tiles, okey))
        if choice.distance.best < 2:
            continue
        checked += 1
        rest = [t.face for t in tiles]
        rest.remove(choice.tile.face)
        useful = {d.tile.face for d in choice.useful}
        assert useful == _useful_by_definition(rest, okey, CLASSIC, choice.distance.best)


def test_unseen_copies_from_the_hand_alone():
    """Without a view: two copies, less those in the 15, less the indicator on the table."""
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9 Y11")
    okey = parse_tile("R5")  # indicator R4
    choices = {format_tile(c.tile): c for c in analyze_discards(tiles, okey)}
    unseen = {format_tile(d.tile): d.unseen for d in choices["Y11"].useful}
    assert unseen["K4"] == 2
    assert unseen["R4"] == 1  # the other R4 is the indicator
    assert choices["Y11"].useful_unseen == sum(unseen.values())


def test_unseen_copies_from_the_seats_view():
    """With `seen` (rack, discard piles, indicator), a face's unseen copies are two less those."""
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9 Y11")
    okey = parse_tile("R5")
    seen = [*tiles, indicator_for(okey), *parse_tiles("K4 K4 B8")]
    choices = {format_tile(c.tile): c for c in analyze_discards(tiles, okey, seen=seen)}
    unseen = {format_tile(d.tile): d.unseen for d in choices["Y11"].useful}
    assert unseen["K4"] == 0  # still useful, but both copies are in sight
    assert unseen["B8"] == 1
    assert unseen["R4"] == 1


def test_a_view_that_cannot_be_is_refused():
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9 Y11")
    okey = parse_tile("R5")
    with pytest.raises(InvalidInputError, match="rack"):
        analyze_discards(tiles, okey, seen=[indicator_for(okey)])
    with pytest.raises(InvalidInputError, match="indicator"):
        analyze_discards(tiles, okey, seen=tiles)
    with pytest.raises(InvalidInputError, match="more than two"):
        analyze_discards(tiles, okey, seen=[*tiles, indicator_for(okey), *parse_tiles("R1 R1")])
    with pytest.raises(InvalidInputError):
        analyze_discards(tiles[:14], okey)


def test_the_analysis_depends_on_the_tiles_not_their_order():
    tiles, okey = near_winning(random.Random(5), CLASSIC, size=15, changed=2)
    expected = analyze_discards(tiles, okey)
    shuffled = list(tiles)
    random.Random(6).shuffle(shuffled)
    assert analyze_discards(shuffled, okey) == expected
    assert Counter(t.face for t in tiles) == Counter(t.face for t in shuffled)
