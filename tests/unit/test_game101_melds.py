"""Okey 101 melds on the table (docs/rules.md §10.2-§10.3): openings by points or pairs,
what sets and runs are, what an okey and a false joker stand for and count, new melds and
lay-offs after opening.

Positions use the default indicator K13 (the okey is K1; a false joker plays as K1)
unless a test says otherwise.
"""

from __future__ import annotations

import dataclasses

import pytest
from game101_support import (
    after,
    arranged,
    event_kinds,
    face_of,
    faces_of,
    groups,
    lay_meld,
    lay_off,
    one,
    open_melds,
    penalties_in,
    play101,
    refused101,
)
from okey_rules.play.game101 import apply_move_101
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import (
    EventKind,
    IllegalReason,
    Move,
    MoveKind,
    Opened,
    Penalty,
    Phase,
)
from okey_rules.search.hand_types import MeldKind

# 46 + 46 points of runs: with a set of three 3s exactly 101, of four 2s 100.
RUNS_92 = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13")
KEEPER = "K12"


def opening_seat(rack: str, indicator: str = "K13") -> State101:
    """Seat 1, not opened, just after its draw (22 tiles: `rack` and spare tiles)."""
    return arranged({1: rack}, phase=Phase.DISCARD, indicator=indicator)


def opened_seat(rack: str, table: list[tuple[int, str]] | None = None) -> State101:
    """Seat 1 opened with melds earlier (its run B1 B2 B3 is meld 0), just after its draw;
    it holds `rack` and K12, a tile to keep (a laying move never empties the rack)."""
    melds = [(1, "B1 B2 B3"), *(table or [])]
    return arranged({1: rack + " " + KEEPER}, phase=Phase.DISCARD, table=melds)


# --- openings ----------------------------------------------------------------------------------


def test_an_opening_of_exactly_101_points_opens():
    """§10.2: sets and runs worth 101 (46 + 46 + 9) open; they go on the table as the
    seat's melds, nothing is charged, and the turn goes on (the seat still discards)."""
    state = opening_seat(" ".join(RUNS_92) + " B3 Y3 K3")
    result = play101(state, open_melds(state, *RUNS_92, "B3 Y3 K3"))
    opened = result.state
    assert opened is not None
    assert event_kinds(result) == [EventKind.OPENED]
    assert penalties_in(result) == []
    assert opened.seats[1].opened is Opened.MELDS
    assert [m.owner for m in opened.table] == [1, 1, 1]
    assert [m.kind for m in opened.table] == [MeldKind.RUN, MeldKind.RUN, MeldKind.SET]
    assert sum(m.value for m in opened.table) == 101
    assert len(opened.seats[1].rack) == 22 - 11
    assert (opened.turn, opened.phase) == (1, Phase.DISCARD)


def test_an_opening_below_101_points_is_a_failed_opening_that_lays_nothing():
    """§10.2, §10.5: melds worth 100 are a legal move that opens nothing: the tiles stay
    in the rack, the table stays empty and the seat is charged 101."""
    state = opening_seat(" ".join(RUNS_92) + " R2 Y2 B2 K2")
    result = play101(state, open_melds(state, *RUNS_92, "R2 Y2 B2 K2"))
    failed = result.state
    assert failed is not None
    assert penalties_in(result) == [Penalty.FAILED_OPENING]
    assert EventKind.OPENED not in event_kinds(result)
    assert failed.table == ()
    assert failed.seats[1].opened is None
    assert failed.seats[1].rack == state.seats[1].rack
    assert failed.seats[1].penalties == (Penalty.FAILED_OPENING,)
    assert (failed.turn, failed.phase) == (1, Phase.DISCARD)


def test_five_pairs_open():
    """§10.2: five pairs (two identical tiles each) open, whatever they are worth."""
    pairs = ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6")
    state = opening_seat(" ".join(pairs))
    result = play101(state, open_melds(state, *pairs, pairs=True))
    opened = result.state
    assert opened is not None
    assert event_kinds(result) == [EventKind.OPENED]
    assert opened.seats[1].opened is Opened.PAIRS
    assert [m.kind for m in opened.table] == [MeldKind.PAIR] * 5
    assert len(opened.seats[1].rack) == 22 - 10


def test_four_pairs_are_a_failed_opening():
    """§10.2, §10.5: fewer than five pairs open nothing and cost 101."""
    pairs = ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4")
    state = opening_seat(" ".join(pairs))
    result = play101(state, open_melds(state, *pairs, pairs=True))
    assert penalties_in(result) == [Penalty.FAILED_OPENING]
    assert result.state is not None
    assert result.state.table == ()
    assert result.state.seats[1].opened is None


def test_a_pair_is_two_identical_tiles():
    """§10.2: two tiles of one number in different colours are no pair."""
    state = opening_seat("R1 R1 Y2 Y2 B3 B3 K4 K4 R6 Y6")
    move = open_melds(state, "R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 Y6", pairs=True)
    assert refused101(state, move).reason is IllegalReason.INVALID_MELD


def test_an_okey_completes_a_pair():
    """§10.2: an okey pairs with any tile and stands for that tile's face."""
    state = opening_seat("R1 R1 Y2 Y2 B3 B3 K4 K4 R6 K1")
    opened = after(state, open_melds(state, "R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 K1",
                                     pairs=True))
    assert opened.seats[1].opened is Opened.PAIRS
    assert faces_of(opened.table[4]) == [face_of("R6")] * 2


def test_the_two_okeys_pair_together_only_with_wild_pairs():
    """§10.2, §4.2 option wild_pairs: the two okeys (K1 here) may pair with each other
    only where the option allows."""
    state = opening_seat("R1 R1 Y2 Y2 B3 B3 K4 K4 K1 K1")
    move = open_melds(state, "R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "K1 K1", pairs=True)
    assert after(state, move).seats[1].opened is Opened.PAIRS
    strict = dataclasses.replace(state, rules=state.rules.with_overrides(wild_pairs=False))
    assert refused101(strict, move).reason is IllegalReason.INVALID_MELD


def test_an_opening_counts_the_face_an_okey_stands_for():
    """§10.2: the okey (K1) standing for K3 counts 3, so 46 + 46 + 9 = 101 opens (counted
    as the 1 it shows, the melds would be worth 99)."""
    state = opening_seat(" ".join(RUNS_92) + " B3 Y3 K1")
    result = play101(state, open_melds(state, *RUNS_92, "B3 Y3 K1=K3"))
    opened = result.state
    assert opened is not None
    assert opened.seats[1].opened is Opened.MELDS
    okey_laid = opened.table[2].tiles[2]
    assert okey_laid.code == one(state, 1, "K1")
    assert okey_laid.face == face_of("K3")
    assert opened.table[2].value == 9


def test_a_false_joker_counts_as_the_okey_face_value():
    """§10.2: indicator B12 makes B13 the okey; a false joker plays as B13 and counts 13,
    so R13 Y13 F is a set worth 39 and 46 + 16 + 39 = 101 opens."""
    melds = ("R10 R11 R12 R13", "R4 Y4 B4 K4", "R13 Y13 F")
    state = opening_seat(" ".join(melds), indicator="B12")
    result = play101(state, open_melds(state, *melds))
    opened = result.state
    assert opened is not None
    assert opened.seats[1].opened is Opened.MELDS
    false_joker = opened.table[2].tiles[2]
    assert false_joker.code == one(state, 1, "F")
    assert false_joker.face == face_of("B13")
    assert opened.table[2].value == 39


def test_an_opening_with_an_invalid_meld_is_refused():
    """§10.2: every group of an opening must be a set or a run; the move is illegal
    (not a failed opening) and charges nothing."""
    state = opening_seat(" ".join(RUNS_92) + " B3 Y3 K4")
    move = open_melds(state, *RUNS_92, "B3 Y3 K4")
    assert refused101(state, move).reason is IllegalReason.INVALID_MELD


# --- sets and runs -----------------------------------------------------------------------------


@pytest.mark.parametrize("meld", ["R5 Y5 R5", "R5 Y5 B5 Y5"])
def test_a_set_never_repeats_a_colour(meld):
    """§10.2: a set shows one number in different colours."""
    state = opened_seat(meld)
    assert refused101(state, lay_meld(state, meld)).reason is IllegalReason.INVALID_MELD


@pytest.mark.parametrize(("meld", "valid"), [
    ("R5 Y5 B5", True),
    ("R5 Y5 B5 K5", True),
    ("R5 Y5", False),
    ("R5 Y5 B6", False),
])
def test_a_set_is_three_or_four_tiles_of_one_number(meld, valid):
    """§10.2: three or four tiles, one number, every colour different."""
    state = opened_seat(meld)
    result = apply_move_101(state, lay_meld(state, meld))
    assert result.legal == valid
    if valid:
        assert result.state is not None
        assert result.state.table[-1].kind is MeldKind.SET


@pytest.mark.parametrize(("meld", "valid"), [
    ("R5 R6 R7", True),
    ("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13", True),
    ("R11 R12 R13", True),
    ("R5 R6", False),
    ("R5 R6 Y7", False),
    ("R5 R7 R8", False),
])
def test_a_run_is_three_or_more_consecutive_numbers_of_one_colour(meld, valid):
    """§10.2: a run: three or more consecutive numbers, all of one colour."""
    state = opened_seat(meld)
    result = apply_move_101(state, lay_meld(state, meld))
    assert result.legal == valid, result.message
    if valid:
        assert result.state is not None
        assert result.state.table[-1].kind is MeldKind.RUN


def test_12_13_1_is_not_a_run_in_101():
    """§10.2: a run never goes past 13, so the 1 is never played after the 13."""
    state = opened_seat("R12 R13 R1")
    assert refused101(state, lay_meld(state, "R12 R13 R1")).reason is IllegalReason.INVALID_MELD


def test_13_1_2_is_not_a_run_in_101():
    """§10.2: nor does a run wrap round from 13 to 1."""
    state = opened_seat("R13 R1 R2")
    assert refused101(state, lay_meld(state, "R13 R1 R2")).reason is IllegalReason.INVALID_MELD


def test_an_okey_after_12_13_stands_for_11():
    """§10.3: laid without a face, an okey takes the most valuable face it can; after
    R12 R13 only R11 makes a run (no 12-13-1 in 101)."""
    state = opened_seat("R12 R13 K1")
    laid = after(state, lay_meld(state, "R12 R13 K1")).table[-1]
    assert laid.kind is MeldKind.RUN
    assert faces_of(laid) == [face_of("R11"), face_of("R12"), face_of("R13")]
    assert laid.tiles[0].code == one(state, 1, "K1")


@pytest.mark.parametrize(("meld", "stands_for"), [
    ("R5 R6 K1", ["R7"]),  # R7 (18 points) beats R4 (15)
    ("R5 Y5 K1", ["B5"]),  # B5 and K5 are worth the same: the lower face
    ("R5 K1 K1", ["R6", "R7"]),  # the run R5 R6 R7 (18) beats any set of 5s (15)
])
def test_an_okey_laid_without_a_face_stands_for_the_face_worth_most(meld, stands_for):
    """§10.3: an okey laid without a face stands for the face that makes the meld worth
    most; between faces worth the same, the lowest."""
    state = opened_seat(meld)
    laid = after(state, lay_meld(state, meld)).table[-1]
    okeys = [t.face for t in laid.tiles if t.code % 53 == face_of("K1")]
    assert okeys == [face_of(name) for name in stands_for]


def test_an_okey_given_a_face_stands_for_that_face():
    """§10.3: the seat may say what the okey stands for: R4 rather than R7."""
    state = opened_seat("R5 R6 K1")
    laid = after(state, lay_meld(state, "R5 R6 K1=R4")).table[-1]
    assert faces_of(laid) == [face_of(name) for name in ("R4", "R5", "R6")]


def test_a_natural_tile_stands_only_for_itself():
    """§10.3: a face given for a natural tile must be its own."""
    state = opened_seat("R5 R6 R8")
    move = lay_meld(state, "R5 R6 R8=R7")
    assert refused101(state, move).reason is IllegalReason.INVALID_MELD


# --- after opening -----------------------------------------------------------------------------


def test_an_opened_seat_lays_new_melds():
    """§10.3: once open, a seat lays further sets and runs, of any value, as its own."""
    state = opened_seat("Y7 Y8 Y9 R2 B2 K2")
    result = play101(state, lay_meld(state, "Y7 Y8 Y9", "R2 B2 K2"))
    laid = result.state
    assert laid is not None
    assert event_kinds(result) == [EventKind.LAID_MELD]
    assert result.events[0].meld == 1  # the index of its first new meld
    assert [m.owner for m in laid.table] == [1, 1, 1]
    assert penalties_in(result) == []


def test_an_opened_seat_lays_off_onto_anyones_set_or_run():
    """§10.3: a tile may be added to any set or run on the table, another seat's too."""
    state = opened_seat("R8 B4", table=[(2, "R5 R6 R7")])
    result = play101(state, lay_off(state, "R8", 1))
    laid = result.state
    assert laid is not None
    assert event_kinds(result) == [EventKind.LAID_OFF]
    assert result.events[0].meld == 1
    assert faces_of(laid.table[1]) == [face_of(n) for n in ("R5", "R6", "R7", "R8")]
    assert laid.table[1].owner == 2  # the meld stays its layer's
    laid = after(laid, lay_off(laid, "B4", 0))
    assert faces_of(laid.table[0]) == [face_of(n) for n in ("B1", "B2", "B3", "B4")]


def test_an_okey_laid_off_stands_for_the_face_worth_most_unless_given():
    """§10.3: an okey laid off onto R5 R6 R7 stands for R8 (not R4) unless the seat says R4."""
    state = opened_seat("K1", table=[(2, "R5 R6 R7")])
    grown = after(state, lay_off(state, "K1", 1)).table[1]
    assert faces_of(grown) == [face_of(n) for n in ("R5", "R6", "R7", "R8")]
    grown = after(state, lay_off(state, "K1", 1, face="R4")).table[1]
    assert faces_of(grown) == [face_of(n) for n in ("R4", "R5", "R6", "R7")]


def test_a_table_okey_keeps_its_face_when_laid_off_onto():
    """§10.3: what a table okey stands for is fixed once laid: R5 K1(as R6) R7 takes R8
    or R4, never the real R6, and the okey still stands for R6 after a lay-off."""
    state = opened_seat("R6 R8", table=[(2, "R5 K1=R6 R7")])
    assert refused101(state, lay_off(state, "R6", 1)).reason is IllegalReason.CANNOT_LAY_OFF
    grown = after(state, lay_off(state, "R8", 1)).table[1]
    assert faces_of(grown) == [face_of(n) for n in ("R5", "R6", "R7", "R8")]
    okey = next(t for t in grown.tiles if t.code % 53 == face_of("K1"))
    assert okey.face == face_of("R6")


def test_a_set_takes_only_a_missing_colour_as_a_lay_off():
    """§10.3: R5 Y5 B5 takes K5 (a fourth colour) and nothing else; four is full, even
    for an okey."""
    state = opened_seat("K5 R5 Y6 K1", table=[(2, "R5 Y5 B5")])
    assert refused101(state, lay_off(state, "R5", 1)).reason is IllegalReason.CANNOT_LAY_OFF
    assert refused101(state, lay_off(state, "Y6", 1)).reason is IllegalReason.CANNOT_LAY_OFF
    full = after(state, lay_off(state, "K5", 1))
    assert len(full.table[1].tiles) == 4
    assert refused101(full, lay_off(full, "K1", 1)).reason is IllegalReason.CANNOT_LAY_OFF


def test_a_run_is_never_laid_off_onto_past_13():
    """§10.2-§10.3: R11 R12 R13 takes R10, never R1."""
    state = opened_seat("R1 R10", table=[(2, "R11 R12 R13")])
    assert refused101(state, lay_off(state, "R1", 1)).reason is IllegalReason.CANNOT_LAY_OFF
    assert after(state, lay_off(state, "R10", 1)).table[1].value == 46


def test_a_pairs_opener_lays_only_pairs():
    """§10.3: a seat that opened with pairs lays further pairs, never sets or runs."""
    state = arranged({1: "Y5 Y5 B7 B8 B9 K12"}, phase=Phase.DISCARD,
                     table=[(1, "R1 R1"), (1, "Y2 Y2"), (1, "B3 B3"), (1, "K4 K4"),
                            (1, "R6 R6")])
    assert state.seats[1].opened is Opened.PAIRS
    result = refused101(state, lay_meld(state, "B7 B8 B9"))
    assert result.reason is IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS
    laid = after(state, lay_meld(state, "Y5 Y5"))
    assert laid.table[-1].kind is MeldKind.PAIR
    assert laid.table[-1].owner == 1


def test_a_pairs_opener_laying_a_run_beside_a_pair_lays_no_melds():
    """§10.3: the run is what a pairs-opener may not lay, whatever else the move lays."""
    state = arranged({1: "Y5 Y5 B7 B8 B9 K12"}, phase=Phase.DISCARD,
                     table=[(1, "R1 R1"), (1, "Y2 Y2"), (1, "B3 B3"), (1, "K4 K4"),
                            (1, "R6 R6")])
    result = refused101(state, lay_meld(state, "Y5 Y5", "B7 B8 B9"))
    assert result.reason is IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS


def test_a_pairs_opener_may_lay_off_onto_others_melds():
    """§10.3: a pairs-opener adds tiles to other seats' sets and runs; a pair takes none."""
    state = arranged({1: "Y10 B4 K12"}, phase=Phase.DISCARD,
                     table=[(1, "R1 R1"), (1, "Y2 Y2"), (1, "B3 B3"), (1, "K4 K4"),
                            (1, "R6 R6"), (2, "Y7 Y8 Y9")])
    grown = after(state, lay_off(state, "Y10", 5)).table[5]
    assert faces_of(grown)[-1] == face_of("Y10")
    assert refused101(state, lay_off(state, "B4", 2)).reason is IllegalReason.CANNOT_LAY_OFF


def test_a_melds_opener_lays_no_pairs():
    """§10.3: pairs are the pairs-opener's melds; a seat that opened with melds lays sets
    and runs only."""
    state = opened_seat("Y5 Y5")
    assert refused101(state, lay_meld(state, "Y5 Y5")).reason is IllegalReason.INVALID_MELD


def test_a_seat_not_opened_neither_lays_melds_nor_lays_off():
    """§10.3: laying melds or laying off waits for the opening."""
    state = arranged({1: "Y7 Y8 Y9 R8"}, phase=Phase.DISCARD,
                     table=[(2, "R5 R6 R7")])
    assert refused101(state, lay_meld(state, "Y7 Y8 Y9")).reason is IllegalReason.NOT_OPENED
    assert refused101(state, lay_off(state, "R8", 0)).reason is IllegalReason.NOT_OPENED


def test_an_opening_may_mix_several_sets_and_runs_with_both_okeys():
    """§10.2: both okeys may play in one opening, each standing for what it is given."""
    melds = ("R10 R11 R12 K1=R13", "Y10 Y11 K1=Y12 Y13", "B3 Y3 K3")
    rack = "R10 R11 R12 K1 Y10 Y11 K1 Y13 B3 Y3 K3"
    state = opening_seat(rack)
    opened = after(state, Move(MoveKind.OPEN, 1, melds=groups(state, 1, *melds)))
    assert sum(m.value for m in opened.table) == 101
    assert opened.seats[1].opened is Opened.MELDS


