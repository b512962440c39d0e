"""The Okey 101 penalties (docs/rules.md §10.5): one test per `Penalty`, named
test_<penalty>_costs_101_points, a check that none is missing, and when each does not apply.

A penalty is an event of the move (101 points) and is kept in the seat's penalties; the
move itself stays legal. Positions use the default indicator K13 (the okey is K1; a
false joker plays as K1) unless a test says otherwise.
"""

from __future__ import annotations

from game101_support import (
    after,
    arranged,
    discard,
    lay_meld,
    one,
    open_melds,
    penalties_in,
    play101,
    start101,
    swap101,
)
from okey_rules.play.game101_types import Result101, State101
from okey_rules.play.round_types import EventKind, Move, MoveKind, Penalty, Phase

RUNS_92 = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13")


def _discarding(state: State101, word: str) -> Result101:
    return play101(state, Move(MoveKind.DISCARD, state.turn, one(state, state.turn, word)))


def _charged(result: Result101, penalty: Penalty, seat: int) -> None:
    """`penalty` is the move's only penalty, an event of 101 points, and kept on the seat."""
    assert penalties_in(result) == [penalty]
    (event,) = [e for e in result.events if e.kind is EventKind.PENALTY]
    assert (event.seat, event.penalty, event.points) == (seat, penalty, 101)
    assert result.state is not None
    assert result.state.seats[seat].penalties[-1] is penalty


def test_okey_discarded_costs_101_points():
    """§10.5: discarding an okey (not to finish) costs 101; the turn passes as usual."""
    state = arranged({1: "K1"}, phase=Phase.DISCARD)
    result = _discarding(state, "K1")
    _charged(result, Penalty.OKEY_DISCARDED, 1)
    assert result.state is not None
    assert (result.state.turn, result.state.phase) == (2, Phase.DRAW)


def test_the_dealers_opening_discard_of_an_okey_costs_101_points():
    """§10.1, §10.5: the dealer's first discard is a discard like any other."""
    state = start101(seed="okey first")
    okeys = [c for c in (state.okey.code, state.okey.code + 53) if c != state.indicator]
    state = swap101(state, okeys[0], state.seats[0].rack[0])
    assert state.seats[0].rack[0] == okeys[0]
    result = play101(state, Move(MoveKind.DISCARD, 0, okeys[0]))
    _charged(result, Penalty.OKEY_DISCARDED, 0)


def test_failed_opening_costs_101_points():
    """§10.5: an opening worth less than 101 costs 101 and lays nothing."""
    state = arranged({1: " ".join(RUNS_92) + " R2 Y2 B2 K2"}, phase=Phase.DISCARD)
    result = play101(state, open_melds(state, *RUNS_92, "R2 Y2 B2 K2"))
    _charged(result, Penalty.FAILED_OPENING, 1)


def test_discard_could_be_laid_off_costs_101_points():
    """§10.5: discarding a natural tile that fits a set or run on the table costs 101,
    even for a seat that has not opened (and so could not lay it off itself)."""
    state = arranged({1: "R8 K5"}, phase=Phase.DISCARD,
                     table=[(2, "R5 R6 R7"), (3, "R9 Y9 B9")])
    assert state.seats[1].opened is None
    _charged(_discarding(state, "R8"), Penalty.DISCARD_COULD_BE_LAID_OFF, 1)
    fits_a_set = arranged({1: "K9"}, phase=Phase.DISCARD, table=[(3, "R9 Y9 B9")])
    _charged(_discarding(fits_a_set, "K9"), Penalty.DISCARD_COULD_BE_LAID_OFF, 1)


def test_took_back_several_costs_101_points():
    """§10.5: taking back a meld (several tiles) costs 101."""
    state = arranged({1: "Y7 Y8 Y9 K12"}, phase=Phase.DISCARD, table=[(1, "B1 B2 B3")])
    laid = after(state, lay_meld(state, "Y7 Y8 Y9"))
    result = play101(laid, Move(MoveKind.TAKE_BACK, 1))
    _charged(result, Penalty.TOOK_BACK_SEVERAL, 1)


def test_okey_left_in_hand_costs_101_points():
    """§10.5, §10.7: when the round ends (here the bank runs out), each okey still in the
    rack of a seat that has opened costs 101, as an event; a seat that never opened holding
    an okey pays no such penalty (it pays 202 when scored)."""
    state = arranged({1: "K1 K12 R3", 3: "K1"}, phase=Phase.DISCARD,
                     table=[(1, "B1 B2 B3")], wall_size=0)
    assert state.seats[1].opened is not None
    assert state.seats[3].opened is None
    result = _discarding(state, "R3")
    assert result.state is not None
    assert result.state.phase is Phase.ROUND_OVER
    _charged(result, Penalty.OKEY_LEFT_IN_HAND, 1)
    assert result.state.seats[3].penalties == ()


def test_every_penalty_has_its_own_test():
    """Each Penalty is pinned by a test named test_<penalty>_costs_101_points."""
    missing = [
        penalty.name for penalty in Penalty
        if f"test_{penalty.name.lower()}_costs_101_points" not in globals()
    ]
    assert missing == []


# --- when no penalty applies -------------------------------------------------------------------


def test_a_discard_that_fits_no_set_or_run_costs_nothing():
    """§10.5: a tile that extends no table set or run (a pair takes none) is free."""
    state = arranged({1: "R10 K9"}, phase=Phase.DISCARD,
                     table=[(2, "R5 R6 R7"), (3, "K9 K1=K9")])
    assert penalties_in(_discarding(state, "R10")) == []
    assert penalties_in(_discarding(state, "K9")) == []


def test_the_face_a_table_okey_stands_for_is_free_to_discard():
    """§10.3, §10.5: R5 K1(as R6) R7 cannot take the real R6, so throwing it costs nothing."""
    state = arranged({1: "R6 K9"}, phase=Phase.DISCARD, table=[(2, "R5 K1=R6 R7")])
    assert penalties_in(_discarding(state, "R6")) == []


def test_the_finishing_discard_is_never_penalised():
    """§10.5-§10.6: the last tile may be an okey or fit the table: finishing costs nothing."""
    for last in ("K1", "B4"):
        state = arranged({1: f"Y7 Y8 Y9 {last}"}, phase=Phase.DISCARD,
                         table=[(1, "B1 B2 B3")])
        state = after(state, lay_meld(state, "Y7 Y8 Y9"))
        result = _discarding(state, last)
        assert penalties_in(result) == []
        assert result.state is not None
        assert result.state.outcome is not None
        assert result.state.seats[1].penalties == ()


def test_an_okey_that_could_be_laid_off_costs_one_penalty():
    """§10.5: an okey discarded is an okey discard, not also a tile that could be laid off."""
    state = arranged({1: "K1"}, phase=Phase.DISCARD, table=[(2, "R5 R6 R7")])
    assert penalties_in(_discarding(state, "K1")) == [Penalty.OKEY_DISCARDED]


def test_a_false_joker_is_no_okey_but_fits_as_the_okey_face():
    """§10.5: a false joker is not an okey, so throwing it is no okey discard; it plays as
    K1, so it fits K2 K3 K4 on the table and then could have been laid off."""
    state = arranged({1: "F"}, phase=Phase.DISCARD)
    assert penalties_in(_discarding(state, "F")) == []
    state = arranged({1: "F"}, phase=Phase.DISCARD, table=[(2, "K2 K3 K4")])
    assert penalties_in(_discarding(state, "F")) == [Penalty.DISCARD_COULD_BE_LAID_OFF]


def test_penalties_add_up_on_the_seat():
    """§10.5: each penalty is charged again every time; the seat keeps them all in order."""
    state = arranged({1: " ".join(RUNS_92) + " R2 Y2 B2 K2 K1"}, phase=Phase.DISCARD)
    for _ in range(2):
        state = after(state, open_melds(state, *RUNS_92, "R2 Y2 B2 K2"))
    state = discard(state, one(state, 1, "K1"))
    assert state.seats[1].penalties == (
        Penalty.FAILED_OPENING, Penalty.FAILED_OPENING, Penalty.OKEY_DISCARDED
    )
