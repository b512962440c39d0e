"""What `okey play` prints at the end of the wall and for a win that must be made
(docs/play.md, "What you see"; docs/rules.md §8.4, §8.5), from the engine's own
answers converted as GameService converts them."""

from __future__ import annotations

from game_support import (
    PLAY_ON,
    UNTIMED,
    arrange,
    code,
    codes,
    draw,
    play,
    start,
    to_last_wall_tile,
    waiting_on_last_discard,
)
from okey.v1 import game_pb2
from okey_cli import play_render
from okey_cli.render import Painter
from okey_rules.play.game import apply_move, legal_moves
from okey_rules.play.game_types import GameState
from okey_rules.play.game_view import player_view
from okey_rules.play.round_types import Move, MoveKind
from okey_server.wire.convert_game import fill_events, move_to_proto, view_to_proto

PAINTER = Painter(colour=False)


def events_of(state: GameState, move: Move) -> list[game_pb2.Event]:
    """The events of a legal move as an ApplyMoveResponse carries them."""
    result = apply_move(state, move)
    assert result.legal, result.message
    assert result.state is not None
    answer = game_pb2.ApplyMoveResponse()
    fill_events(answer.events, result.events, result.state)
    return list(answer.events)


def offered(state: GameState, seat: int) -> list[game_pb2.Move]:
    return [move_to_proto(m) for m in legal_moves(state, seat)]


def test_the_last_discard_ending_the_round_is_told_as_such():
    """§8.5: the discard of the last wall tile that the next seat cannot finish with ends
    the round in the same answer; the line says why, not that someone ended it."""
    state = draw(to_last_wall_tile(start(players=4)))
    thrower = state.turn
    last = state.seats[thrower].rack[-1]
    events = events_of(state, Move(MoveKind.DISCARD, thrower, last))
    seats = play_render.Seats.whole_table(human=thrower, players=4)
    lines = play_render.event_lines(events, seats, PAINTER)
    after = (thrower + 1) % 4
    assert lines == [
        f"you discarded {PAINTER.tile(events[0].tile)}",
        f"the wall is empty and seat {after} cannot finish with that tile: the round is drawn",
    ]


def test_a_seat_that_declines_the_last_discard_ends_the_round():
    """§8.5: END_ROUND at the wall's end is told as that seat ending the round."""
    state = waiting_on_last_discard(start(rules=PLAY_ON))
    waiter = state.turn
    events = events_of(state, Move(MoveKind.END_ROUND, waiter))
    seats = play_render.Seats.whole_table(human=(waiter + 1) % 4, players=4)
    assert play_render.event_lines(events, seats, PAINTER) == [
        f"seat {waiter} ended the round: the wall is empty"
    ]


def test_waiting_on_the_last_discard_the_human_is_told_it_finishes():
    """§8.5: the human on turn with the wall empty is offered the last discard only
    because it finishes the hand: the prompt and a notice say so."""
    state = waiting_on_last_discard(start(rules=PLAY_ON))
    waiter = state.turn
    view = view_to_proto(player_view(state, waiter))
    seats = play_render.Seats.whole_table(human=waiter, players=4)
    head = play_render.table_lines(view, seats, PAINTER)[0]
    assert head.endswith(
        "your turn: the wall is empty: take the last discard and finish (t), or end the"
        " round (end)"
    )
    assert play_render.notices(offered(state, waiter), PAINTER) == [
        "the last discard finishes your hand: take it (t) and win, or end the round (end)"
    ]
    took = play(state, Move(MoveKind.TAKE_DISCARD, waiter))
    (notice,) = play_render.notices(offered(took, waiter), PAINTER)
    assert notice.startswith("your hand finishes: win ")
    assert notice.endswith(" (you must: no plain discard)")


# §8.4: with indicator B13 (okey B1), R1-R4, Y5-Y7, K9-K12 and R8 Y8 B8 win; K2 is spare.
WINNING_15 = "R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2"


def test_a_win_that_must_be_shown_is_noticed_as_a_duty():
    """§8.4, option must_show_win: a winning hand with no okey in it must be declared;
    with the option off it is only offered."""
    bound = arrange(start(rules=UNTIMED), {1: codes(WINNING_15)}, indicator=code("B13"))
    (notice,) = play_render.notices(offered(bound, 1), PAINTER)
    assert notice == "your hand finishes: win K2 (you must: no plain discard)"
    free = arrange(start(rules=PLAY_ON), {1: codes(WINNING_15)}, indicator=code("B13"))
    assert play_render.notices(offered(free, 1), PAINTER) == ["your hand finishes: win K2"]
