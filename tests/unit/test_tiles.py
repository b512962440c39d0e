"""Tiles, notation, codes and the okey of an indicator (docs/rules.md §1-2)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st
from okey_rules import tiles as tiles_module
from okey_rules.errors import InvalidInputError, NotationError
from okey_rules.tiles import (
    Color,
    Tile,
    check_tile_multiset,
    format_tile,
    format_tiles,
    full_set,
    indicator_for,
    okey_for,
    parse_tile,
    parse_tiles,
)

LETTERS = "RYBK"
ALL_NOTATIONS = [f"{c}{n}" for c in LETTERS for n in range(1, 14)]


@pytest.mark.parametrize(
    ("text", "color", "number"),
    [
        ("R7", Color.RED, 7),
        ("Y13", Color.YELLOW, 13),
        ("B1", Color.BLUE, 1),
        ("K12", Color.BLACK, 12),
        ("F", None, 0),
    ],
    ids=["red", "yellow-13", "blue-1", "k-is-black", "false-joker"],
)
def test_notation_reads_colour_letter_and_number_rules_1(text, color, number):
    tile = parse_tile(text)
    assert (tile.color, tile.number, tile.copy) == (color, number, 0)
    assert tile.is_false_joker == (color is None)


@pytest.mark.parametrize(
    "text",
    ["R14", "R0", "R01", "X3", "F1", "", "R 7", "R", "7", "RR7", "R-1", "R7R", "K100", "FF", "R7,"],
    ids=repr,
)
def test_notation_rejects_anything_but_letter_and_1_to_13(text):
    with pytest.raises(NotationError) as caught:
        parse_tile(text)
    assert caught.value.field == "tile"


@pytest.mark.parametrize("text", ["R14", "R0", "B99"])
def test_notation_out_of_range_number_says_1_to_13(text):
    with pytest.raises(NotationError, match="1-13"):
        parse_tile(text)


def test_notation_error_is_invalid_input():
    # The transport maps InvalidInputError to INVALID_ARGUMENT; notation errors must be one.
    assert issubclass(NotationError, InvalidInputError)


@pytest.mark.parametrize(("text", "canonical"), [("r7", "R7"), ("y13", "Y13"), ("k1", "K1"),
                                                 ("f", "F"), ("  b9 ", "B9")])
def test_notation_input_is_case_insensitive_output_canonical(text, canonical):
    assert format_tile(parse_tile(text)) == canonical


@pytest.mark.parametrize("notation", [*ALL_NOTATIONS, "F"])
def test_format_tile_is_the_inverse_of_parse_for_every_face(notation):
    assert format_tile(parse_tile(notation)) == notation
    assert str(parse_tile(notation)) == notation


def test_every_face_has_its_own_notation():
    faces = [parse_tile(n).face for n in [*ALL_NOTATIONS, "F"]]
    assert faces == list(range(53))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R1 R2 R3", "R1 R2 R3"),
        ("r1,r2,r3", "R1 R2 R3"),
        ("r1, R2  b13\tf\n", "R1 R2 B13 F"),
        (" ,k5,, ", "K5"),
        ("", ""),
    ],
    ids=["spaces", "commas", "mixed-separators-and-case", "stray-separators", "empty-list"],
)
def test_parse_tiles_accepts_spaces_and_commas_format_tiles_is_canonical(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "copies"),
    [("R7 R7", [0, 1]), ("F B2 F", [0, 0, 1]), ("R7 K7 r7", [0, 0, 1]), ("R7 R7 R7", [0, 1, 1])],
    ids=["twin", "false-jokers", "case-does-not-hide-a-repeat", "third-stays-copy-1"],
)
def test_parse_tiles_gives_a_repeated_face_copy_1(text, copies):
    assert [t.copy for t in parse_tiles(text)] == copies


def test_parse_tiles_third_copy_is_left_to_check_tile_multiset():
    # parse_tiles reads notation only; the multiset check names the tile at fault.
    tiles = parse_tiles("R7 R7 R7")
    with pytest.raises(InvalidInputError) as caught:
        check_tile_multiset(tiles)
    assert caught.value.field == "tiles[2]"


@pytest.mark.parametrize(
    ("text", "field"),
    [("R1 R14 R3", "[1]"), ("X3", "[0]"), ("R1,R2,R 3", "[2]"), ("K5 F1", "[1]")],
)
def test_parse_tiles_error_names_the_index_of_the_bad_tile(text, field):
    with pytest.raises(NotationError) as caught:
        parse_tiles(text)
    assert caught.value.field == field


@pytest.mark.parametrize(
    ("indicator", "okey"),
    [(f"{c}{n}", f"{c}{n % 13 + 1}") for c in LETTERS for n in range(1, 14)],
)
def test_okey_is_indicator_colour_number_plus_one_13_gives_1_rules_2(indicator, okey):
    assert format_tile(okey_for(parse_tile(indicator))) == okey
    assert format_tile(indicator_for(parse_tile(okey))) == indicator


@pytest.mark.parametrize("copy", [0, 1])
def test_okey_for_13_is_1_and_ignores_the_indicator_copy(copy):
    assert okey_for(Tile(Color.BLUE, 13, copy)) == Tile(Color.BLUE, 1)


def test_indicator_for_inverts_okey_for_on_all_52_faces():
    for face in range(52):
        tile = Tile.from_face(face)
        assert indicator_for(okey_for(tile)) == tile
        assert okey_for(indicator_for(tile)) == tile


def test_false_joker_cannot_be_indicator_rules_2():
    with pytest.raises(InvalidInputError) as caught:
        okey_for(Tile.false_joker())
    assert caught.value.field == "indicator"


def test_false_joker_cannot_be_okey():
    with pytest.raises(InvalidInputError) as caught:
        indicator_for(Tile.false_joker())
    assert caught.value.field == "okey"


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((Color.RED, 0), "number"),
        ((Color.RED, 14), "number"),
        ((Color.BLACK, -1), "number"),
        ((Color.RED, 7, 2), "copy"),
        ((Color.RED, 7, -1), "copy"),
        ((None, 5), "number"),
        ((None, 0, 2), "copy"),
    ],
    ids=["number-0", "number-14", "number-negative", "copy-2", "copy-negative",
         "false-joker-with-number", "false-joker-copy-2"],
)
def test_tile_rejects_impossible_tiles(args, field):
    with pytest.raises(InvalidInputError) as caught:
        Tile(*args)
    assert caught.value.field == field


@pytest.mark.parametrize(("face", "ok"), [(-1, False), (0, True), (52, True), (53, False)])
def test_from_face_accepts_0_to_52(face, ok):
    if ok:
        assert Tile.from_face(face).face == face
    else:
        with pytest.raises(InvalidInputError):
            Tile.from_face(face)


@pytest.mark.parametrize(("code", "ok"), [(-1, False), (0, True), (105, True), (106, False)])
def test_from_code_accepts_0_to_105(code, ok):
    if ok:
        assert Tile.from_code(code).code == code
    else:
        with pytest.raises(InvalidInputError) as caught:
            Tile.from_code(code)
        assert caught.value.field == "code"


def test_codes_and_faces_round_trip_for_all_106_tiles():
    for code in range(106):
        tile = Tile.from_code(code)
        assert tile.code == code
        assert tile.face == code % 53
        assert tile.copy == code // 53
        assert Tile.from_face(tile.face, tile.copy) == tile
        assert Tile(tile.color, tile.number, tile.copy) == tile


def test_face_is_colour_times_13_plus_number_minus_1():
    assert Tile(Color.RED, 1).face == 0
    assert Tile(Color.YELLOW, 1).face == 13
    assert Tile(Color.BLACK, 13).face == 51
    assert Tile.false_joker(1).code == 105


def test_tiles_are_frozen():
    tile = parse_tile("R7")
    with pytest.raises(AttributeError):
        tile.number = 8  # type: ignore[misc]


def test_equality_tells_copies_apart_same_face_does_not():
    first, second = Tile(Color.RED, 7, 0), Tile(Color.RED, 7, 1)
    assert first != second
    assert first.same_face(second)
    assert len({first, second}) == 2


def test_tile_order_is_red_yellow_blue_black_by_number_false_joker_last():
    shuffled = parse_tiles("F K1 B13 R2 Y1 R1 R1")
    assert format_tiles(sorted(shuffled)) == "R1 R1 R2 Y1 B13 K1 F"
    assert [t.copy for t in sorted(shuffled) if t.face == 0] == [0, 1]


def test_full_set_holds_106_distinct_tiles_two_of_each_face():
    tiles = full_set()
    assert [t.code for t in tiles] == list(range(106))
    assert sum(t.is_false_joker for t in tiles) == 2
    check_tile_multiset(tiles)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("R7 R7 R7", "tiles[2]"),
        ("R7 B2 R7 K9 R7", "tiles[4]"),
        ("F F F", "tiles[2]"),
        ("B1 F R2 F K3 F", "tiles[5]"),
    ],
    ids=["third-copy", "third-copy-later", "third-false-joker", "third-false-joker-later"],
)
def test_check_tile_multiset_refuses_a_third_copy_naming_it(text, field):
    with pytest.raises(InvalidInputError) as caught:
        check_tile_multiset(parse_tiles(text))
    assert caught.value.field == field


def test_check_tile_multiset_message_says_what_is_repeated():
    with pytest.raises(InvalidInputError, match="false jokers"):
        check_tile_multiset(parse_tiles("F F F"))
    with pytest.raises(InvalidInputError, match="R7"):
        check_tile_multiset(parse_tiles("R7 R7 R7"))


def test_check_tile_multiset_field_prefix_is_the_callers():
    with pytest.raises(InvalidInputError) as caught:
        check_tile_multiset(parse_tiles("K2 K2 K2"), field="rack")
    assert caught.value.field == "rack[2]"


@pytest.mark.parametrize("text", ["R7 R7", "F F", "R7 R7 F F K13 K13", ""])
def test_check_tile_multiset_accepts_two_of_each(text):
    check_tile_multiset(parse_tiles(text))


def test_doctests_of_the_notation_functions_pass():
    result = doctest.testmod(tiles_module, raise_on_error=False)
    assert result.attempted >= 4
    assert result.failed == 0


@given(st.lists(st.integers(0, 52), min_size=0, max_size=15))
def test_check_tile_multiset_fast_count_agrees_with_a_plain_count_rules_1(faces):
    # docs/rules.md §1: two of each numbered face, two false jokers. The packed
    # count is a shortcut; it must refuse exactly what a plain count refuses.
    tiles = [Tile.from_face(face) for face in faces]
    too_many = any(faces.count(face) > 2 for face in set(faces))
    try:
        check_tile_multiset(tiles)
        refused = False
    except InvalidInputError:
        refused = True
    assert refused == too_many
