"""The distance of 14 tiles to a win (okey_rules.analysis), against check_hand.

Rule cases are written out; then seeded near-winning hands are held to a
brute-force referee (tests/unit/analysis_support.py) that replaces tiles by
every tile that could take their place and asks check_hand: a way's distance
is 0 exactly when check_hand says the hand wins that way, and 1 exactly when
some one-tile replacement makes it win that way.
"""

from __future__ import annotations

import random

import pytest
from analysis_support import kinds_of, kinds_within_one, near_winning, wins_within
from okey_rules.analysis import Distance, distance
from okey_rules.analysis.hand_distance import read_hand
from okey_rules.analysis.meld_search import best_split, exact_best
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import check_hand
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import parse_tile, parse_tiles

CLASSIC = Ruleset()
RULESETS = {
    "classic": CLASSIC,
    "no-12-13-1": Ruleset(runs_13_to_1=False),
    "no-wild-pairs": Ruleset(wild_pairs=False),
    "kafa": Ruleset(kafa=True),
}


def _distance(text: str, okey: str, rules: Ruleset = CLASSIC) -> Distance:
    return distance(parse_tiles(text), parse_tile(okey), rules)


def test_a_hand_of_melds_is_at_distance_0_by_melds():
    """§4.1: sets and runs with nothing left over win."""
    found = _distance("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 K4", "Y13")
    assert found.melds == 0
    assert found.best == 0
    assert found.kafa is None  # kafa is off in classic


def test_one_stray_tile_is_one_replacement_away():
    """§4.1: thirteen tiles in melds and one stray: one replacement (K4, R4, R5, ...)."""
    found = _distance("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9", "Y13")
    assert found.melds == 1


def test_a_set_needs_distinct_colours():
    """§3.1: R7 R7 B7 is not a set; one R7 must become Y7 or K7."""
    found = _distance("R7 R7 B7 Y1 Y2 Y3 B9 B10 B11 K1 K2 K3 K4 K5", "Y13")
    assert found.melds == 1
    fixed = _distance("R7 Y7 B7 Y1 Y2 Y3 B9 B10 B11 K1 K2 K3 K4 K5", "Y13")
    assert fixed.melds == 0


@pytest.mark.parametrize(("runs_13_to_1", "expected"), [(True, 0), (False, 1)])
def test_12_13_1_counts_only_under_the_option(runs_13_to_1, expected):
    """§3.2, option runs_13_to_1: 12-13-1 is a run only when the 1 may be played high."""
    rules = Ruleset(runs_13_to_1=runs_13_to_1)
    found = _distance("R12 R13 R1 Y4 Y5 Y6 B7 B8 B9 K9 K10 K11 K12 K13", "B2", rules)
    assert found.melds == expected


def test_a_false_joker_stands_for_the_okeys_face_only():
    """§2.3: with okey R5 a false joker is an R5 (R4 F R6 is a run), never an R9."""
    assert _distance("R4 F R6 Y1 Y2 Y3 B7 B8 B9 K9 K10 K11 K12 K13", "R5").melds == 0
    assert _distance("R8 F R10 Y1 Y2 Y3 B7 B8 B9 K9 K10 K11 K12 K13", "R5").melds == 1
    # An okey tile in the same place is wild, and stands for R9.
    assert _distance("R8 R5 R10 Y1 Y2 Y3 B7 B8 B9 K9 K10 K11 K12 K13", "R5").melds == 0


def test_seven_pairs_with_okeys():
    """§4.2: each okey pairs with a lone tile."""
    found = _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 K7 R5 R5", "R5")
    assert found.pairs == 0
    assert found.best == 0
    # One okey short: one lone tile must be replaced (by its twin or an okey).
    assert _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 K7 R5 B4", "R5").pairs == 1


@pytest.mark.parametrize(("wild_pairs", "expected"), [(True, 0), (False, 1)])
def test_two_okeys_pair_together_only_under_the_option(wild_pairs, expected):
    """§4.2, option wild_pairs: six pairs and both okeys."""
    rules = Ruleset(wild_pairs=wild_pairs)
    found = _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 B13 R5 R5", "R5", rules)
    assert found.pairs == expected


def test_seven_pairs_show_seven_faces():
    """§4.2: the okey pairs with the lone K7; a pair of false jokers is the okey's face."""
    assert _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 B13 K7 R5", "R5").pairs == 0
    assert _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 B13 F F", "R5").pairs == 0
    # A false joker is not wild: it cannot pair with the lone B13.
    assert _distance("Y1 Y1 B2 B2 K3 K3 R9 R9 Y11 Y11 B13 F K7 K7", "R5").pairs == 1


def test_kafa_counts_only_under_the_option():
    """§4.3: one colour 1..13 and a second 1; off by default."""
    text = "R1 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    assert _distance(text, "K5").kafa is None
    found = _distance(text, "K5", Ruleset(kafa=True, runs_13_to_1=False))
    assert found.kafa == 0
    assert found.best == 0
    assert found.melds > 0  # without 12-13-1 it is no win by melds


def test_a_hand_that_cannot_exist_is_refused_as_check_hand_refuses_it():
    """§1.1, §2.4: three copies, or both copies of the indicator's face."""
    with pytest.raises(InvalidInputError):
        _distance("R1 R1 R1 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 K4", "Y13")
    with pytest.raises(InvalidInputError):
        _distance("Y12 Y12 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 K4", "Y13")
    with pytest.raises(InvalidInputError):
        _distance("R1 R2 R3", "Y13")


WAYS = (
    (WinKind.MELDS, lambda d: d.melds),
    (WinKind.SEVEN_PAIRS, lambda d: d.pairs),
    (WinKind.KAFA, lambda d: d.kafa),
)


@pytest.mark.parametrize("name", RULESETS)
def test_distance_0_and_1_agree_with_check_hand_on_near_winning_hands(name):
    """§4: per way and for the best, 0 exactly when check_hand says the hand wins,
    1 exactly when some one-tile replacement wins (500 seeded hands per ruleset)."""
    rules = RULESETS[name]
    rng = random.Random(f"analysis-{name}")
    seen = {0: 0, 1: 0, 2: 0}
    for _ in range(500):
        tiles, okey = near_winning(rng, rules)
        faces = [t.face for t in tiles]
        found = distance(tiles, okey, rules)
        kinds = kinds_of(faces, okey, rules)
        assert kinds is not None
        assert (found.best == 0) == bool(kinds), (tiles, okey)
        within_one = kinds_within_one(faces, okey, rules) if found.best > 0 else set(kinds)
        assert (found.best <= 1) == bool(within_one), (tiles, okey)
        for kind, read in WAYS:
            value = read(found)
            if kind is WinKind.KAFA and not rules.kafa:
                assert value is None
                continue
            assert (value == 0) == (kind in kinds), (kind, tiles, okey)
            if found.best > 0:
                assert (value <= 1) == (kind in within_one), (kind, tiles, okey)
        seen[min(found.best, 2)] += 1
    # The corpus reaches every claim: wins, one away, and further.
    assert all(count >= 50 for count in seen.values()), seen


def test_distance_2_is_reached_by_two_replacements():
    """A hand at distance 2 wins after some two-tile replacement (and, by the test
    above, after no one-tile replacement)."""
    rng = random.Random("analysis-two")
    checked = 0
    while checked < 6:
        tiles, okey = near_winning(rng, CLASSIC, changed=3)
        found = distance(tiles, okey, CLASSIC)
        if found.best != 2:
            continue
        assert wins_within([t.face for t in tiles], okey, CLASSIC, 2), (tiles, okey)
        checked += 1


@pytest.mark.parametrize("runs_13_to_1", [True, False])
def test_the_memoised_search_agrees_with_the_search_that_counts_copies(runs_13_to_1):
    """The fast search leaves out the two-copies limit (checking only the plan it
    finds); the slow one counts it on every plan: same value and same missing faces."""
    rules = Ruleset(runs_13_to_1=runs_13_to_1)
    rng = random.Random(f"analysis-exact-{runs_13_to_1}")
    # The slow search takes seconds on hands far from a win: hands one swap away.
    for _ in range(12):
        tiles, okey = near_winning(rng, rules, changed=1)
        reading = read_hand(tiles, okey, rules, (14,))
        fast = best_split(reading.naturals, runs_13_to_1, reading.caps)
        slow = exact_best(reading.naturals, runs_13_to_1, reading.caps)
        assert (fast.matched, fast.missing) == (slow.matched, slow.missing), (tiles, okey)


def test_a_winning_hand_is_at_distance_0_whatever_its_order():
    """The answer depends on the tiles, not their order."""
    tiles = parse_tiles("R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K1 K2 K3 Y9")
    okey = parse_tile("Y13")
    assert check_hand(tiles, okey).winning is False
    expected = distance(tiles, okey)
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(tiles)
        assert distance(tiles, okey) == expected
