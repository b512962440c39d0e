"""Informal classic deals, Okey 101 deals and deal input validation (docs/dealing.md)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from okey_rules import Game, Ruleset, format_tile, okey_for, preset
from okey_rules.dealing.deal import deal, deal_from_order
from okey_rules.dealing.deal_types import DealMethod, rack_notation, sorted_codes
from okey_rules.dealing.shuffle import shuffled_codes
from okey_rules.errors import InvalidInputError

OKEY_101 = preset("101")
FORMAL = DealMethod.FORMAL


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("dealer_offset", [0, 1])
def test_classic_first_player_is_the_dealers_right_and_gets_15_others_14(players, dealer_offset):
    dealer = (players - 1) * dealer_offset
    dealt = deal(player_count=players, dealer=dealer, seed="s1")
    first = (dealer + 1) % players
    assert dealt.first_seat == first
    assert [len(r) for r in dealt.racks] == [15 if s == first else 14 for s in range(players)]
    assert len(dealt.wall) == 105 - 15 - 14 * (players - 1)


def test_informal_deal_takes_indicator_first_then_deals_in_turn_order_in_blocks():
    """docs/dealing.md: the indicator is the first tile of the shuffle (not a false
    joker); then 15 to the first player, 14 to each next seat, dealer last."""
    order = shuffled_codes("blocks")
    assert order[0] % 53 != 52, "pick a seed whose first tile is numbered"
    dealt = deal(dealer=2, seed="blocks")
    assert dealt.indicator == order[0]
    assert list(dealt.racks[3]) == order[1:16]
    assert list(dealt.racks[0]) == order[16:30]
    assert list(dealt.racks[1]) == order[30:44]
    assert list(dealt.racks[2]) == order[44:58]
    assert list(dealt.wall) == order[58:]


@pytest.mark.parametrize("front", [[52], [105], [52, 105], [105, 52]])
def test_informal_false_joker_is_never_the_indicator_it_is_put_back(front):
    """docs/dealing.md, Informal deal step 1: a false joker on top swaps with
    a[1 + below(105)]; below = 49 sends it to a[50] and turns up that tile."""
    order = front + [c for c in range(106) if c not in front]
    dealt = deal_from_order(order, below=lambda n: 49)
    assert dealt.indicator == order[50]
    assert not dealt.indicator_tile.is_false_joker
    rest = [c for seat in range(4) for c in dealt.racks[(1 + seat) % 4]] + list(dealt.wall)
    assert rest.index(front[0]) == 49
    assert set(front[1:]) <= set(dealt.racks[dealt.first_seat])  # a[1] stays in place


def test_okey_is_indicator_colour_number_plus_one_13_wraps_to_1():
    k13 = 3 * 13 + 12
    order = [k13] + [c for c in range(106) if c != k13]
    dealt = deal_from_order(order)
    assert format_tile(dealt.indicator_tile) == "K13"
    assert format_tile(dealt.okey) == "K1"
    assert dealt.okey_face == 3 * 13


def test_okey_101_dealer_gets_22_others_21_and_the_dealer_starts():
    for dealer in range(4):
        dealt = deal(OKEY_101, dealer=dealer, seed="101")
        assert dealt.first_seat == dealer
        assert [len(r) for r in dealt.racks] == [22 if s == dealer else 21 for s in range(4)]
        assert len(dealt.wall) == 106 - 1 - 22 - 3 * 21
        assert not dealt.indicator_tile.is_false_joker


def test_okey_101_is_dealt_in_turn_order_from_the_dealer():
    order = shuffled_codes("101-order")
    assert order[0] % 53 != 52
    dealt = deal(OKEY_101, dealer=1, seed="101-order")
    assert list(dealt.racks[1]) == order[1:23]
    assert list(dealt.racks[2]) == order[23:44]
    assert list(dealt.racks[0]) == order[65:86]
    assert list(dealt.wall) == order[86:]


def test_informal_indicator_drawable_last_is_the_last_wall_tile():
    plain = deal(seed="w")
    drawable = deal(Ruleset(indicator_drawable_last=True), seed="w")
    assert list(drawable.wall) == [*plain.wall, plain.indicator]


def test_same_seed_same_deal_other_seed_other_deal():
    assert deal(seed="a") == deal(seed="a")
    assert deal(seed="a").racks != deal(seed="b").racks


def test_dealer_seat_rotates_the_racks_not_the_tiles():
    """The shuffle depends on the seed only: moving the dealer moves who gets what."""
    a, b = deal(dealer=0, seed="rot"), deal(dealer=1, seed="rot")
    assert a.racks[1] == b.racks[2]
    assert a.wall == b.wall


def test_pinned_okey_101_deal():
    """Regression pin: computed once from the implementation and pasted here."""
    dealt = deal(OKEY_101, dealer=3, seed="101-a")
    assert format_tile(dealt.indicator_tile) == "B10"
    assert [rack_notation(r) for r in dealt.racks] == [
        "R1 R3 R3 R4 R6 R10 R13 Y3 Y7 Y10 Y13 Y13 B1 B12 B13 K3 K3 K4 K8 K10 K12",
        "R2 R7 R9 Y3 Y6 Y7 Y8 Y12 B1 B3 B3 B5 B6 B7 B11 K1 K2 K4 K9 K9 K11",
        "R1 R5 R8 R10 R11 R11 Y1 Y2 Y2 Y5 Y6 Y11 Y12 B2 B9 B11 K1 K2 K7 K8 F",
        "R5 R6 R7 R12 R12 Y1 Y4 Y8 Y9 B4 B6 B7 B9 B12 B13 K5 K5 K6 K10 K11 K12 K13",
    ]
    assert list(dealt.wall) == [33, 22, 3, 1, 80, 104, 21, 61, 98, 69, 83, 70, 86, 105, 35, 44,
                                12, 76, 60, 29]


def test_rack_notation_sorts_by_colour_then_number_false_jokers_last():
    assert rack_notation([105, 53 + 13, 0, 52, 40]) == "R1 Y1 K2 F F"
    assert sorted_codes([53, 0]) == [0, 53]


def test_okey_for_agrees_with_deal_okey():
    dealt = deal(seed="agree")
    assert dealt.okey == okey_for(dealt.indicator_tile)


# Bad input names the proto field at fault (issue 3, item 8).
@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"player_count": 1}, "player_count"),
        ({"player_count": 5}, "player_count"),
        ({"rules": OKEY_101, "player_count": 3}, "player_count"),
        ({"rules": OKEY_101, "player_count": 2}, "player_count"),
        ({"dealer": 4}, "dealer_seat"),
        ({"player_count": 3, "dealer": 3}, "dealer_seat"),
        ({"player_count": 2, "method": FORMAL}, "method"),
        ({"player_count": 3, "method": FORMAL}, "method"),
        ({"rules": OKEY_101, "method": FORMAL}, "method"),
        ({"dice": [5, 2]}, "dice"),
        ({"method": FORMAL, "dice": [1] * 65}, "dice"),
        ({"seed": ""}, "seed"),
        ({"seed": "s" * 257}, "seed"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_bad_deal_input_is_invalid_input_naming_the_field(kwargs, field):
    kwargs = {"seed": "ok", **kwargs}
    with pytest.raises(InvalidInputError) as error:
        deal(**kwargs)
    assert error.value.field == field


def test_player_count_0_means_4():
    assert deal(player_count=0, seed="z").player_count == 4
    assert deal(OKEY_101, player_count=0, seed="z").game is Game.OKEY_101


def test_explicit_order_must_be_a_permutation_of_the_106_codes():
    with pytest.raises(InvalidInputError):
        deal_from_order([0] * 106)


@pytest.mark.parametrize("module", ["okey_rules.dealing.deal", "okey_rules.dealing.shuffle",
                                    "okey_rules.dealing.deal_fairness"])
def test_module_doctests_hold(module):
    results = doctest.testmod(importlib.import_module(module))
    assert results.attempted > 0
    assert results.failed == 0
