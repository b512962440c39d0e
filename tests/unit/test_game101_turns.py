"""Playing an Okey 101 round (docs/rules.md §10.1, §10.4-§10.6): the deal and the dealer's
opening discard, drawing or taking the discard, using or returning a taken discard,
taking back, finishing, the one-turn finish, the bank running out and the void round.

Positions use the default indicator K13 (the okey is K1) unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from game101_support import (
    RULES_101,
    after,
    arranged,
    assert_consistent_101,
    discard,
    draw,
    event_kinds,
    lay_meld,
    lay_off,
    one,
    open_melds,
    penalties_in,
    play101,
    refused101,
    start101,
    take,
)
from okey_rules.dealing.deal import deal
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101 import apply_move_101, start_round_101
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import (
    EventKind,
    IllegalReason,
    Move,
    MoveKind,
    Opened,
    Penalty,
    Phase,
    RoundEnd,
)
from okey_rules.ruleset import Ruleset

RUNS_92 = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13")
ALL_RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"  # a run worth 91
YELLOW_1_8 = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"  # a run worth 36


def _opened(
    rack: str,
    table: tuple[tuple[int, str], ...] = (),
    discards: dict[int, str] | None = None,
    phase: Phase = Phase.DISCARD,
) -> State101:
    """Seat 1 opened with melds earlier (its run B1 B2 B3 is meld 0), just after its draw
    unless `phase` says otherwise."""
    return arranged({1: rack}, phase=phase, table=[(1, "B1 B2 B3"), *table], discards=discards)


# --- the deal and the turns --------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_dealer_holds_22_tiles_and_the_others_21(dealer):
    """§10.1: four players; the dealer 22 tiles, the others 21, the bank the other 20;
    the dealer's turn comes first, in the first-discard phase."""
    state = start101(seed=f"deal {dealer}", dealer=dealer)
    assert_consistent_101(state)
    assert [len(seat.rack) for seat in state.seats] == [
        22 if seat == dealer else 21 for seat in range(4)
    ]
    assert len(state.wall) == 20
    assert (state.turn, state.phase, state.table) == (dealer, Phase.FIRST_DISCARD, ())


def test_the_dealer_opens_the_round_by_discarding_without_a_draw():
    """§10.1: the dealer does not draw: its first move is a discard (not an opening
    either); the next seat then draws."""
    state = start101(dealer=2)
    for kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD):
        assert refused101(state, Move(kind, 2)).reason is IllegalReason.MUST_DISCARD_FIRST
    rack = state.seats[2].rack
    opening = Move(MoveKind.OPEN, 2, melds=(((rack[0], None), (rack[1], None)),))
    assert refused101(state, opening).reason is IllegalReason.MUST_DISCARD_FIRST
    first = rack[0]
    result = play101(state, Move(MoveKind.DISCARD, 2, first))
    nxt = result.state
    assert nxt is not None
    assert event_kinds(result)[0] is EventKind.DISCARDED
    assert nxt.seats[2].discards == (first,)
    assert len(nxt.seats[2].rack) == 21
    assert nxt.wall == state.wall
    assert (nxt.turn, nxt.phase) == (3, Phase.DRAW)


def test_a_turn_may_draw_the_next_bank_tile():
    """§10.4: drawing takes the bank's next tile, seen only by the drawer."""
    state = start101()
    state = discard(state, state.seats[0].rack[0])
    nxt = state.wall[0]
    result = play101(state, Move(MoveKind.DRAW_FROM_WALL, 1))
    drawn = result.state
    assert drawn is not None
    assert drawn.seats[1].rack[-1] == nxt
    assert drawn.wall == state.wall[1:]
    assert (drawn.turn, drawn.phase) == (1, Phase.DISCARD)
    (event,) = result.events
    assert (event.kind, event.tile, event.private) == (EventKind.DREW_FROM_WALL, nxt, True)


def test_a_turn_may_take_the_previous_seats_top_discard_instead():
    """§10.4: instead of drawing, the top tile of the previous seat's pile; the bank and
    the other piles stay as they were."""
    state = start101(dealer=3)
    state = discard(state, state.seats[3].rack[0])
    state = discard(draw(state), state.seats[0].rack[0])  # seat 0's drawn tile stays
    top = state.seats[0].discards[-1]
    result = play101(state, Move(MoveKind.TAKE_DISCARD, 1))
    took = result.state
    assert took is not None
    assert took.seats[1].rack[-1] == top
    assert took.seats[0].discards == ()
    assert took.seats[3].discards == state.seats[3].discards
    assert took.wall == state.wall
    assert took.taken == top
    (event,) = result.events
    assert (event.kind, event.tile, event.from_seat, event.private) == (
        EventKind.TOOK_DISCARD, top, 0, False
    )


def test_turns_pass_to_the_next_seat_and_each_ends_with_a_discard():
    """§10.4: seat s + 1 plays after seat s, round the table; every turn ends with one
    discard onto the seat's own pile."""
    state = start101(dealer=1)
    state = discard(state, state.seats[1].rack[-1])
    seen = []
    for _ in range(6):
        seen.append(state.turn)
        state = draw(state)
        seat = state.turn
        state = discard(state, state.seats[seat].rack[-1])
        assert len(state.seats[seat].rack) == 21
    assert seen == [2, 3, 0, 1, 2, 3]


# --- a taken discard ---------------------------------------------------------------------------


def _taker() -> State101:
    """Seat 1 (not opened) about to draw; seat 0's pile shows Y3, which completes B3 Y3 K3
    and with the runs 101 points; R3 makes a set without it."""
    state = arranged({1: " ".join(RUNS_92) + " B3 K3 R3"}, discards={0: "Y3"})
    return take(state)


def test_taken_discard_must_be_used_or_returned():
    """§10.4: a discard taken this turn may not stay in the rack: discarding with it
    there is refused; used in the opening, or returned, the turn ends normally."""
    state = _taker()
    other = one(state, 1, "R3")
    taken = state.taken
    assert taken is not None
    for code in (other, taken):
        result = refused101(state, Move(MoveKind.DISCARD, 1, code))
        assert result.reason is IllegalReason.TAKEN_DISCARD_NOT_USED
    used = after(state, open_melds(state, *RUNS_92, "B3 Y3 K3"))
    assert taken not in used.seats[1].rack
    assert discard(used, other).turn == 2
    returned = after(state, Move(MoveKind.RETURN_DISCARD, 1))
    assert discard(returned, other).turn == 2


def test_a_taken_discard_must_be_part_of_the_opening():
    """§10.4: a seat not yet open that takes a discard opens with it or not at all: an
    opening without it is refused, even one worth 101."""
    state = _taker()
    without = open_melds(state, *RUNS_92, "B3 R3 K3")
    assert refused101(state, without).reason is IllegalReason.TAKEN_DISCARD_NOT_USED
    with_it = after(state, open_melds(state, *RUNS_92, "B3 Y3 K3"))
    assert with_it.seats[1].opened is Opened.MELDS


def test_an_opened_seat_may_use_a_taken_discard_in_a_lay_off():
    """§10.4: once open, laying the taken tile off onto a meld uses it."""
    state = take(_opened("Y7 K12", discards={0: "B4"}, phase=Phase.DRAW))
    taken = state.taken
    state = after(state, lay_off(state, "B4", 0))
    assert state.table[0].tiles[-1].code == taken
    assert discard(state, one(state, 1, "Y7")).turn == 2


def test_returning_the_discard_puts_it_back_and_draws_a_bank_tile_free():
    """§10.4: the taken tile goes back on top of the previous seat's pile and the bank's
    next tile is drawn instead, without penalty."""
    state = _taker()
    taken = state.taken
    result = play101(state, Move(MoveKind.RETURN_DISCARD, 1))
    returned = result.state
    assert returned is not None
    assert event_kinds(result) == [EventKind.RETURNED_DISCARD, EventKind.DREW_FROM_WALL]
    assert penalties_in(result) == []
    assert returned.seats[0].discards[-1] == taken
    assert taken not in returned.seats[1].rack
    assert returned.seats[1].rack[-1] == state.wall[0]
    assert returned.wall == state.wall[1:]
    assert returned.taken is None
    assert returned.seats[1].penalties == ()


def test_a_discard_is_returned_only_before_laying_anything():
    """§10.4: once the seat has laid a tile this turn the taken discard stays."""
    state = take(_opened("Y7 B4 K12", discards={0: "Y8"}, phase=Phase.DRAW))
    state = after(state, lay_off(state, "B4", 0))
    result = refused101(state, Move(MoveKind.RETURN_DISCARD, 1))
    assert result.reason is IllegalReason.NO_DISCARD_TO_RETURN


# --- taking back -------------------------------------------------------------------------------


def test_taking_back_a_lay_off_is_free():
    """§10.5: one tile taken back (a lay-off) costs nothing; the meld is as before."""
    state = _opened("B4 K12")
    laid = after(state, lay_off(state, "B4", 0))
    result = play101(laid, Move(MoveKind.TAKE_BACK, 1))
    back = result.state
    assert back is not None
    assert event_kinds(result) == [EventKind.TOOK_BACK]
    assert result.events[0].tiles == (one(state, 1, "B4"),)
    assert penalties_in(result) == []
    assert back.table == state.table
    assert sorted(back.seats[1].rack) == sorted(state.seats[1].rack)
    assert back.laid == ()


def test_taking_back_a_meld_costs_101():
    """§10.5: taking back several tiles (a meld) costs 101; the meld leaves the table."""
    state = _opened("Y7 Y8 Y9 K12")
    laid = after(state, lay_meld(state, "Y7 Y8 Y9"))
    result = play101(laid, Move(MoveKind.TAKE_BACK, 1))
    back = result.state
    assert back is not None
    assert penalties_in(result) == [Penalty.TOOK_BACK_SEVERAL]
    assert back.table == state.table
    assert sorted(back.seats[1].rack) == sorted(state.seats[1].rack)
    assert back.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)


def test_taking_back_the_opening_undoes_it():
    """§10.5: taking back an opening costs 101 and the seat is not open any more."""
    state = arranged({1: " ".join(RUNS_92) + " B3 Y3 K3"}, phase=Phase.DISCARD)
    opened = after(state, open_melds(state, *RUNS_92, "B3 Y3 K3"))
    result = play101(opened, Move(MoveKind.TAKE_BACK, 1))
    back = result.state
    assert back is not None
    assert penalties_in(result) == [Penalty.TOOK_BACK_SEVERAL]
    assert back.seats[1].opened is None
    assert back.table == ()
    assert sorted(back.seats[1].rack) == sorted(state.seats[1].rack)
    assert refused101(back, lay_off(back, "R10", 0)).reason is IllegalReason.NOT_OPENED


def test_take_back_takes_back_only_the_last_laying_move():
    """§10.5: laying moves come back newest first, one per take-back."""
    state = _opened("B4 Y7 Y8 Y9 K12", table=((2, "R5 R6 R7"),))
    state = after(state, lay_off(state, "B4", 0))
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    assert len(state.table) == 3
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    assert len(state.table) == 2
    assert len(state.table[0].tiles) == 4  # the lay-off is still there
    result = play101(state, Move(MoveKind.TAKE_BACK, 1))
    assert penalties_in(result) == []
    assert result.state is not None
    assert len(result.state.table[0].tiles) == 3
    assert result.state.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)


def _three_lay_offs() -> tuple[State101, State101]:
    """Seat 1 (opened earlier) lays off R5 and R6 onto R2 R3 R4 and Y4 onto Y5 Y6 Y7:
    the position before and after the three lay-offs."""
    state = _opened("R5 R6 Y4 K12", table=((2, "R2 R3 R4"), (3, "Y5 Y6 Y7")))
    laid = after(state, lay_off(state, "R5", 1))
    laid = after(laid, lay_off(laid, "R6", 1))
    laid = after(laid, lay_off(laid, "Y4", 2))
    return state, laid


def test_only_the_last_tile_placed_comes_back_free():
    """§10.5 several tiles laid and taken back: three single-tile lay-offs taken back one
    by one; the last tile placed (Y4) comes back free, the next take-back (R6, placed
    earlier) records the 101 penalty, once for the turn: R5 after it adds nothing."""
    state, laid = _three_lay_offs()
    first = play101(laid, Move(MoveKind.TAKE_BACK, 1))
    assert first.events[0].tiles == (one(state, 1, "Y4"),)
    assert penalties_in(first) == []
    assert first.state is not None
    second = play101(first.state, Move(MoveKind.TAKE_BACK, 1))
    assert second.events[0].tiles == (one(state, 1, "R6"),)
    assert event_kinds(second) == [EventKind.TOOK_BACK, EventKind.PENALTY]
    assert penalties_in(second) == [Penalty.TOOK_BACK_SEVERAL]
    assert second.state is not None
    third = play101(second.state, Move(MoveKind.TAKE_BACK, 1))
    assert penalties_in(third) == []
    back = third.state
    assert back is not None
    assert back.table == state.table
    assert sorted(back.seats[1].rack) == sorted(state.seats[1].rack)
    assert back.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)


def test_a_tile_laid_off_again_after_a_free_take_back_costs_101():
    """§10.5: one tile a turn comes back free: lay off B4, take it back (free), lay it off
    again and take it back again: two tiles have come back this turn, the penalty."""
    state = _opened("B4 K12")
    state = after(state, lay_off(state, "B4", 0))
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    assert state.seats[1].penalties == ()
    state = after(state, lay_off(state, "B4", 0))
    result = play101(state, Move(MoveKind.TAKE_BACK, 1))
    assert penalties_in(result) == [Penalty.TOOK_BACK_SEVERAL]


def test_the_take_back_penalty_is_once_per_turn():
    """§10.5: the penalty is for taking back several tiles in a turn, recorded once: a meld
    taken back costs 101, a second meld taken back in the same turn nothing more."""
    state = _opened("Y7 Y8 Y9 R11 Y11 B11 K12")
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    assert state.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)
    state = after(state, lay_meld(state, "R11 Y11 B11"))
    result = play101(state, Move(MoveKind.TAKE_BACK, 1))
    assert penalties_in(result) == []
    assert result.state is not None
    assert result.state.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)


def test_the_free_take_back_comes_again_next_turn():
    """§10.5: what came back in one turn does not count in the next: the seat that paid
    for taking back two lay-offs takes back a lay-off free on its next turn."""
    state = _opened("B4 B5 Y7 Y8 K12")
    state = after(state, lay_off(state, "B4", 0))
    state = after(state, lay_off(state, "B5", 0))
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    assert state.seats[1].penalties == (Penalty.TOOK_BACK_SEVERAL,)
    state = discard(state, one(state, 1, "Y7"))
    for _ in range(3):
        state = discard(draw(state), state.wall[0])
    state = draw(state)
    assert state.turn == 1
    state = after(state, lay_off(state, "B4", 0))
    result = play101(state, Move(MoveKind.TAKE_BACK, 1))
    assert penalties_in(result) == []


def test_take_back_never_reaches_an_earlier_turn():
    """§10.5: once the seat has discarded its laying is final."""
    state = _opened("B4 Y7 K12")
    state = after(state, lay_off(state, "B4", 0))
    state = discard(state, one(state, 1, "Y7"))
    for _ in range(3):
        state = discard(draw(state), state.wall[0])
    assert state.turn == 1
    state = draw(state)
    result = refused101(state, Move(MoveKind.TAKE_BACK, 1))
    assert result.reason is IllegalReason.NOTHING_TO_TAKE_BACK


# --- finishing and the end of the round --------------------------------------------------------


def test_a_laying_move_may_not_empty_the_rack():
    """§10.6: a turn always ends with a discard, so laying keeps at least one tile."""
    state = _opened("Y7 Y8 Y9 B4")
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    assert refused101(state, lay_off(state, "B4", 0)).reason is IllegalReason.MUST_KEEP_A_TILE


def test_a_discard_that_empties_the_rack_finishes_the_round():
    """§10.6: the seat that lays all but one tile and discards the last finishes."""
    state = _opened("Y7 Y8 Y9 R2")
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    last = one(state, 1, "R2")
    result = play101(state, Move(MoveKind.DISCARD, 1, last))
    over = result.state
    assert over is not None
    assert event_kinds(result) == [EventKind.DISCARDED, EventKind.ROUND_WON]
    assert over.phase is Phase.ROUND_OVER
    assert over.outcome is not None
    assert (over.outcome.end, over.outcome.winner) == (RoundEnd.WON, 1)
    assert not over.outcome.okey_discard
    assert not over.outcome.one_turn  # it opened in an earlier turn
    assert over.seats[1].rack == ()
    assert over.seats[1].discards[-1] == last
    assert over.outcome.discard == last  # the outcome names the finishing discard


def test_finishing_with_an_okey_is_an_okey_discard():
    """§10.6: the outcome says when the finishing discard is an okey (no penalty then)."""
    state = _opened("Y7 Y8 Y9 K1")
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    result = play101(state, Move(MoveKind.DISCARD, 1, one(state, 1, "K1")))
    assert result.state is not None
    assert result.state.outcome is not None
    assert result.state.outcome.okey_discard
    assert penalties_in(result) == []


def _one_turn_position(table: list[tuple[int, str]]) -> State101:
    """Seat 1 about to draw B9, holding 21 tiles that open for 127."""
    state = arranged({1: f"{ALL_RED} {YELLOW_1_8}"}, wall="B9", table=table)
    state = draw(state)
    return after(state, open_melds(state, ALL_RED, YELLOW_1_8))


def test_a_one_turn_finish_opens_and_finishes_in_one_turn_while_nobody_else_is_open():
    """§10.6: opening and finishing in the same turn, no other seat open, is a one-turn
    finish."""
    state = _one_turn_position([])
    assert len(state.seats[1].rack) == 1
    over = discard(state, state.seats[1].rack[0])
    assert over.outcome is not None
    assert (over.outcome.end, over.outcome.winner, over.outcome.one_turn) == (
        RoundEnd.WON, 1, True
    )


def test_no_one_turn_finish_once_another_seat_has_opened():
    """§10.6: with another seat open, opening and finishing in one turn is an ordinary
    finish."""
    state = _one_turn_position([(2, "K5 K6 K7")])
    over = discard(state, state.seats[1].rack[0])
    assert over.outcome is not None
    assert over.outcome.end is RoundEnd.WON
    assert not over.outcome.one_turn


def test_no_one_turn_finish_for_a_seat_that_opened_in_an_earlier_turn():
    """§10.6: opening in one turn and finishing in a later one is an ordinary finish,
    even with nobody else open."""
    state = arranged({1: f"{ALL_RED} Y1 Y2 Y3 Y4 Y5 B9 B10 K7"}, wall="K2 R9 Y9 B4 B11")
    state = draw(state)
    state = after(state, open_melds(state, ALL_RED, "Y1 Y2 Y3 Y4 Y5"))
    state = discard(state, one(state, 1, "K7"))
    for _ in range(3):
        state = discard(draw(state), state.wall[0])
    state = draw(state)
    state = after(state, lay_meld(state, "B9 B10 B11"))
    over = discard(state, one(state, 1, "K2"))
    assert over.outcome is not None
    assert (over.outcome.end, over.outcome.winner) == (RoundEnd.WON, 1)
    assert all(over.seats[seat].opened is None for seat in (0, 2, 3))
    assert not over.outcome.one_turn


def test_the_bank_running_out_ends_the_round_exhausted():
    """§10.6: after the bank's last tile is drawn, the next discard that does not finish
    ends the round without a finisher; until then turns go on."""
    state = start101(seed="exhaust", dealer=0)
    state = discard(state, state.seats[0].rack[0])
    draws = 0
    while True:
        assert state.phase is Phase.DRAW
        assert state.wall, "a seat about to draw always finds a bank tile"
        state = draw(state)
        draws += 1
        result = play101(state, Move(MoveKind.DISCARD, state.turn,
                                        state.seats[state.turn].rack[-1]))
        assert result.state is not None
        state = result.state
        if state.phase is Phase.ROUND_OVER:
            break
    assert draws == 20
    assert EventKind.ROUND_DRAWN in event_kinds(result)
    assert state.outcome is not None
    assert state.outcome.end is RoundEnd.DRAWN
    assert state.wall == ()


def _pairs_table(melds_for_seat_3: bool) -> list[tuple[int, str]]:
    table = [(0, p) for p in ("R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5")]
    table += [(2, p) for p in ("Y1 Y1", "Y2 Y2", "Y3 Y3", "Y4 Y4", "Y5 Y5")]
    if melds_for_seat_3:
        return [*table, (3, "B1 B2 B3")]
    return table + [(3, p) for p in ("B1 B1", "B2 B2", "B3 B3", "B4 B4", "B5 B5")]


PAIRS_OF_7 = ("R7 R7", "Y7 Y7", "B7 B7", "K7 K7", "R9 R9")


def test_all_four_opening_with_pairs_voids_the_round():
    """§10.2: when the fourth seat opens with pairs too, the round is void."""
    state = arranged({1: " ".join(PAIRS_OF_7)}, phase=Phase.DISCARD, table=_pairs_table(False))
    result = play101(state, open_melds(state, *PAIRS_OF_7, pairs=True))
    over = result.state
    assert over is not None
    assert event_kinds(result) == [EventKind.OPENED, EventKind.ROUND_VOID]
    assert over.phase is Phase.ROUND_OVER
    assert over.outcome is not None
    assert over.outcome.end is RoundEnd.VOID


def test_three_pairs_openers_and_a_melds_opener_play_on():
    """§10.2: the round is void only when all four opened with pairs."""
    state = arranged({1: " ".join(PAIRS_OF_7)}, phase=Phase.DISCARD, table=_pairs_table(True))
    after_open = after(state, open_melds(state, *PAIRS_OF_7, pairs=True))
    assert after_open.phase is Phase.DISCARD
    assert after_open.outcome is None


def test_a_round_needs_an_okey_101_deal():
    """§10.1: an Okey 101 round starts only from an Okey 101 deal."""
    with pytest.raises(InvalidInputError) as raised:
        start_round_101(deal(Ruleset(), 4, 0, seed="classic"))
    assert raised.value.field == "ruleset.game"
    assert start_round_101(deal(RULES_101, 4, 0, seed="101")).rules == RULES_101


@pytest.mark.parametrize(
    ("move", "field"),
    [
        (Move(MoveKind.DRAW_FROM_WALL, 4), "move.seat"),
        (Move(MoveKind.DRAW_FROM_WALL, -1), "move.seat"),
        (Move(MoveKind.DISCARD, 0), "move.tile"),
        (Move(MoveKind.LAY_OFF, 0, meld=0), "move.tile"),
        (Move(MoveKind.OPEN, 0), "move.melds"),
        (Move(MoveKind.LAY_MELD, 0), "move.melds"),
    ],
)
def test_malformed_moves_are_invalid_input_naming_the_field(move, field):
    """A seat that does not exist, or a move missing its tile or melds, is not a move any
    rule judges: it is invalid input, not an illegal move."""
    with pytest.raises(InvalidInputError) as raised:
        apply_move_101(start101(), move)
    assert raised.value.field == field
