"""Playing a classic round, move by move (docs/rules.md §8.1, §8.2, §8.5), and
one test per reason the engine refuses a move (`IllegalReason`)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_support import (
    NOW,
    PLAY_ON,
    UNTIMED,
    arrange,
    code,
    codes,
    discard,
    drain_wall,
    draw,
    give,
    play,
    refused,
    start,
    swap,
    tile,
    to_last_wall_tile,
    waiting_on_last_discard,
    without,
)
from okey_rules.dealing.deal import deal
from okey_rules.errors import InvalidInputError
from okey_rules.play.game import apply_move, legal_moves, start_round
from okey_rules.play.game_types import CLASSIC_REASONS
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind, Phase
from okey_rules.ruleset import Game, Ruleset, preset
from okey_rules.tiles import FACES

TIMED = Ruleset(move_timer_seconds=45)


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 2), (4, 0), (4, 3)])
def test_first_seat_after_the_dealer_opens_by_discarding_without_a_draw(players, dealer):
    """§8.1: the seat after the dealer holds 15 tiles and opens with a discard;
    drawing first is refused, and the turn then passes to the next seat, which draws."""
    state = start(players=players, dealer=dealer)
    first = (dealer + 1) % players
    assert state.turn == state.first_seat == first
    assert state.phase is Phase.FIRST_DISCARD
    kinds = {m.kind for m in legal_moves(state, first)} - {MoveKind.GOSTERME}
    assert MoveKind.DISCARD in kinds
    assert kinds <= {MoveKind.DISCARD, MoveKind.DECLARE_WIN}
    assert refused(state, Move(MoveKind.DRAW_FROM_WALL, first)).reason is (
        IllegalReason.MUST_DISCARD_FIRST
    )
    opener = state.seats[first].rack[3]
    after = discard(state, opener)
    assert after.turn == (first + 1) % players
    assert after.phase is Phase.DRAW
    assert after.seats[first].discards == (opener,)
    assert after.seats[first].draws == 0


def test_turns_pass_to_the_next_seat_and_each_draws_then_discards():
    """§8.2: each later turn is one draw (wall or previous discard) and one
    discard onto one's own pile; seat s + 1 plays after seat s, wrapping round."""
    state = start(players=3, dealer=0)
    state = discard(state, state.seats[1].rack[0])
    seen = []
    for _ in range(6):
        seen.append(state.turn)
        before = len(state.wall)
        state = draw(state)
        assert state.phase is Phase.DISCARD
        assert len(state.wall) == before - 1
        state = discard(state, state.seats[state.turn].rack[0])
    assert seen == [2, 0, 1, 2, 0, 1]


def test_drawing_from_the_wall_takes_its_next_tile_privately():
    """§8.2, §8.7: the wall is drawn in order; only the drawer's event shows the tile."""
    state = start()
    state = discard(state, state.seats[1].rack[0])
    nxt = state.wall[0]
    result = apply_move(state, Move(MoveKind.DRAW_FROM_WALL, 2))
    assert result.legal
    assert result.state is not None
    assert result.state.seats[2].rack[-1] == nxt
    assert result.state.seats[2].draws == 1
    (event,) = result.events
    assert (event.kind, event.seat, event.tile, event.private) == (
        EventKind.DREW_FROM_WALL, 2, nxt, True
    )


def test_take_discard_takes_the_previous_seats_top_tile():
    """§8.2: the seat on turn may take the top of the previous seat's pile
    instead of drawing; the tile leaves that pile and the wall is untouched."""
    state = start(players=4, dealer=3)  # seat 0 opens
    state = discard(state, state.seats[0].rack[5])
    state = draw(state)
    state = discard(state, state.seats[1].rack[2])
    top = state.seats[1].discards[-1]
    wall = state.wall
    result = apply_move(state, Move(MoveKind.TAKE_DISCARD, 2))
    assert result.legal
    assert result.state is not None
    after = result.state
    assert after.seats[2].rack[-1] == top
    assert after.seats[1].discards == ()
    assert after.seats[0].discards == state.seats[0].discards  # not seat 0's pile
    assert after.wall == wall
    assert after.seats[2].draws == 1
    (event,) = result.events
    assert (event.kind, event.tile, event.from_seat, event.private) == (
        EventKind.TOOK_DISCARD, top, 1, False
    )


def test_discarding_the_tile_just_taken_is_allowed():
    """§8.2: nothing forbids giving back the tile just taken (the engine's decision)."""
    state = start(players=2, dealer=0)
    state = discard(state, state.seats[1].rack[0])
    taken = state.seats[1].discards[-1]
    state = play(state, Move(MoveKind.TAKE_DISCARD, 0))
    assert Move(MoveKind.DISCARD, 0, taken) in legal_moves(state, 0)
    state = discard(state, taken)
    assert state.seats[0].discards == (taken,)
    assert state.turn == 1


def test_two_player_rounds_alternate_between_the_two_seats():
    """§8.1-§8.2: with two players each seat's previous seat is the other one."""
    state = start(players=2, dealer=1)  # seat 0 opens
    state = discard(state, state.seats[0].rack[0])
    assert state.turn == 1
    state = play(state, Move(MoveKind.TAKE_DISCARD, 1))
    state = discard(state, state.seats[1].rack[0])
    assert state.turn == 0
    assert state.seats[0].discards == ()


def test_wall_empty_the_seat_on_turn_may_take_the_last_discard_only_to_finish():
    """§8.5: with the wall empty the seat on turn may take the last discard only
    to finish with it at once (then only a declaration is legal), or end the
    round with no winner."""
    state = waiting_on_last_discard(start(players=4, rules=PLAY_ON))
    seat = state.turn
    assert legal_moves(state, seat) == [
        Move(MoveKind.TAKE_DISCARD, seat),
        Move(MoveKind.END_ROUND, seat),
    ]
    took = play(state, Move(MoveKind.TAKE_DISCARD, seat))
    assert took.phase is Phase.DISCARD
    assert took.must_finish
    after_take = legal_moves(took, seat)
    assert after_take
    assert {m.kind for m in after_take} == {MoveKind.DECLARE_WIN}
    won = play(took, after_take[0])
    assert not won.must_finish
    assert won.outcome is not None
    assert not won.outcome.drawn
    assert won.outcome.winner == seat
    result = apply_move(state, Move(MoveKind.END_ROUND, seat))
    assert result.legal
    assert result.state is not None
    over = result.state
    assert over.phase is Phase.ROUND_OVER
    assert over.outcome is not None
    assert over.outcome.drawn
    assert over.outcome.move_number == state.move_number + 1
    assert [e.kind for e in result.events] == [EventKind.ROUND_DRAWN]
    assert all(legal_moves(over, s) == [] for s in range(4))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_empty_wall_ends_the_round_when_the_next_seat_cannot_finish(players):
    """§8.5: once the last wall tile is drawn and discarded, the round ends with
    no winner in the same answer unless the next seat can finish with that discard."""
    state = to_last_wall_tile(start(players=players))
    state = draw(state)
    last = state.seats[state.turn].rack[-1]
    result = apply_move(state, Move(MoveKind.DISCARD, state.turn, last))
    assert result.legal
    assert result.state is not None
    assert [e.kind for e in result.events] == [EventKind.DISCARDED, EventKind.ROUND_DRAWN]
    over = result.state
    assert over.phase is Phase.ROUND_OVER
    assert over.outcome is not None
    assert over.outcome.drawn
    assert over.outcome.move_number == over.move_number == state.move_number + 1
    assert result.events[1].seat == over.turn == (state.turn + 1) % players
    assert over.deadline_ms == 0


def test_wall_dry_take_and_throw_back_is_not_endless():
    """§8.5, the audit's reproduction: seed wall-dry-0, four seats, dealer 0, the
    classic preset; every seat draws and throws back the drawn tile until the
    wall is empty. Taking the previous discard and throwing it back used to be
    accepted without end; now the round is over (or the next seat may take the
    discard only to finish with it)."""
    state = start_round(deal(preset("classic"), 4, 0, seed="wall-dry-0"))
    state = drain_wall(state)
    if state.phase is Phase.ROUND_OVER:
        assert state.outcome is not None
        assert state.outcome.drawn
        assert not state.wall
        assert legal_moves(state, state.turn) == []
        return
    took = play(state, Move(MoveKind.TAKE_DISCARD, state.turn))
    taken = took.seats[took.turn].rack[-1]
    assert refused(took, Move(MoveKind.DISCARD, took.turn, taken)).reason is (
        IllegalReason.MUST_FINISH
    )


def test_the_drawable_indicator_is_the_last_wall_tile():
    """§2.4, §8.5: with indicator_drawable_last the indicator is drawn last;
    the round then plays on like any other."""
    rules = Ruleset(move_timer_seconds=0, indicator_drawable_last=True)
    state = start(rules=rules)
    assert state.wall[-1] == state.indicator
    state = drain_wall(state)
    assert any(state.indicator in s.rack or state.indicator in s.discards for s in state.seats)
    assert not state.wall


def test_moves_returns_nothing_once_the_round_is_over():
    """§8.5: once over, no seat has a legal move."""
    over = drain_wall(start(players=2))
    assert over.phase is Phase.ROUND_OVER
    assert [legal_moves(over, s) for s in range(2)] == [[], []]


def test_okey_101_rounds_are_not_played_by_this_engine():
    """§8: only classic Okey rounds are played; an Okey 101 state is invalid input."""
    state = start()
    state_101 = replace(state, rules=Ruleset(game=Game.OKEY_101))
    with pytest.raises(InvalidInputError) as raised:
        legal_moves(state_101, 0)
    assert raised.value.field == "state.ruleset.game"


@pytest.mark.parametrize(
    ("move", "field"),
    [
        (Move(MoveKind.DRAW_FROM_WALL, 4), "move.seat"),
        (Move(MoveKind.DRAW_FROM_WALL, -1), "move.seat"),
        (Move(MoveKind.DISCARD, 1), "move.tile"),
        (Move(MoveKind.DECLARE_WIN, 1), "move.tile"),
        (Move(MoveKind.GOSTERME, 1, 0), "move.tile"),
        (Move(MoveKind.TIMEOUT, 1, 0), "move.tile"),
    ],
)
def test_malformed_moves_are_invalid_input_naming_the_field(move, field):
    """§8: a seat that does not exist or a tile where none belongs is not a
    move any rule judges: it is invalid input, not an illegal move."""
    with pytest.raises(InvalidInputError) as raised:
        apply_move(start(), move)
    assert raised.value.field == field


# One test per IllegalReason, named after it.


def test_round_over_is_refused():
    """§8.5: no move is legal after the round ended, not even gösterme."""
    over = drain_wall(start(players=2))
    assert over.phase is Phase.ROUND_OVER
    for move in (
        Move(MoveKind.DRAW_FROM_WALL, over.turn),
        Move(MoveKind.TAKE_DISCARD, over.turn),
        Move(MoveKind.END_ROUND, over.turn),
        Move(MoveKind.GOSTERME, 0),
        Move(MoveKind.DISCARD, 0, over.seats[0].rack[0]),
    ):
        assert refused(over, move).reason is IllegalReason.ROUND_OVER


def test_not_your_turn_is_refused():
    """§8.1-§8.2: only the seat on turn draws, takes, discards or declares."""
    state = start(players=4, dealer=0)  # seat 1 opens
    other = state.seats[2].rack[0]
    for move in (
        Move(MoveKind.DISCARD, 2, other),
        Move(MoveKind.DECLARE_WIN, 2, other),
        Move(MoveKind.DRAW_FROM_WALL, 0),
        Move(MoveKind.TIMEOUT, 3),
    ):
        assert refused(state, move).reason is IllegalReason.NOT_YOUR_TURN


def test_must_draw_first_is_refused():
    """§8.2: after the opening discard every turn starts with a draw."""
    state = start()
    state = discard(state, state.seats[1].rack[0])
    own = tile(state.seats[2].rack[0])
    assert refused(state, Move(MoveKind.DISCARD, 2, own)).reason is IllegalReason.MUST_DRAW_FIRST
    assert refused(state, Move(MoveKind.DECLARE_WIN, 2, own)).reason is (
        IllegalReason.MUST_DRAW_FIRST
    )


def test_must_discard_first_is_refused():
    """§8.1-§8.2: one draw per turn; the opening seat does not draw at all."""
    state = start()
    assert refused(state, Move(MoveKind.DRAW_FROM_WALL, 1)).reason is (
        IllegalReason.MUST_DISCARD_FIRST
    )
    state = draw(discard(state, state.seats[1].rack[0]))
    for kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD, MoveKind.END_ROUND):
        assert refused(state, Move(kind, 2)).reason is IllegalReason.MUST_DISCARD_FIRST


def test_tile_not_in_rack_is_refused():
    """§8.2, §8.4: a seat discards or finishes only with a tile it holds."""
    state = start()
    elsewhere = state.seats[3].rack[0]
    for kind in (MoveKind.DISCARD, MoveKind.DECLARE_WIN):
        result = refused(state, Move(kind, 1, elsewhere))
        assert result.reason is IllegalReason.TILE_NOT_IN_RACK
    # The other copy of a held face is a different tile.
    held = state.seats[1].rack[0]
    twin = (held + 53) % 106
    if twin not in state.seats[1].rack:
        assert refused(state, Move(MoveKind.DISCARD, 1, twin)).reason is (
            IllegalReason.TILE_NOT_IN_RACK
        )


def test_wall_empty_is_refused():
    """§8.5: an empty wall cannot be drawn from, and the last discard may be
    taken only by a seat that can finish with it."""
    state = waiting_on_last_discard(start(players=3, rules=PLAY_ON))
    assert refused(state, Move(MoveKind.DRAW_FROM_WALL, state.turn)).reason is (
        IllegalReason.WALL_EMPTY
    )
    # Spoil the waiting seat's run: it can no longer finish with the R5.
    other = next(c for c in state.seats[(state.turn + 1) % 3].rack if c % FACES != code("R3"))
    spoilt = swap(state, code("R3"), other)
    assert legal_moves(spoilt, spoilt.turn) == [Move(MoveKind.END_ROUND, spoilt.turn)]
    assert refused(spoilt, Move(MoveKind.TAKE_DISCARD, spoilt.turn)).reason is (
        IllegalReason.WALL_EMPTY
    )


def test_must_show_win_is_refused():
    """§8.4, option must_show_win (on in the classic preset): a seat whose 15
    tiles make a winning hand with no okey in it must declare the win."""
    # Indicator B13 (okey B1); R1-R4, Y5-Y7, K9-K12 and R8 Y8 B8 win, K2 is spare.
    rack = codes("R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2")
    state = arrange(start(), {1: rack}, indicator=code("B13"))
    assert state.rules.must_show_win
    assert refused(state, Move(MoveKind.DISCARD, 1, code("K2"))).reason is (
        IllegalReason.MUST_SHOW_WIN
    )
    assert play(state, Move(MoveKind.DECLARE_WIN, 1, code("K2"))).outcome is not None


def test_gosterme_not_played_is_refused():
    """§8.3, option gosterme_played (off in the okey.gg preset, whose rules have
    no gösterme): showing the indicator's twin is refused and never offered."""
    state = start(rules=preset("okey.gg"))
    state = give(state, 2, state.gosterme_tile())
    assert refused(state, Move(MoveKind.GOSTERME, 2)).reason is IllegalReason.GOSTERME_NOT_PLAYED
    assert Move(MoveKind.GOSTERME, 2) not in legal_moves(state, 2)
    played = start()
    played = give(played, 2, played.gosterme_tile())
    assert Move(MoveKind.GOSTERME, 2) in legal_moves(played, 2)


def test_must_finish_is_refused():
    """§8.5: a seat that took the last discard with the wall empty must finish
    with it: a plain discard is refused, the declaration is legal."""
    state = waiting_on_last_discard(start(players=4, rules=PLAY_ON))
    took = play(state, Move(MoveKind.TAKE_DISCARD, state.turn))
    for held in took.seats[took.turn].rack:
        assert refused(took, Move(MoveKind.DISCARD, took.turn, held)).reason is (
            IllegalReason.MUST_FINISH
        )


def test_wall_not_empty_is_refused():
    """§8.5: a round ends without a winner only once the wall is empty."""
    state = start()
    state = discard(state, state.seats[1].rack[0])
    result = refused(state, Move(MoveKind.END_ROUND, 2))
    assert result.reason is IllegalReason.WALL_NOT_EMPTY


def test_hand_does_not_win_is_refused():
    """§8.4: a declaration whose 14 remaining tiles do not win is refused and changes nothing."""
    state = arrange(
        start(),
        {1: codes("R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 B1 B7")},
        indicator=code("K5"),
    )
    for tile_code in state.seats[1].rack:
        result = refused(state, Move(MoveKind.DECLARE_WIN, 1, tile_code))
        assert result.reason is IllegalReason.HAND_DOES_NOT_WIN
    assert not [m for m in legal_moves(state, 1) if m.kind is MoveKind.DECLARE_WIN]


def test_gosterme_too_late_is_refused():
    """§8.3: gösterme is shown before one's first draw (option off)."""
    state = start()
    twin = state.gosterme_tile()
    state = give(state, 2, twin)
    state = draw(discard(state, state.seats[1].rack[0]))
    assert state.seats[2].draws == 1
    result = refused(state, Move(MoveKind.GOSTERME, 2))
    assert result.reason is IllegalReason.GOSTERME_TOO_LATE


def test_gosterme_already_shown_is_refused():
    """§8.3: each seat shows gösterme once."""
    state = start()
    state = give(state, 3, state.gosterme_tile())
    state = play(state, Move(MoveKind.GOSTERME, 3))
    result = refused(state, Move(MoveKind.GOSTERME, 3))
    assert result.reason is IllegalReason.GOSTERME_ALREADY_SHOWN


def test_gosterme_without_tile_is_refused():
    """§8.3: gösterme shows the indicator's twin, so the seat must hold it."""
    state = start()
    state = without(state, 0, state.gosterme_tile())
    result = refused(state, Move(MoveKind.GOSTERME, 0))
    assert result.reason is IllegalReason.GOSTERME_WITHOUT_TILE


def test_turn_timed_out_is_refused():
    """§8.6: once the deadline has passed, the seat on turn's own moves are
    refused; its turn is played by a TIMEOUT move."""
    state = start(rules=TIMED, now_ms=NOW)
    late = state.deadline_ms
    own = tile(state.seats[1].rack[0])
    assert refused(state, Move(MoveKind.DISCARD, 1, own), late).reason is (
        IllegalReason.TURN_TIMED_OUT
    )
    state = discard(state, own.code, NOW + 1_000)
    late = state.deadline_ms + 1
    for kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD):
        assert refused(state, Move(kind, 2), late).reason is IllegalReason.TURN_TIMED_OUT


def test_turn_not_timed_out_is_refused():
    """§8.6: a TIMEOUT move is legal only at or after the turn's deadline, and
    never in an untimed turn."""
    state = start(rules=TIMED, now_ms=NOW)
    early = state.deadline_ms - 1
    assert refused(state, Move(MoveKind.TIMEOUT, 1), early).reason is (
        IllegalReason.TURN_NOT_TIMED_OUT
    )
    assert refused(state, Move(MoveKind.TIMEOUT, 1), None).reason is (
        IllegalReason.TURN_NOT_TIMED_OUT
    )
    untimed = start(rules=UNTIMED, now_ms=NOW)
    assert refused(untimed, Move(MoveKind.TIMEOUT, 1), NOW + 10**9).reason is (
        IllegalReason.TURN_NOT_TIMED_OUT
    )


def test_every_illegal_reason_has_its_own_test():
    """Each IllegalReason is pinned by a test named test_<reason>_is_refused."""
    missing = [
        reason.name for reason in CLASSIC_REASONS
        if f"test_{reason.name.lower()}_is_refused" not in globals()
    ]
    assert missing == []
