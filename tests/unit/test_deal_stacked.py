"""Stacked deals (okey_rules.dealing.deal_stacked; deal.proto, StackedDeal): a position
given tile by tile is accepted only when a deal could hold it: one rack per seat of the
right size (the seat that moves first 15, others 14; Okey 101: the dealer 22, others 21),
each of the 106 tiles exactly once (copy indexes matter), a real indicator, and the wall
ending with the indicator exactly when the ruleset's indicator_drawable_last says so.
Every refusal names the field at fault."""

from __future__ import annotations

import pytest
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_stacked import stacked_deal
from okey_rules.dealing.deal_types import Deal, DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, Tile

CLASSIC = Ruleset()
OKEY_101 = Ruleset(game=Game.OKEY_101)
DRAWABLE_LAST = Ruleset(indicator_drawable_last=True)


def restack(dealt: Deal, **changes: object) -> Deal:
    """`stacked_deal` of `dealt`'s own tiles, with some parts replaced."""
    parts: dict[str, object] = {
        "racks": [list(rack) for rack in dealt.racks],
        "wall": list(dealt.wall),
        "indicator": dealt.indicator,
    }
    parts.update(changes)
    return stacked_deal(
        dealt.rules, dealt.player_count, dealt.dealer,
        racks=parts["racks"], wall=parts["wall"], indicator=parts["indicator"],  # type: ignore[arg-type]
    )


def refusal(dealt: Deal, **changes: object) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as error:
        restack(dealt, **changes)
    return error.value


def seeded(rules: Ruleset = CLASSIC, players: int = 4, dealer: int = 0, seed: str = "s") -> Deal:
    return deal(rules, players, dealer, seed=seed)


@pytest.mark.parametrize(
    ("rules", "players", "dealer"),
    [(CLASSIC, 4, 0), (CLASSIC, 4, 3), (CLASSIC, 3, 1), (CLASSIC, 2, 1), (OKEY_101, 4, 2),
     (DRAWABLE_LAST, 4, 0), (Ruleset(game=Game.OKEY_101, indicator_drawable_last=True), 4, 1)],
)
def test_any_shuffled_deal_given_tile_by_tile_is_the_same_deal(rules, players, dealer):
    """Whatever a shuffle can deal can be stacked: the same racks, wall, indicator and first
    seat, with no seed (a stacked deal has none) and an informal method."""
    for seed in ("a", "b", "c"):
        dealt = seeded(rules, players, dealer, seed)
        stacked = restack(dealt)
        assert stacked.seed == ""
        assert stacked.method is DealMethod.INFORMAL
        assert (stacked.racks, stacked.wall, stacked.indicator) == (
            dealt.racks, dealt.wall, dealt.indicator
        )
        assert (stacked.player_count, stacked.dealer, stacked.first_seat) == (
            dealt.player_count, dealt.dealer, dealt.first_seat
        )


# --- sizes ---------------------------------------------------------------------------------


def test_one_rack_per_seat():
    dealt = seeded(players=3)
    error = refusal(dealt, racks=[list(r) for r in dealt.racks[:2]])
    assert error.field == "stacked.racks"
    assert "2 racks given for 3 seats" in error.description


def test_the_seat_that_moves_first_holds_15_tiles_in_classic():
    """Classic: the dealer's right-hand neighbour (dealer + 1) moves first with 15 tiles.
    Moving one tile from seat 1's rack (dealer 0) to seat 2's is refused on seat 1."""
    dealt = seeded(dealer=0)
    racks = [list(r) for r in dealt.racks]
    racks[2].append(racks[1].pop())
    error = refusal(dealt, racks=racks)
    assert error.field == "stacked.racks[1].tiles"
    assert "seat 1 holds 14 tiles; the seat that moves first holds 15" in error.description


def test_every_other_seat_holds_14_tiles_in_classic():
    dealt = seeded(dealer=0)
    racks = [list(r) for r in dealt.racks]
    racks[3].append(dealt.wall[0])
    error = refusal(dealt, racks=racks, wall=list(dealt.wall[1:]))
    assert error.field == "stacked.racks[3].tiles"
    assert "every other seat holds 14" in error.description


def test_in_okey_101_the_dealer_holds_22_and_the_others_21():
    dealt = seeded(OKEY_101, dealer=2)
    assert [len(r) for r in dealt.racks] == [21, 21, 22, 21]
    racks = [list(r) for r in dealt.racks]
    racks[0].append(racks[2].pop())  # the dealer gives one tile away
    error = refusal(dealt, racks=racks)
    assert error.field == "stacked.racks[0].tiles"
    assert "holds 22 tiles; every other seat holds 21" in error.description


def test_seats_and_dealer_are_checked_as_for_any_deal():
    dealt = seeded()
    with pytest.raises(InvalidInputError) as error:
        stacked_deal(OKEY_101, 3, 0, racks=dealt.racks, wall=dealt.wall,
                     indicator=dealt.indicator)
    assert error.value.field == "player_count"
    with pytest.raises(InvalidInputError) as error:
        stacked_deal(CLASSIC, 4, 4, racks=dealt.racks, wall=dealt.wall,
                     indicator=dealt.indicator)
    assert error.value.field == "dealer_seat"


# --- every tile exactly once ---------------------------------------------------------------


def test_a_tile_placed_twice_is_named_at_its_second_place_with_its_first():
    """The same tile (same face, same copy) in a rack and in the wall: refused where it
    appears the second time (racks are read before the wall), naming where it was first."""
    dealt = seeded()
    wall = list(dealt.wall)
    duplicate = dealt.racks[2][5]
    wall[7] = duplicate
    error = refusal(dealt, wall=wall)
    assert error.field == "stacked.wall[7]"
    tile = Tile.from_code(duplicate)
    assert f"{tile} (copy {tile.copy}) is placed twice (also at stacked.racks[2].tiles[5])" in (
        error.description
    )


def test_a_tile_twice_in_racks_is_named_by_seat_and_index():
    dealt = seeded()
    racks = [list(r) for r in dealt.racks]
    racks[3][0] = racks[0][4]
    error = refusal(dealt, racks=racks)
    assert error.field == "stacked.racks[3].tiles[0]"
    assert "also at stacked.racks[0].tiles[4]" in error.description


def test_the_indicator_repeated_in_a_rack_is_a_duplicate_of_the_indicator():
    dealt = seeded()
    racks = [list(r) for r in dealt.racks]
    racks[1][3] = dealt.indicator
    error = refusal(dealt, racks=racks)
    assert error.field == "stacked.racks[1].tiles[3]"
    assert "also at stacked.indicator" in error.description


def test_copy_indexes_matter_both_copies_of_a_face_are_two_tiles():
    """Two tiles of one face are copy 0 and copy 1: giving one copy twice in place of both
    is a duplicate, named at the second place."""
    dealt = seeded()
    placed = {
        code: (seat, index)
        for seat, rack in enumerate(dealt.racks) for index, code in enumerate(rack)
    }
    # A face with both copies in racks (deals put 56-57 of the 106 tiles in racks).
    first = next(c for c in sorted(placed) if c < FACES and c + FACES in placed)
    seat, index = placed[first + FACES]
    racks = [list(r) for r in dealt.racks]
    racks[seat][index] = first  # copy 0 where copy 1 was
    error = refusal(dealt, racks=racks)
    first_seat, first_index = placed[first]
    assert error.field in (
        f"stacked.racks[{seat}].tiles[{index}]",
        f"stacked.racks[{first_seat}].tiles[{first_index}]",
    )
    assert "placed twice" in error.description
    assert "(copy 0)" in error.description


def test_missing_tiles_are_listed_on_the_whole_position():
    """Dropping wall tiles (racks stay the right size) leaves tiles unplaced: refused on the
    stacked deal itself, counting and naming them."""
    dealt = seeded()
    dropped = dealt.wall[:2]
    error = refusal(dealt, wall=list(dealt.wall[2:]))
    assert error.field == "stacked"
    assert error.description.startswith("2 of the 106 tiles are not placed (")
    for code in dropped:
        tile = Tile.from_code(code)
        assert f"{tile} (copy {tile.copy})" in error.description


def test_a_long_list_of_missing_tiles_is_cut_after_six():
    dealt = seeded()
    error = refusal(dealt, wall=[])
    assert error.field == "stacked"
    assert error.description.startswith(f"{len(dealt.wall)} of the 106 tiles are not placed")
    assert " ...)" in error.description


# --- the indicator -------------------------------------------------------------------------


@pytest.mark.parametrize("copy", [0, 1])
def test_the_indicator_cannot_be_a_false_joker(copy):
    """A false joker turned up is put back and another tile turned (docs/dealing.md): a
    position cannot show one as its indicator. Here the false joker and the indicator swap
    places, so the position is otherwise whole."""
    dealt = seeded()
    joker = copy * FACES + FALSE_JOKER_FACE
    racks = [[dealt.indicator if c == joker else c for c in r] for r in dealt.racks]
    wall = [dealt.indicator if c == joker else c for c in dealt.wall]
    error = refusal(dealt, racks=racks, wall=wall, indicator=joker)
    assert error.field == "stacked.indicator"
    assert "false joker" in error.description


def test_without_indicator_drawable_last_the_indicator_is_not_in_the_wall():
    dealt = seeded()
    wall = [*dealt.wall, dealt.indicator]
    error = refusal(dealt, wall=wall)
    assert error.field == "stacked.wall"
    assert "not in it" in error.description


def test_with_indicator_drawable_last_the_wall_ends_with_the_indicator():
    """indicator_drawable_last: the indicator is also the wall's last tile, the same tile
    (same copy); anywhere else, or missing, the wall is refused."""
    dealt = seeded(DRAWABLE_LAST)
    assert dealt.wall[-1] == dealt.indicator
    moved = [dealt.indicator, *dealt.wall[:-1]]
    assert refusal(dealt, wall=moved).field == "stacked.wall"
    assert refusal(dealt, wall=list(dealt.wall[:-1])).field == "stacked.wall"
    assert refusal(dealt, wall=[]).field == "stacked.wall"
    # The other copy of the indicator's face at the end is another tile.
    other_copy = (dealt.indicator + FACES) % (2 * FACES)
    error = refusal(dealt, wall=[*dealt.wall[:-1], other_copy])
    assert error.field == "stacked.wall"
    assert "ends with the indicator" in error.description


def test_the_field_prefix_is_the_callers():
    """Replay names the stacked deal inside its request (deal.stacked...)."""
    dealt = seeded()
    racks = [list(r) for r in dealt.racks]
    racks[3][0] = racks[0][4]
    with pytest.raises(InvalidInputError) as error:
        stacked_deal(CLASSIC, 4, 0, racks=racks, wall=dealt.wall, indicator=dealt.indicator,
                     field="deal.stacked")
    assert error.value.field == "deal.stacked.racks[3].tiles[0]"
