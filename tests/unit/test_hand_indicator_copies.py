"""A hand cannot hold both copies of the indicator's face (docs/rules.md §2.4).

One copy of the indicator's face lies face up on the table, so a rack of 14
or 15 tiles holds the other one at most; only when the indicator may be drawn
as the last wall tile (option `indicator_drawable_last`) can a hand hold both.
The okey (indicator + 1) names the indicator uniquely, so the rule applies
whichever of the two the caller gave.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.tiles import Tile, format_tile, okey_for, parse_tile, parse_tiles

# Indicator R4, so the okey is R5.
BOTH_R4 = "R4 R4 R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4"
ONE_R4 = "R4 R5 R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4"
DRAWABLE = Ruleset(indicator_drawable_last=True)
CHECKS = {"14": (check_hand, ""), "15": (winning_discards, " K9")}


@pytest.mark.parametrize("size", CHECKS, ids=CHECKS)
def test_both_copies_of_the_indicator_face_are_invalid_input_naming_the_tiles(size):
    check, extra = CHECKS[size]
    with pytest.raises(InvalidInputError) as caught:
        check(parse_tiles(BOTH_R4 + extra), okey_for(parse_tile("R4")))
    assert caught.value.field == "tiles"
    assert "both R4 tiles" in caught.value.description
    assert "face-up indicator" in caught.value.description


@pytest.mark.parametrize("size", CHECKS, ids=CHECKS)
def test_one_copy_of_the_indicator_face_is_fine(size):
    check, extra = CHECKS[size]
    check(parse_tiles(ONE_R4 + extra), parse_tile("R5"))


@pytest.mark.parametrize("size", CHECKS, ids=CHECKS)
def test_both_copies_are_allowed_when_the_indicator_may_be_drawn_last(size):
    check, extra = CHECKS[size]
    verdict = check(parse_tiles(BOTH_R4 + extra), parse_tile("R5"), DRAWABLE)
    assert not verdict.winning  # judged: the second R4 fits no meld


def test_both_copies_of_the_okey_face_are_two_wilds_and_fine():
    # The okey's own face is not on the table: two okey tiles are two wilds.
    verdict = check_hand(parse_tiles("R5 R5 R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4"),
                         parse_tile("R5"))
    assert verdict.winning


def test_indicator_13_shows_okey_1():
    # Okey B1 <=> indicator B13: both B13 are refused under okey B1.
    with pytest.raises(InvalidInputError) as caught:
        check_hand(parse_tiles("B13 B13 R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4"), parse_tile("B1"))
    assert "both B13 tiles" in caught.value.description


@settings(max_examples=200, deadline=None)
@given(okey_face=st.integers(0, 51), codes=st.lists(st.integers(0, 105), min_size=14,
                                                        max_size=14, unique=True))
def test_refused_exactly_when_both_indicator_copies_are_held(okey_face, codes):
    tiles = [Tile.from_code(code) for code in codes]
    okey = Tile.from_face(okey_face)
    indicator = Tile.from_face((okey_face // 13) * 13 + (okey_face % 13 - 1) % 13)
    assert format_tile(okey_for(indicator)) == format_tile(okey)
    both = sum(tile.face == indicator.face for tile in tiles) == 2
    if both:
        with pytest.raises(InvalidInputError) as caught:
            check_hand(tiles, okey)
        assert caught.value.field == "tiles"
    else:
        check_hand(tiles, okey)
    check_hand(tiles, okey, DRAWABLE)  # never refused with the option on
