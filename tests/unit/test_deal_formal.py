"""The formal deal of the Japanese rules text (docs/dealing.md): stacks, dice, takes, the wall."""

from __future__ import annotations

import pytest
from okey_rules import Ruleset, format_tile, parse_tile
from okey_rules.dealing.deal import deal, deal_from_order
from okey_rules.dealing.deal_types import DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.tiles import Tile

FORMAL = DealMethod.FORMAL
R4 = parse_tile("R4").code
FALSE_JOKERS = (52, 105)


def order_with(placements: dict[int, int]) -> list[int]:
    """Codes 0..105 in code order, with each {position: code} moved into place by a swap."""
    order = list(range(106))
    for position, code in placements.items():
        other = order.index(code)
        order[position], order[other] = order[other], order[position]
    return order


def stack(order: list[int], index: int) -> tuple[int, ...]:
    return tuple(order[5 * index : 5 * index + 5])


# The Japanese rules text's worked example: die 1 = 5 puts the spare on the
# 5th stack from the dealer's left (index 4); die 2 = 2 turns up its 2nd tile
# from the bottom, which the figure shows as red 4.
WORKED = order_with({5 * 4 + 1: R4})


def worked_example(dealer: int = 0, rules: Ruleset | None = None):
    return deal_from_order(WORKED, rules or Ruleset(), 4, dealer, FORMAL, dice=[5, 2])


def test_japanese_worked_example_indicator_red_4_makes_okey_red_5():
    dealt = worked_example()
    assert format_tile(dealt.indicator_tile) == "R4"
    assert format_tile(dealt.okey) == "R5"
    assert dealt.formal is not None
    assert dealt.formal.dice == (5, 2)
    assert dealt.formal.indicator_stack == 4
    assert dealt.formal.indicator_position == 2


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_japanese_worked_example_who_takes_which_stack_parts(dealer):
    """Player 1 is the dealer, 2 the dealer's right (first player), 3 opposite,
    4 the dealer's left; "a" is the stack right after the indicator stack."""
    dealt = worked_example(dealer)
    player = {n: (dealer + n - 1) % 4 for n in (1, 2, 3, 4)}
    expected = [
        (player[2], "a", "whole"), (player[3], "b", "whole"),
        (player[4], "c", "whole"), (player[1], "d", "whole"),
        (player[2], "e", "whole"), (player[3], "f", "whole"),
        (player[4], "g", "whole"), (player[1], "h", "whole"),
        (player[2], "i", "whole"),
        (player[3], "j", "top 4"),
        (player[4], "j", "bottom 1"), (player[4], "k", "top 3"),
        (player[1], "k", "bottom 2"), (player[1], "l", "top 2"),
    ]
    assert dealt.formal is not None
    assert [(t.seat, t.letter, t.part) for t in dealt.formal.takes] == expected
    # Letters a..l are the stacks after the indicator stack (index 4): 5..16.
    assert [t.stack for t in dealt.formal.takes] == [ord(t.letter) - ord("a") + 5
                                                     for t in dealt.formal.takes]


def test_japanese_worked_example_takes_hold_exactly_those_tiles():
    dealt = worked_example()
    assert dealt.formal is not None
    j, k, l_ = stack(WORKED, 14), stack(WORKED, 15), stack(WORKED, 16)
    parts = {(t.letter, t.part): t.tiles for t in dealt.formal.takes}
    assert parts[("j", "top 4")] == j[1:]
    assert parts[("j", "bottom 1")] == j[:1]
    assert parts[("k", "top 3")] == k[2:]
    assert parts[("k", "bottom 2")] == k[:2]
    assert parts[("l", "top 2")] == l_[3:]
    for take in dealt.formal.takes:
        assert set(take.tiles) <= set(dealt.racks[take.seat])


def test_japanese_rack_sizes_first_player_15_others_14():
    dealt = worked_example(dealer=0)
    assert [len(rack) for rack in dealt.racks] == [14, 15, 14, 14]
    assert dealt.first_seat == 1


def test_racks_are_the_takes_in_order_each_part_bottom_to_top():
    dealt = worked_example()
    assert dealt.formal is not None
    for seat in range(4):
        taken = [c for t in dealt.formal.takes if t.seat == seat for c in t.tiles]
        assert list(dealt.racks[seat]) == taken


def test_wall_runs_from_rest_of_l_round_the_ring_and_ends_with_indicator_stack():
    """Drawing continues from the top of what is left of l, stack after stack, and
    the indicator stack comes last without its face-up tile (docs/dealing.md)."""
    dealt = worked_example()
    rest_of_l = stack(WORKED, 16)[:3]
    expected = list(reversed(rest_of_l))
    for index in [*range(17, 21), 0, 1, 2, 3]:
        expected += reversed(stack(WORKED, index))
    indicator_stack = [*stack(WORKED, 4), WORKED[105]]
    indicator_stack.remove(R4)
    expected += reversed(indicator_stack)
    assert list(dealt.wall) == expected
    assert R4 not in dealt.wall


def test_indicator_drawable_last_puts_the_indicator_at_the_end_of_the_wall():
    plain = worked_example()
    drawable = worked_example(rules=Ruleset(indicator_drawable_last=True))
    assert list(drawable.wall) == [*plain.wall, R4]


def test_die_1_of_6_puts_the_spare_on_the_sixth_stack_and_die_2_of_6_picks_the_spare():
    order = order_with({105: R4})
    dealt = deal_from_order(order, dice=[6, 6], method=FORMAL)
    assert dealt.indicator == R4
    assert dealt.formal is not None
    assert dealt.formal.indicator_stack == 5
    assert dealt.formal.takes[0].stack == 6


def test_die_2_on_a_false_joker_is_rolled_again():
    # Stack index 0 (die 1 = 1): false joker 2nd from the bottom, R4 4th.
    order = order_with({1: 52, 3: R4})
    dealt = deal_from_order(order, dice=[1, 2, 4], method=FORMAL)
    assert dealt.indicator == R4
    assert dealt.formal is not None
    assert dealt.formal.dice == (1, 2, 4)
    assert dealt.formal.indicator_position == 4
    # The false joker went back: it is in the indicator stack, drawn last.
    assert 52 in dealt.wall[-5:]


def test_die_2_may_hit_a_false_joker_again_and_again():
    order = order_with({1: 52, 2: 105, 3: R4})
    dealt = deal_from_order(order, dice=[1, 2, 3, 2, 4], method=FORMAL)
    assert dealt.indicator == R4


def test_given_dice_running_out_on_a_false_joker_asks_for_a_re_roll_naming_die_2():
    """Die 2 (2) turns up the false joker 2nd from the bottom of stack 0 (die 1 = 1)."""
    order = order_with({1: 52})
    with pytest.raises(InvalidInputError) as error:
        deal_from_order(order, dice=[1, 2], method=FORMAL)
    assert error.value.field == "dice"
    assert error.value.description == (
        "die 2 (2) hit a false joker at position 2 of stack 0 (die 1 = 1): "
        "roll die 2 again and add it to the dice"
    )


def test_given_re_roll_hitting_the_other_false_joker_names_the_re_roll():
    order = order_with({1: 52, 2: 105})
    with pytest.raises(InvalidInputError) as error:
        deal_from_order(order, dice=[1, 2, 3], method=FORMAL)
    assert error.value.description.startswith(
        "re-roll 1 of die 2 (3) hit a false joker at position 3 of stack 0"
    )


@pytest.mark.parametrize("die_1", [3, 5])
def test_only_die_1_given_asks_for_die_2_not_a_re_roll(die_1):
    """With one die given nothing hit a false joker yet: die 2 is simply missing."""
    with pytest.raises(InvalidInputError) as error:
        deal(seed="s", method=FORMAL, dice=[die_1])
    assert error.value.field == "dice"
    assert error.value.description == "die 2 is missing: give die 1 and die 2"


def test_surplus_dice_are_refused():
    with pytest.raises(InvalidInputError) as error:
        deal_from_order(WORKED, dice=[5, 2, 3], method=FORMAL)
    assert error.value.field == "dice"


@pytest.mark.parametrize("dice", [[0, 2], [7, 2], [5, 0], [5, 9]])
def test_dice_outside_1_to_6_are_refused_naming_the_die(dice):
    bad = next(i for i, d in enumerate(dice) if not 1 <= d <= 6)
    with pytest.raises(InvalidInputError) as error:
        deal(seed="s", method=FORMAL, dice=dice)
    assert error.value.field == f"dice[{bad}]"


def test_seeded_formal_deal_rolls_both_dice_from_the_seed():
    dealt = deal(seed="table-7", method=FORMAL)
    again = deal(seed="table-7", method=FORMAL)
    assert dealt == again
    assert dealt.formal is not None
    assert not dealt.formal.dice_given
    assert all(1 <= d <= 6 for d in dealt.formal.dice)
    placed = dealt.formal.stacks[dealt.formal.indicator_stack] + (dealt.formal.spare,)
    assert placed[dealt.formal.indicator_position - 1] == dealt.indicator
    assert not Tile.from_code(dealt.indicator).is_false_joker


def test_given_dice_override_the_seed_and_are_marked_given():
    seeded = deal(seed="table-7", method=FORMAL)
    assert seeded.formal is not None
    given = deal(seed="table-7", method=FORMAL, dice=list(seeded.formal.dice))
    assert given.formal is not None
    assert given.formal.dice_given
    assert (given.racks, given.wall, given.indicator) == (
        seeded.racks, seeded.wall, seeded.indicator)


def test_stacks_are_the_shuffle_in_fives_bottom_to_top_and_the_spare_is_last():
    dealt = worked_example()
    assert dealt.formal is not None
    assert [list(s) for s in dealt.formal.stacks] == [WORKED[5 * k : 5 * k + 5] for k in range(21)]
    assert dealt.formal.spare == WORKED[105]
    assert dealt.formal.letter_of(5) == "a"
    assert dealt.formal.letter_of(4) == ""
    assert dealt.formal.letter_of(3) == "t"


def test_pinned_formal_deal():
    """Regression pin: computed once from the implementation and pasted here."""
    dealt = deal(seed="table-7", method=FORMAL, dealer=2)
    assert dealt.formal is not None
    assert dealt.formal.dice == (6, 6)
    assert format_tile(dealt.indicator_tile) == "R9"
    assert [list(rack) for rack in dealt.racks] == [
        [31, 72, 11, 26, 17, 51, 6, 4, 92, 50, 9, 56, 41, 43],
        [8, 33, 93, 37, 57, 70, 75, 102, 28, 5, 68, 79, 48, 40],
        [12, 82, 44, 18, 20, 42, 29, 30, 81, 23, 34, 46, 27, 2],
        [73, 69, 97, 62, 7, 65, 66, 13, 47, 98, 83, 49, 38, 85, 86],
    ]
    assert list(dealt.wall) == [
        84, 95, 39, 36, 74, 10, 1, 58, 103, 52, 64, 15, 63, 104, 76, 71, 54, 55, 32, 0, 59,
        45, 60, 96, 21, 3, 53, 100, 24, 90, 94, 14, 88, 22, 25, 35, 91, 105, 78, 16, 77, 19,
        89, 87, 99, 101, 67, 80,
    ]
