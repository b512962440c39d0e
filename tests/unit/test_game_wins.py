"""Finishing a round (docs/rules.md §8.4): discard one tile onto the indicator
and show 14 that win; the outcome says how (§4) and whether the discard was an okey."""

from __future__ import annotations

from dataclasses import replace

from game_support import (
    arrange,
    code,
    codes,
    discard,
    give,
    outcome_of,
    play,
    refused,
    start,
)
from okey_rules.play.game import apply_move, legal_moves
from okey_rules.play.game_types import GameState, MoveResult
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind, Outcome, Phase
from okey_rules.search.hand_types import WinKind

# Indicator B13: the okey is B1. Two melds of four and two of three.
MELDS_INDICATOR = code("B13")
MELDS_14 = "R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8"
# Indicator K4: the okey is K5. Seven different pairs.
PAIRS_INDICATOR = code("K4")
PAIRS_14 = "R1 R1 Y3 Y3 B5 B5 K7 K7 R9 R9 Y11 Y11 B13 B13"


def opening(rack: str, indicator: int, players: int = 4) -> GameState:
    """A fresh round whose opening seat (seat 1) holds `rack` (15 tiles)."""
    return arrange(start(players=players, dealer=0), {1: codes(rack)}, indicator=indicator)


def declare(state: GameState, tile_code: int) -> MoveResult:
    result = apply_move(state, Move(MoveKind.DECLARE_WIN, state.turn, tile_code))
    assert result.legal, result.message
    assert result.state is not None
    return result


def declared(state: GameState, tile_code: int) -> Outcome:
    """The outcome of finishing with `tile_code`, which must win."""
    after = declare(state, tile_code).state
    assert after is not None
    return outcome_of(after)


def win_tiles(state: GameState) -> list[int]:
    return [
        m.tile for m in legal_moves(state, state.turn)
        if m.kind is MoveKind.DECLARE_WIN and m.tile is not None
    ]


def test_winning_with_melds_in_the_first_discard():
    """§8.1, §8.4, §4.1: the opening seat may finish at once; the 14 shown form
    melds, the discard lies on the indicator and the round is over."""
    state = opening(MELDS_14 + " K2", MELDS_INDICATOR)
    assert state.phase is Phase.FIRST_DISCARD
    assert win_tiles(state) == [code("K2")]
    result = declare(state, code("K2"))
    over = result.state
    assert over is not None
    outcome = outcome_of(over)
    assert over.phase is Phase.ROUND_OVER
    assert (outcome.drawn, outcome.winner, outcome.win_kind) == (False, 1, WinKind.MELDS)
    assert outcome.discard == code("K2")
    assert not outcome.okey_discard
    assert outcome.hand == tuple(codes(MELDS_14))
    assert over.seats[1].rack == outcome.hand
    assert over.seats[1].discards == ()  # the discard is on the indicator, not the pile
    assert outcome.move_number == over.move_number == 1
    (event,) = result.events
    assert (event.kind, event.seat, event.tile, event.outcome) == (
        EventKind.ROUND_WON, 1, code("K2"), outcome
    )


def test_winning_with_seven_pairs():
    """§8.4, §4.2: seven pairs win, reported as SEVEN_PAIRS."""
    state = opening(PAIRS_14 + " K2", PAIRS_INDICATOR)
    assert win_tiles(state) == [code("K2")]
    outcome = declared(state, code("K2"))
    assert outcome.win_kind is WinKind.SEVEN_PAIRS
    assert not outcome.okey_discard


def test_finishing_with_an_okey_discard_is_flagged():
    """§8.4, §4.5: discarding an okey to finish is flagged (it doubles the
    score in the traditional rules); with a spare okey any discard wins."""
    okey = code("B1")
    state = opening(MELDS_14 + " B1", MELDS_INDICATOR)
    assert sorted(win_tiles(state)) == sorted(state.seats[1].rack)
    outcome = declared(state, okey)
    assert outcome.okey_discard
    assert outcome.discard == okey
    assert outcome.win_kind is WinKind.MELDS
    plain = declared(state, code("R1"))
    assert not plain.okey_discard


def test_seven_pairs_finished_with_an_okey_discard():
    """§8.4: the okey-discard flag and the win kind are independent."""
    state = opening(PAIRS_14 + " K5", PAIRS_INDICATOR)
    outcome = declared(state, code("K5"))
    assert (outcome.win_kind, outcome.okey_discard) == (WinKind.SEVEN_PAIRS, True)


def test_a_false_joker_discard_is_not_an_okey_discard():
    """§2.3, §8.4: a false joker plays as the okey's face but is not wild, so
    finishing with it is not an okey discard."""
    state = opening(MELDS_14 + " F", MELDS_INDICATOR)
    outcome = declared(state, code("F"))
    assert not outcome.okey_discard


def test_a_non_winning_declaration_is_refused():
    """§8.4: the 14 remaining tiles must win; otherwise HAND_DOES_NOT_WIN and
    the state is unchanged (the seat may still discard normally)."""
    state = opening(MELDS_14.replace("B8", "B10") + " K2", MELDS_INDICATOR)
    assert win_tiles(state) == []
    result = refused(state, Move(MoveKind.DECLARE_WIN, 1, code("K2")))
    assert result.reason is IllegalReason.HAND_DOES_NOT_WIN
    assert discard(state, code("K2")).turn == 2


def test_winning_after_drawing_the_missing_tile():
    """§8.4: a later turn finishes after its draw: 15 tiles, one discarded."""
    rack = codes(MELDS_14.replace("B8", "K2"))
    state = arrange(
        start(players=3, dealer=0),
        {2: rack},
        wall_front=[code("B8")],
        indicator=MELDS_INDICATOR,
    )
    state = discard(state, state.seats[1].rack[0])
    state = play(state, Move(MoveKind.DRAW_FROM_WALL, 2))
    assert win_tiles(state) == [code("K2")]
    outcome = declared(state, code("K2"))
    assert (outcome.winner, outcome.win_kind) == (2, WinKind.MELDS)


def test_winning_with_the_taken_discard():
    """§8.2, §8.4: the tile taken from the previous seat's pile may complete the hand."""
    rack = codes(MELDS_14.replace("B8", "K2"))
    state = arrange(start(players=4, dealer=0), {2: rack}, indicator=MELDS_INDICATOR)
    state = give(state, 1, code("B8"))
    state = discard(state, code("B8"))
    state = play(state, Move(MoveKind.TAKE_DISCARD, 2))
    outcome = declared(state, code("K2"))
    assert outcome.winner == 2
    assert state.seats[1].discards == ()  # taken, so not in seat 1's pile


def test_a_ready_hand_may_play_on_instead_of_declaring():
    """§8.4: without must_show_win, declaring is a choice; a seat with a winning
    hand may discard and play on."""
    state = opening(MELDS_14 + " K2", MELDS_INDICATOR)
    state = replace(state, rules=state.rules.with_overrides(must_show_win=False))
    after = discard(state, code("K2"))
    assert after.phase is Phase.DRAW
    assert after.outcome is None


def test_declare_win_moves_are_exactly_the_winning_discards():
    """§8.4, §4.5: legal_moves lists DECLARE_WIN for each tile whose discard
    leaves a winning 14, and apply_move accepts exactly those."""
    # R1-R5 and more: discarding R1 or R5 from a six-run of R1..R6 still wins.
    state = opening("R1 R2 R3 R4 R5 R6 Y5 Y6 Y7 K9 K10 K11 R8 Y8 B8", MELDS_INDICATOR)
    listed = set(win_tiles(state))
    accepted = {
        c for c in state.seats[1].rack
        if apply_move(state, Move(MoveKind.DECLARE_WIN, 1, c)).legal
    }
    assert listed == accepted == {code("R1"), code("R6")}

