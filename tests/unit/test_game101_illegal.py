"""One test per reason the Okey 101 engine refuses a move (`IllegalReason`), named
test_<reason>_is_refused, and a check that none is missing (docs/rules.md §10).

A refused move changes nothing: no state, no events, a reason and a message.
Positions use the default indicator K13 (the okey is K1).
"""

from __future__ import annotations

import dataclasses

from game101_support import (
    after,
    arranged,
    discard,
    draw,
    groups,
    lay_meld,
    lay_off,
    one,
    open_melds,
    refused101,
    start101,
    take,
)
from okey_rules.play.game101_types import OKEY_101_REASONS, State101
from okey_rules.play.round_types import IllegalReason, Move, MoveKind, Phase

RUNS_92 = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13")
OPENED = [(1, "B1 B2 B3")]  # seat 1 opened with this run, meld 0


def _refused(state: State101, move: Move) -> IllegalReason:
    reason = refused101(state, move).reason
    assert reason is not None
    return reason


def _kinds_without_arguments(seat: int) -> list[Move]:
    return [Move(kind, seat) for kind in (
        MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD, MoveKind.RETURN_DISCARD,
        MoveKind.TAKE_BACK,
    )]


def test_round_over_is_refused():
    """§10.6: once the round is over no seat moves, the finisher included."""
    state = arranged({1: "Y7 Y8 Y9 R2"}, phase=Phase.DISCARD, table=OPENED)
    state = after(state, lay_meld(state, "Y7 Y8 Y9"))
    over = discard(state, one(state, 1, "R2"))
    assert over.phase is Phase.ROUND_OVER
    for seat in range(4):
        for move in (*_kinds_without_arguments(seat),
                     Move(MoveKind.DISCARD, seat, over.wall[0])):
            assert _refused(over, move) is IllegalReason.ROUND_OVER


def test_not_your_turn_is_refused():
    """§10.4: only the seat on turn moves."""
    state = start101(dealer=0)
    assert _refused(state, Move(MoveKind.DISCARD, 1, state.seats[1].rack[0])) is (
        IllegalReason.NOT_YOUR_TURN
    )
    state = draw(discard(state, state.seats[0].rack[0]))
    for move in (*_kinds_without_arguments(2),
                 Move(MoveKind.DISCARD, 0, state.seats[0].rack[0]),
                 Move(MoveKind.LAY_OFF, 3, state.seats[3].rack[0])):
        assert _refused(state, move) is IllegalReason.NOT_YOUR_TURN


def test_must_draw_first_is_refused():
    """§10.4: after the dealer's first discard, every turn starts with a draw or a take."""
    state = arranged({1: " ".join(RUNS_92) + " B3 Y3 K3"}, table=[(2, "R5 R6 R7")],
                     discards={0: "Y6"})
    rack = state.seats[1].rack
    for move in (
        Move(MoveKind.DISCARD, 1, rack[0]),
        open_melds(state, *RUNS_92, "B3 Y3 K3"),
        Move(MoveKind.LAY_MELD, 1, melds=groups(state, 1, "B3 Y3 K3")),
        Move(MoveKind.LAY_OFF, 1, rack[0]),
        Move(MoveKind.TAKE_BACK, 1),
        Move(MoveKind.RETURN_DISCARD, 1),
    ):
        assert _refused(state, move) is IllegalReason.MUST_DRAW_FIRST


def test_must_discard_first_is_refused():
    """§10.1, §10.4: one draw per turn, and none for the dealer's opening discard, which
    comes before anything else."""
    state = start101(dealer=0)
    rack = state.seats[0].rack
    for move in (
        *_kinds_without_arguments(0),
        Move(MoveKind.OPEN, 0, melds=(((rack[0], None),),)),
        Move(MoveKind.LAY_OFF, 0, rack[0]),
    ):
        assert _refused(state, move) is IllegalReason.MUST_DISCARD_FIRST
    drawn = draw(discard(state, rack[0]))
    for kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD):
        assert _refused(drawn, Move(kind, 1)) is IllegalReason.MUST_DISCARD_FIRST


def test_tile_not_in_rack_is_refused():
    """§10.3-§10.4: a seat discards and lays only tiles it holds; the other copy of a
    held face is another tile."""
    state = arranged({1: "R5 Y7 Y8 Y9 K12", 2: "R6"}, phase=Phase.DISCARD, table=OPENED)
    elsewhere = one(state, 2, "R6")
    twin = (one(state, 1, "R5") + 53) % 106
    for code in (elsewhere, twin):
        assert _refused(state, Move(MoveKind.DISCARD, 1, code)) is (
            IllegalReason.TILE_NOT_IN_RACK
        )
        assert _refused(state, Move(MoveKind.LAY_OFF, 1, code)) is (
            IllegalReason.TILE_NOT_IN_RACK
        )
    borrowed = ((*groups(state, 1, "Y7 Y8 Y9")[0], (elsewhere, None)),)
    assert _refused(state, Move(MoveKind.LAY_MELD, 1, melds=borrowed)) is (
        IllegalReason.TILE_NOT_IN_RACK
    )
    twice = ((*groups(state, 1, "Y7 Y8")[0], groups(state, 1, "Y8")[0][0]),)
    assert _refused(state, Move(MoveKind.LAY_MELD, 1, melds=twice)) is (
        IllegalReason.TILE_NOT_IN_RACK
    )


def test_wall_empty_is_refused():
    """§10.4: an empty bank is not drawn from, nor can a taken discard be swapped for a
    bank tile. (In play the round ends when a discard leaves the bank empty; a state
    given with an empty bank meets this.)"""
    state = arranged(discards={0: "Y6"}, wall_size=0)
    assert _refused(state, Move(MoveKind.DRAW_FROM_WALL, 1)) is IllegalReason.WALL_EMPTY
    took = take(state)
    assert _refused(took, Move(MoveKind.RETURN_DISCARD, 1)) is IllegalReason.WALL_EMPTY


def test_not_opened_is_refused():
    """§10.3: new melds and lay-offs wait for the seat's opening."""
    state = arranged({1: "Y7 Y8 Y9 R8"}, phase=Phase.DISCARD, table=[(2, "R5 R6 R7")])
    assert _refused(state, lay_meld(state, "Y7 Y8 Y9")) is IllegalReason.NOT_OPENED
    assert _refused(state, lay_off(state, "R8", 0)) is IllegalReason.NOT_OPENED


def test_already_opened_is_refused():
    """§10.2: a seat opens once (with melds or pairs)."""
    state = arranged({1: " ".join(RUNS_92) + " Y3 K3 R3 R3 Y5 Y5 B5 B5 K5 K5 B8 B8 K12"},
                     phase=Phase.DISCARD, table=OPENED)
    assert _refused(state, open_melds(state, *RUNS_92, "R3 Y3 K3")) is (
        IllegalReason.ALREADY_OPENED
    )
    pairs = open_melds(state, "R3 R3", "Y5 Y5", "B5 B5", "K5 K5", "B8 B8", pairs=True)
    assert _refused(state, pairs) is IllegalReason.ALREADY_OPENED


def test_invalid_meld_is_refused():
    """§10.2-§10.3: every group laid must be a set or a run (a pair, in a pairs opening)."""
    state = arranged({1: " ".join(RUNS_92) + " B3 Y3 K4 R7 R7"}, phase=Phase.DISCARD)
    assert _refused(state, open_melds(state, *RUNS_92, "B3 Y3 K4")) is IllegalReason.INVALID_MELD
    assert _refused(state, open_melds(state, "R7 R7", "B3 Y3", pairs=True)) is (
        IllegalReason.INVALID_MELD
    )
    opened = arranged({1: "Y7 Y8 Y10 K12"}, phase=Phase.DISCARD, table=OPENED)
    assert _refused(opened, lay_meld(opened, "Y7 Y8 Y10")) is IllegalReason.INVALID_MELD


def test_taken_discard_not_used_is_refused():
    """§10.4: a discard taken this turn is laid this turn (in the opening by a seat not
    yet open) or returned; it never stays in the rack past the discard."""
    state = take(arranged({1: " ".join(RUNS_92) + " B3 K3 R3"}, discards={0: "Y3"}))
    assert _refused(state, Move(MoveKind.DISCARD, 1, one(state, 1, "R3"))) is (
        IllegalReason.TAKEN_DISCARD_NOT_USED
    )
    assert _refused(state, open_melds(state, *RUNS_92, "B3 K3 R3")) is (
        IllegalReason.TAKEN_DISCARD_NOT_USED
    )


def test_no_discard_to_return_is_refused():
    """§10.4: only a discard taken this turn goes back, and only before laying anything."""
    state = arranged({1: "B4 K12"}, table=OPENED, discards={0: "Y6"})
    drawn = draw(state)
    assert _refused(drawn, Move(MoveKind.RETURN_DISCARD, 1)) is (
        IllegalReason.NO_DISCARD_TO_RETURN
    )
    took = take(state)
    laid = after(took, lay_off(took, "B4", 0))
    assert _refused(laid, Move(MoveKind.RETURN_DISCARD, 1)) is (
        IllegalReason.NO_DISCARD_TO_RETURN
    )
    returned = after(took, Move(MoveKind.RETURN_DISCARD, 1))
    assert _refused(returned, Move(MoveKind.RETURN_DISCARD, 1)) is (
        IllegalReason.NO_DISCARD_TO_RETURN
    )


def test_nothing_to_take_back_is_refused():
    """§10.5: only this turn's laying moves come back; a failed opening laid nothing."""
    state = arranged({1: " ".join(RUNS_92) + " R2 Y2 B2 K2"}, phase=Phase.DISCARD)
    assert _refused(state, Move(MoveKind.TAKE_BACK, 1)) is IllegalReason.NOTHING_TO_TAKE_BACK
    failed = after(state, open_melds(state, *RUNS_92, "R2 Y2 B2 K2"))
    assert failed.seats[1].opened is None
    assert _refused(failed, Move(MoveKind.TAKE_BACK, 1)) is (
        IllegalReason.NOTHING_TO_TAKE_BACK
    )


def test_no_such_meld_is_refused():
    """§10.3: a lay-off names a meld on the table."""
    state = arranged({1: "B4 K12"}, phase=Phase.DISCARD, table=OPENED)
    for meld in (1, -1, 99):
        move = Move(MoveKind.LAY_OFF, 1, one(state, 1, "B4"), meld=meld)
        assert _refused(state, move) is IllegalReason.NO_SUCH_MELD


def test_cannot_lay_off_is_refused():
    """§10.3: a lay-off must leave the meld a set or a run; a pair takes none, and a
    natural tile stands only for itself."""
    state = arranged({1: "B5 Y4 K5 K12"}, phase=Phase.DISCARD,
                     table=[*OPENED, (2, "R9 R9")])
    assert _refused(state, lay_off(state, "B5", 0)) is IllegalReason.CANNOT_LAY_OFF
    assert _refused(state, lay_off(state, "Y4", 0)) is IllegalReason.CANNOT_LAY_OFF
    assert _refused(state, lay_off(state, "K5", 1)) is IllegalReason.CANNOT_LAY_OFF
    assert _refused(state, lay_off(state, "K5", 0, face="B4")) is IllegalReason.CANNOT_LAY_OFF


def test_pairs_opener_lays_no_melds_is_refused():
    """§10.3: a seat that opened with pairs lays no sets or runs."""
    state = arranged({1: "R7 Y7 B7 K9 K10 K11 K12"}, phase=Phase.DISCARD,
                     table=[(1, p) for p in ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6")])
    assert _refused(state, lay_meld(state, "R7 Y7 B7")) is IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS
    assert _refused(state, lay_meld(state, "K9 K10 K11")) is (
        IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS
    )


def test_must_keep_a_tile_is_refused():
    """§10.6: a laying move keeps a tile for the turn's discard: neither an opening, nor
    a new meld, nor a lay-off may empty the rack."""
    every = ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9")
    state = arranged({1: " ".join(every)}, phase=Phase.DISCARD)
    assert len(state.seats[1].rack) == 22
    assert _refused(state, open_melds(state, *every)) is IllegalReason.MUST_KEEP_A_TILE
    opened = arranged({1: "Y7 Y8 Y9"}, phase=Phase.DISCARD, table=OPENED)
    assert _refused(opened, lay_meld(opened, "Y7 Y8 Y9")) is IllegalReason.MUST_KEEP_A_TILE
    last = arranged({1: "B4"}, phase=Phase.DISCARD, table=OPENED)
    assert _refused(last, lay_off(last, "B4", 0)) is IllegalReason.MUST_KEEP_A_TILE


def test_discard_pile_empty_is_refused():
    """§10.4: a seat takes the previous seat's top discard; with that pile empty it
    draws from the bank. (In play the pile is never empty then; a state given so is.)"""
    state = arranged()
    assert not state.seats[0].discards
    refused = _refused(state, Move(MoveKind.TAKE_DISCARD, 1))
    assert refused is IllegalReason.DISCARD_PILE_EMPTY


def test_lay_off_cap_reached_is_refused():
    """§10.8 option lay_off_cap: a third tile onto one end of a meld in one turn."""
    state = arranged({1: "R8 R9 R10 K12"}, phase=Phase.DISCARD,
                     table=[(1, "B1 B2 B3"), (2, "R5 R6 R7")])
    state = dataclasses.replace(state, rules=state.rules.with_overrides(lay_off_cap=True))
    state = after(state, lay_off(state, "R8", 1))
    state = after(state, lay_off(state, "R9", 1))
    assert _refused(state, lay_off(state, "R10", 1)) is IllegalReason.LAY_OFF_CAP_REACHED


def test_every_illegal_reason_has_its_own_test():
    """Each IllegalReason reason is pinned by a test named test_<reason>_is_refused."""
    missing = [
        reason.name for reason in OKEY_101_REASONS
        if f"test_{reason.name.lower()}_is_refused" not in globals()
    ]
    assert missing == []
