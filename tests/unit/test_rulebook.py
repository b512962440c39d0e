"""The rulebook states each rule once (docs/rules.md §2-§4); the fast engine is held to it.

First the predicates themselves, rule by rule on tiles in notation; then the
engine's precomputed tables and masks against them: every template of the
meld tables is a set or run of the rulebook, every set or run of three to
five tiles of the rulebook is a template, and the partner masks of the
cheap filter are what the rulebook's three-tile melds say. The search's
answers on whole hands are held to the rulebook in test_hand_reference.py.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest
from okey_rules import rulebook
from okey_rules.rulebook import (
    BEST_KIND_ORDER,
    best_kind,
    is_kafa,
    is_pair,
    is_run,
    is_set,
    is_seven_pairs,
    run_numbers,
    splits_into_melds,
)
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import WinKind
from okey_rules.search.meld_table import MAX_WILDS, tables
from okey_rules.search.packed import _PARTNERS, FIELD, ONE
from okey_rules.tiles import NUMBERS, Tile, parse_tile, parse_tiles

RUNS = pytest.mark.parametrize("runs_13_to_1", [True, False], ids=["12-13-1", "no-12-13-1"])


def _tiles(text: str) -> list[Tile]:
    return parse_tiles(text)


# --- §3.1 Sets. Okey K5 unless a case says otherwise.
@pytest.mark.parametrize(
    ("tiles", "okey", "expected"),
    [
        ("R7 Y7 B7", "K5", True),
        ("R7 Y7 B7 K7", "K5", True),
        ("R7 R7 B7", "K5", False),  # a colour twice
        ("R7 Y8 B7", "K5", False),  # two numbers
        ("R7 B7", "K5", False),  # too few
        ("R7 Y7 B7 K7 K5", "K5", False),  # five: only four colours
        ("R7 K5 B7", "K5", True),  # the okey takes a missing colour
        ("R7 K5 K5", "K5", True),  # both okeys
        ("R5 Y5 F", "K5", True),  # the false joker plays as K5
        ("R5 K5 F", "K5", True),  # okey K5 wild, false joker K5: a set of 5s
        ("R7 Y7 F", "K5", False),  # the false joker is K5, not a 7
    ],
)
def test_sets_rules_3_1(tiles, okey, expected):
    assert is_set(_tiles(tiles), parse_tile(okey)) is expected


# --- §3.2 Runs.
@pytest.mark.parametrize(
    ("tiles", "runs_13_to_1", "expected"),
    [
        ("R1 R2 R3", True, True),
        ("R1 R2 R3", False, True),
        ("R12 R13 R1", True, True),
        ("R12 R13 R1", False, False),  # Okey 101: no 12-13-1
        ("R11 R12 R13 R1", True, True),
        ("R13 R1 R2", True, False),  # 13-1-2 is never a run
        ("R12 R13 R1 R2", True, False),  # nor 12-13-1-2
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", True, True),
        ("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", True, True),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", True, False),  # the 1 twice
        ("R1 Y2 R3", True, False),  # two colours
        ("R1 R2 R4", True, False),  # a gap
        ("R1 R2", True, False),  # too few
        ("R1 K5 R3", True, True),  # the okey takes R2
        ("R12 R13 K5", False, True),  # the okey stands for R11 when 12-13-1 is off
        ("R13 K5 R2", True, False),  # the okey cannot make 13-1-2
        ("K4 F K6", True, True),  # the false joker plays as K5
        ("R4 F R6", True, False),  # ... and only as K5
    ],
)
def test_runs_rules_3_2(tiles, runs_13_to_1, expected):
    assert is_run(_tiles(tiles), parse_tile("K5"), runs_13_to_1) is expected


@RUNS
def test_no_run_holds_the_1_both_low_and_high_rules_3_2(runs_13_to_1):
    for length in range(3, 15):
        for numbers in run_numbers(length, runs_13_to_1):
            assert numbers.count(1) <= 1
            assert len(numbers) <= NUMBERS
            assert numbers[:2] != (13, 1), "13-1-... is never a run"


# --- §4.2 Pairs and seven pairs.
@pytest.mark.parametrize(
    ("tiles", "expected"),
    [("R7 R7", True), ("R7 Y7", False), ("R7 K5", True), ("K5 K5", True), ("F R7", False),
     ("F K5", True), ("R7", False)],
)  # fmt: skip
def test_pairs_rules_4_2(tiles, expected):
    assert is_pair(_tiles(tiles), parse_tile("K5")) is expected


@pytest.mark.parametrize(
    ("hand", "wild_pairs", "expected"),
    [
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 B2 B2", True, True),
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 B2 K5", True, True),  # okey pairs with B2
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 K5 K5", True, True),  # the okeys pair
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 K5 K5", False, False),  # ... not without it
        ("R1 R1 R1 R1 B7 B7 K9 K9 R11 R11 Y13 Y13 B2 B2", True, False),  # R1 twice over
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 B2 B3", True, False),
        ("R1 R1 Y4 Y4 B7 B7 K9 K9 R11 R11 Y13 Y13 F F", True, True),  # false jokers: a K5 pair
    ],
)
def test_seven_pairs_rules_4_2(hand, wild_pairs, expected):
    assert is_seven_pairs(_tiles(hand), parse_tile("K5"), wild_pairs) is expected


# --- §4.3 Kafa.
@pytest.mark.parametrize(
    ("hand", "okey", "expected"),
    [
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", True),
        ("R1 R2 R3 R4 K5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", True),  # okey as R5
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", "K5", True),  # okey as the second 1
        ("R1 R2 R3 R4 F R6 R7 R8 R9 R10 R11 R12 R13 R1", "R5", True),  # F plays as R5
        ("R1 R2 R3 R4 F R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", False),  # F is K5 here
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R13", "K5", False),  # not a second 1
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y1", "K5", False),  # two colours
    ],
)
def test_kafa_rules_4_3(hand, okey, expected):
    assert is_kafa(_tiles(hand), parse_tile(okey)) is expected


# --- §4.4 The best kind.
def test_best_kind_order_is_kafa_then_seven_pairs_then_melds_rules_4_4():
    assert BEST_KIND_ORDER == (WinKind.KAFA, WinKind.SEVEN_PAIRS, WinKind.MELDS)
    assert best_kind([WinKind.MELDS, WinKind.SEVEN_PAIRS]) is WinKind.SEVEN_PAIRS
    assert best_kind([WinKind.MELDS, WinKind.KAFA]) is WinKind.KAFA
    assert best_kind([]) is None


def test_winning_kinds_counts_kafa_only_where_the_ruleset_plays_it_rules_4_3():
    hand = _tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1")
    okey = parse_tile("K5")
    assert rulebook.winning_kinds(hand, okey, Ruleset()) == (WinKind.MELDS,)
    assert rulebook.winning_kinds(hand, okey, Ruleset(kafa=True)) == (WinKind.MELDS, WinKind.KAFA)
    no_runs = Ruleset(kafa=True, runs_13_to_1=False)
    assert rulebook.winning_kinds(hand, okey, no_runs) == (WinKind.KAFA,)


# --- §4.1 Melds: the plain search.
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K1 K2 K3 K4", True),
        ("R7 Y7 B7 K7 R8 Y8 B8 R9 R10 R11 K12 K13 K1 B1", False),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", True),  # a 13-run and the okey
        ("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 R5 B5 K5", True),  # R5 B5 and the okey
        ("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 R5 B5 R9", False),
        ("R1 R2 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K6", False),
    ],
)
def test_splits_into_melds_rules_4_1(hand, expected):
    assert splits_into_melds(_tiles(hand), parse_tile("K5")) is expected


@RUNS
def test_a_long_run_is_short_runs_end_to_end_rules_3_2(runs_13_to_1):
    # The search (here and in the engine) tries runs of 3 to 5 tiles only.
    for length in range(6, 14):
        for numbers in run_numbers(length, runs_13_to_1):
            pieces = [numbers[:3], numbers[3:]] if length - 3 >= 3 else [numbers]
            for piece in pieces:
                assert piece in run_numbers(len(piece), runs_13_to_1)


# --- The engine's tables and masks, held to the rulebook.
def _okey_apart(faces: tuple[int, ...]) -> Tile:
    """An okey sharing neither colour nor number with any of `faces`, when one exists."""
    for face in range(52):
        if all(face // NUMBERS != f // NUMBERS and face % NUMBERS != f % NUMBERS for f in faces):
            return Tile.from_face(face)
    # A set of four colours: an okey of another number (a set ignores colours off its number).
    return Tile.from_face((faces[0] + 5) % NUMBERS)


def _templates(runs_13_to_1: bool) -> list:
    return [t for filed in tables(runs_13_to_1)[MAX_WILDS] for t in filed]


@RUNS
def test_every_table_template_is_a_set_or_run_of_the_rulebook(runs_13_to_1):
    for template in _templates(runs_13_to_1):
        okey = _okey_apart(template.faces)
        tiles = [okey if wild else Tile.from_face(face) for face, wild in template.slots]
        whole = [Tile.from_face(face) for face in template.faces]
        if template.is_set:
            assert is_set(tiles, okey), template
            assert is_set(whole, okey), template
        else:
            assert is_run(tiles, okey, runs_13_to_1), template
            numbers = tuple(face % NUMBERS + 1 for face in template.faces)
            assert numbers in run_numbers(len(numbers), runs_13_to_1), template
        assert template.wilds == sum(template.wild) <= MAX_WILDS


def _rulebook_melds(runs_13_to_1: bool) -> set[tuple[int, int]]:
    """(packed naturals, wilds) of every set and run of 3-5 tiles, 2 wilds at most."""
    found = set()
    groups = [[c * NUMBERS + n for c in range(4)] for n in range(NUMBERS)]  # one number
    groups += [[c * NUMBERS + n for n in range(NUMBERS)] for c in range(4)]  # one colour
    for group in groups:
        for wilds in range(MAX_WILDS + 1):
            for size in range(max(1, 3 - wilds), 6 - wilds):
                for faces in combinations_with_replacement(group, size):
                    okey = _okey_apart(faces)
                    tiles = [Tile.from_face(f) for f in faces] + [okey] * wilds
                    if is_set(tiles, okey) or is_run(tiles, okey, runs_13_to_1):
                        found.add((sum(ONE[f] for f in faces), wilds))
    return found


@RUNS
def test_the_tables_hold_exactly_the_rulebooks_melds_of_three_to_five_tiles(runs_13_to_1):
    in_tables = {(t.natural, t.wilds) for t in _templates(runs_13_to_1)}
    assert in_tables == _rulebook_melds(runs_13_to_1)


@RUNS
def test_partner_masks_are_the_rulebooks_three_tile_melds_with_a_wild(runs_13_to_1):
    # Partners (packed.py) are two faces one set or run of three holds with a wild.
    partners = _PARTNERS[runs_13_to_1]
    for face in range(52):
        for other in range(52):
            okey = _okey_apart((face, other))
            tiles = [Tile.from_face(face), Tile.from_face(other), okey]
            expected = is_set(tiles, okey) or is_run(tiles, okey, runs_13_to_1)
            assert bool(partners[FIELD * face + 1] & ONE[other]) is expected, (face, other)
