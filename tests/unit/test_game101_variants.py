"""The Okey 101 variants of online tables (docs/rules.md §10.8), each off by default and
tested on and off: progressive opening, riziko, okey retrieval, lay-off cap, partnership
waiver."""

from __future__ import annotations

import dataclasses

from game101_support import (
    after,
    arranged,
    face_of,
    held,
    lay_off,
    open_melds,
    refused101,
)
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_types import Deal
from okey_rules.play.game101 import apply_move_101, start_round_101
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import (
    EventKind,
    IllegalReason,
    Move,
    MoveKind,
    Opened,
    Outcome,
    Penalty,
    Phase,
    RoundEnd,
)
from okey_rules.ruleset import PRESETS, Ruleset
from okey_rules.scores.scoring101 import score_round_101
from okey_rules.scores.scoring_types import ScoreRule

OKEY_101 = PRESETS["101"]
# Worth 46 + 46 + 12 = 104 with the K13 indicator (okey K1).
OPENING_104 = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13", "B4 Y4 K4")


def with_rules(state: State101, **options: object) -> State101:
    return dataclasses.replace(state, rules=state.rules.with_overrides(**options))


def test_every_variant_is_off_by_default():
    rules = OKEY_101
    assert not rules.progressive_opening
    assert not rules.riziko
    assert not rules.okey_retrieval
    assert not rules.lay_off_cap
    assert not rules.partnership_waiver


# --- progressive opening -----------------------------------------------------------------


def opened_at(points: int, state: State101) -> State101:
    return dataclasses.replace(state, best_opening=points)


def test_progressive_opening_off_101_opens_after_a_bigger_opening():
    state = opened_at(120, arranged({1: " ".join(OPENING_104)}, phase=Phase.DISCARD))
    assert after(state, open_melds(state, *OPENING_104)).seats[1].opened is Opened.MELDS


def test_progressive_opening_on_a_later_opening_must_beat_the_best_so_far():
    """§10.8: 104 points after an opening of 120 is a failed opening (penalty, nothing laid);
    after an opening of 103 it opens."""
    base = with_rules(arranged({1: " ".join(OPENING_104)}, phase=Phase.DISCARD),
                      progressive_opening=True)
    failed = apply_move_101(opened_at(120, base), open_melds(base, *OPENING_104))
    assert failed.legal
    assert failed.state is not None
    assert failed.state.seats[1].opened is None
    assert failed.state.seats[1].penalties == (Penalty.FAILED_OPENING,)
    opened = after(opened_at(103, base), open_melds(base, *OPENING_104))
    assert opened.seats[1].opened is Opened.MELDS
    assert opened.best_opening == 104


def test_progressive_opening_on_pairs_need_one_pair_more_than_the_most_so_far():
    rack = "R1 R1 Y2 Y2 B3 B3 K4 K4 R6 R6"
    base = with_rules(arranged({1: rack}, phase=Phase.DISCARD), progressive_opening=True)
    five = open_melds(base, "R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6", pairs=True)
    failed = after(dataclasses.replace(base, best_pairs=5), five)
    assert failed.seats[1].opened is None
    assert after(dataclasses.replace(base, best_pairs=4), five).seats[1].opened is Opened.PAIRS


def test_progressive_opening_an_opening_taken_back_no_longer_sets_the_mark():
    """§10.8 with §10.5: an opening taken back is undone, and so is the mark it set."""
    base = with_rules(arranged({1: " ".join(OPENING_104) + " K12"}, phase=Phase.DISCARD),
                      progressive_opening=True)
    opened = after(base, open_melds(base, *OPENING_104))
    assert opened.best_opening == 104
    back = after(opened, Move(MoveKind.TAKE_BACK, 1))
    assert back.seats[1].opened is None
    assert back.best_opening == 0
    assert after(back, open_melds(back, *OPENING_104)).seats[1].opened is Opened.MELDS


# --- riziko -------------------------------------------------------------------------------


def dealt_with_false_joker_turned_up(rules: Ruleset) -> Deal:
    for number in range(400):
        dealt = deal(rules, 4, 0, seed=f"riziko-{number}")
        if dealt.false_joker_turned_up:
            return dealt
    raise AssertionError("no deal of 400 turned up a false joker")


def exhausted(state: State101, penalties: tuple[Penalty, ...] = ()) -> State101:
    seats = list(state.seats)
    seats[2] = dataclasses.replace(seats[2], penalties=penalties)
    return dataclasses.replace(
        state, seats=tuple(seats), phase=Phase.ROUND_OVER,
        outcome=Outcome(RoundEnd.DRAWN, state.move_number),
    )


def test_riziko_off_a_false_joker_turned_up_changes_nothing():
    state = start_round_101(dealt_with_false_joker_turned_up(OKEY_101))
    assert not state.riziko
    scored = score_round_101(exhausted(state, (Penalty.OKEY_DISCARDED,)), None)
    assert scored.deltas == (202, 202, 303, 202)


def test_riziko_on_a_false_joker_turned_up_doubles_every_cost():
    """§10.8 riziko: never opened 404, a penalty 202; without a false joker turned up,
    nothing doubles."""
    rules = OKEY_101.with_overrides(riziko=True)
    state = start_round_101(dealt_with_false_joker_turned_up(rules))
    assert state.riziko
    scored = score_round_101(exhausted(state, (Penalty.OKEY_DISCARDED,)), None)
    assert scored.deltas == (404, 404, 606, 404)
    assert ScoreRule.RIZIKO in [line.rule for line in scored.lines]
    deals = (deal(rules, 4, 0, seed=f"plain-{n}") for n in range(50))
    plain = next(d for d in deals if not d.false_joker_turned_up)
    assert not start_round_101(plain).riziko


# --- okey retrieval -----------------------------------------------------------------------


def retrieval_position(**options: object) -> State101:
    """Seat 1 has opened; meld 0 is R5 okey(R6) R7 (the okey is K1); seat 1 holds R6."""
    state = arranged({1: "R6 K12"}, phase=Phase.DISCARD,
                     table=[(1, "B1 B2 B3"), (2, "R5 K1=R6 R7")])
    return with_rules(state, **options)


def test_okey_retrieval_off_the_tile_an_okey_stands_for_cannot_be_laid_off():
    state = retrieval_position()
    assert refused101(state, lay_off(state, "R6", 1)).reason is IllegalReason.CANNOT_LAY_OFF


def test_okey_retrieval_on_the_tile_takes_the_okeys_place_and_the_okey_comes_to_the_rack():
    state = retrieval_position(okey_retrieval=True)
    result = apply_move_101(state, lay_off(state, "R6", 1))
    assert result.legal
    assert result.state is not None
    kinds = [event.kind for event in result.events]
    assert kinds == [EventKind.LAID_OFF, EventKind.RETRIEVED_OKEY]
    meld = result.state.table[1]
    assert [laid.face for laid in meld.tiles] == [face_of(w) for w in ("R5", "R6", "R7")]
    okey = result.events[1].tile
    assert okey in result.state.seats[1].rack
    assert held(state, 1, "R6")[0] not in result.state.seats[1].rack
    # A retrieval is final.
    back = apply_move_101(result.state, Move(MoveKind.TAKE_BACK, 1))
    assert back.reason is IllegalReason.NOTHING_TO_TAKE_BACK


# --- lay-off cap --------------------------------------------------------------------------


def cap_position(**options: object) -> State101:
    """Seat 1 has opened; meld 1 is R5 R6 R7; seat 1 holds R8 R9 R10 and R4 (and K12)."""
    state = arranged({1: "R8 R9 R10 R4 K12"}, phase=Phase.DISCARD,
                     table=[(1, "B1 B2 B3"), (2, "R5 R6 R7")])
    return with_rules(state, **options)


def lay_three_high(state: State101) -> list[bool]:
    legal = []
    for word in ("R8", "R9", "R10"):
        result = apply_move_101(state, lay_off(state, word, 1))
        legal.append(result.legal)
        if result.legal and result.state is not None:
            state = result.state
    return legal


def test_lay_off_cap_off_any_number_of_tiles_extends_a_meld_end():
    assert lay_three_high(cap_position()) == [True, True, True]


def test_lay_off_cap_on_two_tiles_per_meld_end_per_turn():
    """§10.8: the third tile onto the high end is refused; the low end has its own two."""
    state = cap_position(lay_off_cap=True)
    assert lay_three_high(state) == [True, True, False]
    state = after(state, lay_off(state, "R8", 1))
    state = after(state, lay_off(state, "R9", 1))
    assert refused101(state, lay_off(state, "R10", 1)).reason is IllegalReason.LAY_OFF_CAP_REACHED
    assert after(state, lay_off(state, "R4", 1)).table[1].tiles[0].face == face_of("R4")


# --- partnership waiver -------------------------------------------------------------------


def finished_by_seat_0(**options: object) -> State101:
    """Seat 0 finished; seats 1-3 opened and hold tiles; seat 2 is seat 0's partner."""
    state = arranged({1: "R3 R4", 2: "Y9 Y10", 3: "B2 B2"}, turn=0, phase=Phase.DISCARD,
                     table=[(1, "K5 K6 K7"), (2, "K8 K9 K10"), (3, "Y1 Y2 Y3")])
    seats = list(state.seats)
    seats[0] = dataclasses.replace(seats[0], rack=(), opened=Opened.MELDS)
    state = dataclasses.replace(
        state, seats=tuple(seats), phase=Phase.ROUND_OVER,
        outcome=Outcome(RoundEnd.WON, state.move_number, winner=0),
    )
    return with_rules(state, partnership=True, **options)


def test_partnership_waiver_off_the_finishers_partner_pays_its_tiles():
    scored = score_round_101(finished_by_seat_0(), None)
    assert scored.deltas[2] == 19
    assert scored.deltas[0] == -101


def test_partnership_waiver_on_the_finishers_partner_pays_nothing_for_its_tiles():
    scored = score_round_101(finished_by_seat_0(partnership_waiver=True), None)
    assert scored.deltas == (-101, 7, 0, 4)
    assert ScoreRule.PARTNER_WAIVED in [line.rule for line in scored.lines]
