"""Classic Okey play as a pure state machine (docs/rules.md §8).

`start_round` turns a deal into the opening state; `apply_move` judges one
move and returns the next state with its events, or the reason the move is
illegal (an illegal move is an answer, not an exception); `legal_moves`
lists what a seat may do now; `replay` runs a whole move log. Malformed
input (a seat that does not exist, a tile where none belongs) raises
`InvalidInputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from okey_rules.bots.suggest import suggest_move
from okey_rules.dealing.deal_types import Deal
from okey_rules.errors import InvalidInputError, check_seat
from okey_rules.play.game_types import (
    CLASSIC_MOVES,
    MOVES_WITH_TILE,
    ClassicReplay,
    ClassicResult,
    GameState,
    SeatState,
)
from okey_rules.play.game_view import player_view
from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.play.round_types import (
    Event,
    EventKind,
    IllegalReason,
    Move,
    MoveKind,
    Outcome,
    Phase,
    RoundEnd,
)
from okey_rules.play.turns import (
    discard,
    draw,
    fast_replace,
    next_seat,
    previous_seat,
    take_discard,
    with_seat,
)
from okey_rules.ruleset import Game
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.tiles import FACES, TILE_OF_CODE, format_tile

MS_PER_SECOND = 1000

def start_round(
    dealt: Deal, *, deal_id: str = "", round_number: int = 1, now_ms: int | None = None
) -> GameState:
    """The state right after the deal: the first seat opens by discarding (§8.1)."""
    return GameState(
        rules=dealt.rules,
        player_count=dealt.player_count,
        dealer=dealt.dealer,
        first_seat=dealt.first_seat,
        indicator=dealt.indicator,
        seats=tuple(SeatState(rack=rack) for rack in dealt.racks),
        wall=dealt.wall,
        turn=dealt.first_seat,
        phase=Phase.FIRST_DISCARD,
        deal_id=deal_id,
        round=round_number,
        deadline_ms=_deadline(dealt.rules.move_timer_seconds, now_ms),
    )


def _deadline(timer_seconds: int, now_ms: int | None) -> int:
    """A new turn's deadline (§8.6): untimed without a timer or without the caller's clock."""
    if not timer_seconds or now_ms is None:
        return 0
    return now_ms + timer_seconds * MS_PER_SECOND


def check_playable(state: GameState, field: str = "state") -> None:
    """Only classic Okey rounds are played here so far; an Okey 101 state is refused."""
    if state.rules.game is not Game.CLASSIC:
        raise InvalidInputError(
            f"{field}.ruleset.game", "Okey 101 rounds cannot be played through the game service yet"
        )


def check_move(state: GameState, move: Move, field: str = "move") -> None:
    """Raises `InvalidInputError` for a move no rule can judge (a seat that does not exist...)."""
    check_playable(state)
    check_seat(move.seat, state.player_count, f"{field}.seat")
    if move.kind not in CLASSIC_MOVES:
        raise InvalidInputError(
            f"{field}.kind", f"a {move.kind.value} is not a move of classic Okey"
        )
    if move.kind in MOVES_WITH_TILE:
        if move.tile is None:
            raise InvalidInputError(f"{field}.tile", f"a {move.kind.value} names its tile")
    elif move.tile is not None:
        raise InvalidInputError(f"{field}.tile", f"a {move.kind.value} names no tile")


def _illegal(reason: IllegalReason, message: str) -> ClassicResult:
    return MoveResult(False, None, (), reason, message)


def apply_move(state: GameState, move: Move, now_ms: int | None = None) -> ClassicResult:
    """Judges `move` against `state` at the caller's clock `now_ms` (None: untimed)."""
    check_move(state, move)
    if state.phase is Phase.ROUND_OVER:
        return _illegal(IllegalReason.ROUND_OVER, "the round is over")
    if move.kind is MoveKind.GOSTERME:
        return _gosterme(state, move.seat)
    if move.seat != state.turn:
        return _illegal(
            IllegalReason.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {move.seat}'s"
        )
    timed_out = _timed_out(state, now_ms)
    if move.kind is MoveKind.TIMEOUT:
        if not timed_out:
            return _illegal(IllegalReason.TURN_NOT_TIMED_OUT, _not_timed_out_message(state))
        return _timeout(state, now_ms)
    if timed_out:
        return _illegal(
            IllegalReason.TURN_TIMED_OUT,
            "the turn's deadline has passed: the turn is played by a timeout move",
        )
    if move.kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD, MoveKind.END_ROUND):
        if state.phase is not Phase.DRAW:
            return _illegal(
                IllegalReason.MUST_DISCARD_FIRST,
                "the seat holds one tile too many: discard (or declare a win) first",
            )
        if move.kind is MoveKind.DRAW_FROM_WALL:
            if not state.wall:
                return _illegal(
                    IllegalReason.WALL_EMPTY,
                    "the wall is empty: take the previous discard only to finish with it,"
                    " or end the round",
                )
            return _played(*_draw_from_wall(state))
        if move.kind is MoveKind.TAKE_DISCARD:
            if not state.wall and not _can_finish_with(state, state.turn, _top_discard(state)):
                return _illegal(
                    IllegalReason.WALL_EMPTY,
                    "the wall is empty: the previous discard may be taken only to finish with"
                    " it, and with it the seat's tiles make no winning hand",
                )
            return _played(*_take_discard(state))
        if state.wall:
            return _illegal(
                IllegalReason.WALL_NOT_EMPTY,
                f"the round ends this way only when the wall is empty ({len(state.wall)} left)",
            )
        return _legal(*_end_round_drawn(state, state.move_number + 1))
    # DISCARD or DECLARE_WIN
    if state.phase is Phase.DRAW:
        return _illegal(
            IllegalReason.MUST_DRAW_FIRST,
            "draw from the wall or take the previous discard before discarding",
        )
    assert move.tile is not None  # check_move
    code = move.tile
    if code not in state.seats[move.seat].rack:
        return _illegal(
            IllegalReason.TILE_NOT_IN_RACK,
            f"{_name(code)} is not in seat {move.seat}'s rack",
        )
    if move.kind is MoveKind.DECLARE_WIN:
        return _declare_win(state, code)
    if state.must_finish:
        return _illegal(
            IllegalReason.MUST_FINISH,
            "the wall is empty and the seat took the last discard to finish with it:"
            " declare the win",
        )
    if _must_show_win(state):
        return _illegal(
            IllegalReason.MUST_SHOW_WIN,
            "the seat's tiles make a winning hand with no okey in it, which must be shown:"
            " declare the win",
        )
    return _played(*_discard_and_check_wall(state, code, now_ms))


def _legal(state: GameState, events: Iterable[Event]) -> ClassicResult:
    """A legal move's result: `state` (the move not yet counted) with the move counted."""
    return MoveResult(True, fast_replace(state, move_number=state.move_number + 1), tuple(events))


def _played(state: GameState, events: Iterable[Event]) -> ClassicResult:
    """A legal move's result, `state` already counting the move.

    Draws and discards count the move in the one state they build: a
    second copy of the state just for the count was a fifth of a move's cost.
    """
    return MoveResult(True, state, tuple(events))


def _name(code: int) -> str:
    tile = TILE_OF_CODE[code]
    return f"{format_tile(tile)} (copy {tile.copy})"


def _timed_out(state: GameState, now_ms: int | None) -> bool:
    return bool(state.deadline_ms) and now_ms is not None and now_ms >= state.deadline_ms


def _not_timed_out_message(state: GameState) -> str:
    if not state.deadline_ms:
        return "this turn is not timed"
    return f"the turn's deadline ({state.deadline_ms} ms since the epoch) has not passed"


def _draw_from_wall(state: GameState, *, moves: int = 1) -> tuple[GameState, list[Event]]:
    """The seat on turn draws; the next state counts `moves` more moves (see `_played`)."""
    turn = state.turn
    seats, wall, code = draw(state.seats, turn, state.wall, draws=state.seats[turn].draws + 1)
    next_state = fast_replace(
        state,
        move_number=state.move_number + moves,
        seats=seats,
        wall=wall,
        phase=Phase.DISCARD,
    )
    return next_state, [Event(EventKind.DREW_FROM_WALL, turn, code, private=True)]


def _top_discard(state: GameState) -> int:
    """The previous seat's discard: in classic Okey it has just discarded, so its pile has a top."""
    return state.seats[previous_seat(state.turn, state.player_count)].discards[-1]


def _take_discard(state: GameState) -> tuple[GameState, list[Event]]:
    """The seat on turn takes the previous discard; the next state counts the move.

    With the wall empty the seat may take it only to finish with it (§8.5),
    so the state then holds the seat to declaring the win.
    """
    turn = state.turn
    source = previous_seat(turn, state.player_count)
    seats, code = take_discard(state.seats, turn, source, draws=state.seats[turn].draws + 1)
    next_state = fast_replace(
        state,
        seats=seats,
        phase=Phase.DISCARD,
        move_number=state.move_number + 1,
        must_finish=not state.wall,
    )
    return next_state, [Event(EventKind.TOOK_DISCARD, turn, code, from_seat=source)]


def _discard(state: GameState, code: int, now_ms: int | None) -> tuple[GameState, list[Event]]:
    """The seat on turn discards `code`, ending its turn; the next state counts the move."""
    next_state = fast_replace(
        state,
        move_number=state.move_number + 1,
        seats=discard(state.seats, state.turn, code),
        turn=next_seat(state.turn, state.player_count),
        phase=Phase.DRAW,
        deadline_ms=_deadline(state.rules.move_timer_seconds, now_ms),
    )
    return next_state, [Event(EventKind.DISCARDED, state.turn, code)]


def _gosterme_claims(state: GameState) -> tuple[tuple[int, int], ...]:
    """The outcome's claims in the order shown (§8.3). The per-seat flags say
    who showed; a flagged seat missing from `gosterme_order` (a state rebuilt
    from an encoding that does not keep the order) follows in seat order."""
    ordered = [seat for seat in state.gosterme_order if state.seats[seat].gosterme]
    rest = [seat for seat, s in enumerate(state.seats) if s.gosterme and seat not in ordered]
    return tuple((seat, state.gosterme_tile()) for seat in ordered + rest)


def _end_round_drawn(state: GameState, move_number: int) -> tuple[GameState, list[Event]]:
    """The round ends with no winner at move `move_number` (§8.5); `state.turn` is the
    seat that could not (or would not) finish with the last discard."""
    outcome = Outcome(RoundEnd.DRAWN, move_number=move_number, gosterme=_gosterme_claims(state))
    next_state = fast_replace(
        state, phase=Phase.ROUND_OVER, deadline_ms=0, outcome=outcome, must_finish=False
    )
    return next_state, [Event(EventKind.ROUND_DRAWN, state.turn, outcome=outcome)]


def _discard_and_check_wall(
    state: GameState, code: int, now_ms: int | None
) -> tuple[GameState, list[Event]]:
    """A discard; with the wall empty, the round ends with it unless the next seat
    can finish with that discard (§8.5: the Japanese text ends the round when the
    seat on turn cannot take the previous discard and win; the others end it when
    the stock runs out)."""
    next_state, events = _discard(state, code, now_ms)
    if next_state.wall or _can_finish_with(next_state, next_state.turn, code):
        return next_state, events
    ended, drawn = _end_round_drawn(next_state, next_state.move_number)
    return ended, events + drawn


def _can_finish_with(state: GameState, seat: int, code: int) -> bool:
    """Whether `seat`'s rack with `code` added makes a winning hand after some discard."""
    tiles = [TILE_OF_CODE[c] for c in (*state.seats[seat].rack, code)]
    return bool(winning_discards(tiles, state.okey, state.rules).discards)


def _winning_faces(state: GameState) -> set[int]:
    """The faces the seat on turn (holding 15 tiles) may discard to win (§4.5)."""
    rack = state.seats[state.turn].rack
    verdict = winning_discards([TILE_OF_CODE[c] for c in rack], state.okey, state.rules)
    return {d.tile.face for d in verdict.discards}


def _must_show_win(state: GameState, faces: set[int] | None = None) -> bool:
    """Option `must_show_win` (§8.4): the seat on turn holds a winning hand it must show.

    The Japanese and Russian texts let a seat whose winning hand holds an okey
    play on, hoping to finish by discarding an okey later: the duty holds only
    when no winning discard leaves an okey among the 14 tiles shown.
    `faces` are the winning discards' faces when the caller has them.
    """
    if not state.rules.must_show_win:
        return False
    if faces is None:
        faces = _winning_faces(state)
    if not faces:
        return False
    okey_face = state.okey.face
    okeys = sum(1 for c in state.seats[state.turn].rack if c % FACES == okey_face)
    # Two okeys: whichever tile goes, one stays. One okey: it stays when a
    # winning discard is another face.
    return not (okeys >= 2 or (okeys == 1 and faces - {okey_face}))


def _declare_win(state: GameState, code: int) -> ClassicResult:
    """§8.4: discard `code` onto the indicator; the other 14 tiles must win."""
    seat = state.seats[state.turn]
    rack = list(seat.rack)
    rack.remove(code)
    okey = state.okey
    verdict = check_hand([TILE_OF_CODE[c] for c in rack], okey, state.rules)
    if not verdict.winning:
        return _illegal(
            IllegalReason.HAND_DOES_NOT_WIN,
            f"without {_name(code)} the 14 tiles do not form a winning hand",
        )
    outcome = Outcome(
        RoundEnd.WON,
        move_number=state.move_number + 1,
        gosterme=_gosterme_claims(state),
        winner=state.turn,
        win_kind=verdict.kind,
        okey_discard=code % FACES == okey.face,
        discard=code,
        hand=tuple(rack),
    )
    next_state = fast_replace(
        state,
        seats=with_seat(state.seats, state.turn, rack=tuple(rack)),
        phase=Phase.ROUND_OVER,
        deadline_ms=0,
        outcome=outcome,
        must_finish=False,
    )
    return _legal(next_state, [Event(EventKind.ROUND_WON, state.turn, code, outcome=outcome)])


def gosterme_window_open(state: GameState, seat: int) -> bool:
    """§8.3: before the seat's first draw; with the option, until its first turn ends."""
    draws = state.seats[seat].draws
    if draws == 0:
        return True
    return (
        state.rules.gosterme_in_first_turn
        and draws == 1
        and state.turn == seat
        and state.phase is Phase.DISCARD
    )


def _gosterme(state: GameState, seat: int) -> ClassicResult:
    if not state.rules.gosterme_played:
        return _illegal(
            IllegalReason.GOSTERME_NOT_PLAYED, "this table does not play gösterme"
        )
    claimant = state.seats[seat]
    if claimant.gosterme:
        return _illegal(
            IllegalReason.GOSTERME_ALREADY_SHOWN, f"seat {seat} has shown gösterme already"
        )
    if not gosterme_window_open(state, seat):
        when = (
            "until the end of one's first turn"
            if state.rules.gosterme_in_first_turn
            else "before one's first draw"
        )
        return _illegal(
            IllegalReason.GOSTERME_TOO_LATE, f"gösterme may be shown only {when}"
        )
    twin = state.gosterme_tile()
    if twin not in claimant.rack:
        return _illegal(
            IllegalReason.GOSTERME_WITHOUT_TILE,
            f"seat {seat} does not hold {format_tile(TILE_OF_CODE[twin])}, the indicator's twin",
        )
    next_state = fast_replace(
        state,
        seats=with_seat(state.seats, seat, gosterme=True),
        gosterme_order=(*state.gosterme_order, seat),
    )
    return _legal(next_state, [Event(EventKind.GOSTERME, seat, twin)])


def auto_discard(rack: Sequence[int], okey_face: int) -> int:
    """§8.6: the tile a timed-out turn discards: the most recently received
    tile that is not an okey (so a drawn okey is kept)."""
    for code in reversed(rack):
        if code % FACES != okey_face:
            return code
    raise AssertionError("unreachable: a rack holds at most two okeys")


def _timeout(state: GameState, now_ms: int | None) -> ClassicResult:
    """§8.6: play the seat's turn: draw from the wall if it has not drawn, then discard.

    The automatic move keeps to the rules the seat is held to: with nothing
    to draw it declines the previous discard, which ends the round (§8.5);
    holding a win it must finish (having taken the last discard, or under
    `must_show_win`), it declares the win.
    """
    events = [Event(EventKind.TURN_TIMED_OUT, state.turn)]
    if state.rules.timeout_bot_level:
        return _bot_turn(state, now_ms, events)
    if state.phase is Phase.DRAW:
        if not state.wall:
            state, ended = _end_round_drawn(state, state.move_number + 1)
            return _legal(state, events + ended)
        state, drew = _draw_from_wall(state, moves=0)  # one move: the discard counts it
        events += drew
    bound = state.must_finish or state.rules.must_show_win
    faces = _winning_faces(state) if bound else set()
    if state.must_finish or _must_show_win(state, faces):
        code = auto_finish(state.seats[state.turn].rack, state.okey.face, faces)
        won = _declare_win(state, code)
        return won._replace(events=(*events, *won.events))
    code = auto_discard(state.seats[state.turn].rack, state.okey.face)
    state, discarded = _discard_and_check_wall(state, code, now_ms)
    return _played(state, events + discarded)


# A bot's turn is at most a draw and a discard (or a win): a bound, not a rule.
_BOT_TURN_STEPS = 2


def _bot_turn(state: GameState, now_ms: int | None, events: list[Event]) -> ClassicResult:
    """§8.6 bot takeover (option `timeout_bot_level`): the bot of that level plays the rest
    of the timed-out turn from the seat's view alone (okey_rules.bots): its draw when it has
    not drawn, then its discard or its win. Gösterme is not shown for it. The whole turn is
    one move, as the simple automatic move is.
    """
    seat, counted = state.turn, state.move_number
    # The turn is played out untimed (the timer has run out); the discard that passes
    # the turn starts the next seat's timer from the caller's clock.
    state = fast_replace(state, deadline_ms=0)
    for _ in range(_BOT_TURN_STEPS):
        legal = [m for m in legal_moves(state, seat) if m.kind is not MoveKind.GOSTERME]
        chosen = suggest_move(player_view(state, seat), legal, state.rules.timeout_bot_level)
        result = apply_move(state, chosen.move, now_ms)
        assert result.state is not None, "a bot plays only legal moves"
        events += result.events
        state = result.state
        if state.turn != seat or state.phase is Phase.ROUND_OVER:
            return _played(state, events)
        state = fast_replace(state, move_number=counted)  # the draw is part of this move
    raise AssertionError("unreachable: a bot's discard or win ends its turn")


def auto_finish(rack: Sequence[int], okey_face: int, winning_faces: set[int]) -> int:
    """§8.6: the discard an automatic move finishes with: an okey when it wins (the
    double), else the most recently received tile that wins."""
    if okey_face in winning_faces:
        return next(code for code in rack if code % FACES == okey_face)
    for code in reversed(rack):
        if code % FACES in winning_faces:
            return code
    raise AssertionError("unreachable: called only when some discard wins")


def legal_moves(state: GameState, seat: int, now_ms: int | None = None) -> list[Move]:
    """Every move `seat` may make now (DISCARD and DECLARE_WIN: one per tile, in rack order)."""
    check_playable(state)
    check_seat(seat, state.player_count)
    if state.phase is Phase.ROUND_OVER:
        return []
    moves: list[Move] = []
    claimant = state.seats[seat]
    if (
        state.rules.gosterme_played
        and not claimant.gosterme
        and gosterme_window_open(state, seat)
        and state.gosterme_tile() in claimant.rack
    ):
        moves.append(Move(MoveKind.GOSTERME, seat))
    if seat != state.turn:
        return moves
    if _timed_out(state, now_ms):
        return [*moves, Move(MoveKind.TIMEOUT, seat)]
    if state.phase is Phase.DRAW:
        if state.wall:
            moves += (Move(MoveKind.DRAW_FROM_WALL, seat), Move(MoveKind.TAKE_DISCARD, seat))
        else:
            if _can_finish_with(state, seat, _top_discard(state)):
                moves.append(Move(MoveKind.TAKE_DISCARD, seat))
            moves.append(Move(MoveKind.END_ROUND, seat))
        return moves
    rack = claimant.rack
    winning_faces = _winning_faces(state)
    if not state.must_finish and not _must_show_win(state, winning_faces):
        moves += (Move(MoveKind.DISCARD, seat, code) for code in rack)
    moves += (
        Move(MoveKind.DECLARE_WIN, seat, code)
        for code in rack
        if code % FACES in winning_faces
    )
    return moves


def replay(
    state: GameState, log: Sequence[tuple[Move, int | None]], field: str = "moves"
) -> ClassicReplay:
    """Applies a move log (each move with the caller's clock then) until the first illegal move."""
    events: list[Event] = []
    for index, (move, now_ms) in enumerate(log):
        check_move(state, move, f"{field}[{index}].move")
        result = apply_move(state, move, now_ms)
        if not result.legal:
            return ReplayResult(
                False, state, index, tuple(events), result.reason, result.message
            )
        assert result.state is not None
        state = result.state
        events += result.events
    return ReplayResult(True, state, len(log), tuple(events))
