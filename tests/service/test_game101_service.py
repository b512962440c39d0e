"""Okey 101 through gRPC (docs/rules.md §10): GameService plays 101 rounds from Deal or
from positions the test arranges and signs with the server's key (the test knows it);
ScoringService scores their finished states (§10.7).

Positions use the default indicator K13 (the okey is K1) and are written in the engine
tests' notation (tests/unit/game101_support.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import grpc
import pytest
from game101_service_helpers import (
    KEY,
    after,
    arranged,
    draw,
    engine,
    finish,
    lay_meld,
    lay_off,
    one,
    open_melds,
    pb_code,
    pb_move,
    penalised,
    play_101_round,
    signed,
    take,
    with_rules,
)
from game_service_helpers import Position, Table, token_of
from okey.v1 import (
    deal_pb2,
    game_pb2,
    hand_pb2,
    ruleset_pb2,
    scoring_pb2,
    scoring_pb2_grpc,
    state_pb2,
    tile_pb2,
)
from okey_rules.play.game101 import legal_moves_101
from okey_rules.play.game101_types import OKEY_101_REASONS, State101
from okey_rules.play.round_types import IllegalReason, Move, MoveKind, Penalty, Phase, RoundEnd
from okey_rules.tiles import TILE_COUNT
from okey_server.wire.convert_state import state_token
from service_helpers import code_of, codes_of, decode_error, notation_of

pytestmark = pytest.mark.service

OTHER_KEY = b"not the 101 test server's key..."
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
SEED = "okey 101 service round"
ALL_RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"  # a run worth 91
OPENED_1 = [(1, "B1 B2 B3")]  # seat 1 opened in an earlier turn: meld 0

DRAW = game_pb2.MOVE_KIND_DRAW_FROM_WALL
TAKE = game_pb2.MOVE_KIND_TAKE_DISCARD
DISCARD = game_pb2.MOVE_KIND_DISCARD
RETURN = game_pb2.MOVE_KIND_RETURN_DISCARD
OPEN = game_pb2.MOVE_KIND_OPEN
LAY_MELD = game_pb2.MOVE_KIND_LAY_MELD
LAY_OFF = game_pb2.MOVE_KIND_LAY_OFF
TAKE_BACK = game_pb2.MOVE_KIND_TAKE_BACK


class Services:
    def __init__(self, channel: grpc.Channel) -> None:
        self.table = Table(channel)
        self.scoring = scoring_pb2_grpc.ScoringServiceStub(channel)

    def apply(self, state: State101 | Position | bytes,
              move: Move | game_pb2.Move) -> game_pb2.ApplyMoveResponse:
        """ApplyMove of an engine move (converted by the tests) or a message, on an arranged
        position (sealed here) or a state the server issued."""
        token = signed(state) if isinstance(state, State101) else token_of(state)
        return self.table.apply(token, pb_move(move) if isinstance(move, Move) else move)

    def play(self, state: Position | bytes, move: Move | game_pb2.Move
             ) -> game_pb2.ApplyMoveResponse:
        answer = self.apply(state, move)
        assert answer.legal, (move, game_pb2.IllegalReason.Name(answer.reason), answer.message)
        return answer

    def score(self, state: State101 | Position | bytes,
              **fields: object) -> scoring_pb2.ScoreRoundResponse:
        token = signed(state) if isinstance(state, State101) else token_of(state)
        request = scoring_pb2.ScoreRoundRequest(
            round=scoring_pb2.RoundInput(state=token), **fields  # type: ignore[arg-type]
        )
        return self.scoring.ScoreRound(request)


@pytest.fixture
def svc(make_server) -> Iterator[Services]:
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
        yield Services(channel)


def invalid(call: object, request: object) -> tuple[str, str]:
    """The one field an INVALID_ARGUMENT answer names, and its ErrorInfo reason."""
    with pytest.raises(grpc.RpcError) as raised:
        call(request)  # type: ignore[operator]
    violation = decode_error(raised.value)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    (field,) = violation.fields
    return field, violation.reason


def kinds(answer: game_pb2.ApplyMoveResponse) -> list[int]:
    return [event.kind for event in answer.events]


def faces(meld: game_pb2.TableMeld) -> list[str]:
    """What each tile of a table meld stands for, in order."""
    return [notation_of(placed.stands_for) for placed in meld.tiles]


# --- the deal and a whole round ----------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 2])
def test_deal_with_preset_101_starts_an_okey_101_round(svc: Services, dealer: int) -> None:
    """§10.1: the 101 preset deals an Okey 101 round: the dealer 22 tiles, the others 21,
    the bank 20; the dealer opens by discarding; nobody has opened."""
    state = svc.table.deal(SEED, preset="101", dealer_seat=dealer)
    assert state.status.game == ruleset_pb2.GAME_OKEY_101
    assert not svc.table.view(state, 0).ruleset.runs_13_to_1
    assert (state.turn_seat, state.phase) == (dealer, state_pb2.PHASE_FIRST_DISCARD)
    assert isinstance(engine(state), State101)
    for seat in range(4):
        view = svc.table.view(state, seat)
        assert len(view.rack) == (22 if seat == dealer else 21)
        assert view.wall_size == 20
        assert list(view.table) == []
        assert [s.rack_size for s in view.seats] == [22 if s == dealer else 21 for s in range(4)]
        assert all(s.opened == game_pb2.OPENED_UNSPECIFIED and not s.penalties for s in view.seats)
    kinds_offered = {m.kind for m in svc.table.legal(state, dealer)}
    assert kinds_offered == {DISCARD}


def test_a_whole_round_played_through_apply_move_to_the_banks_end(svc: Services) -> None:
    """§10.1, §10.6: the dealer's discard, then 20 turns of draw and discard until the
    bank is empty: the round ends with nobody finished; every draw is private to its
    drawer, every discard public; nobody moves afterwards."""
    played = play_101_round(svc.table, svc.table.deal(SEED, preset="101", dealer_seat=1))
    final = played.final
    assert len(played.moves) == 1 + 2 * 20
    assert final.phase == state_pb2.PHASE_ROUND_OVER
    assert final.outcome.drawn
    assert not final.outcome.void_round
    assert svc.table.view(final, 0).wall_size == 0
    draws = [e for e in played.events if e.kind == game_pb2.EVENT_KIND_DREW_FROM_WALL]
    discards = [e for e in played.events if e.kind == game_pb2.EVENT_KIND_DISCARDED]
    assert len(draws) == 20
    assert all(e.private and e.HasField("tile") for e in draws)
    assert len(discards) == 21
    assert not any(e.private for e in discards)
    assert played.events[-1].kind == game_pb2.EVENT_KIND_ROUND_DRAWN
    assert game_pb2.EVENT_KIND_PENALTY not in [e.kind for e in played.events]
    over = engine(final)
    places = [c for s in over.seats for c in (*s.rack, *s.discards)]
    assert sorted([*places, *over.wall, over.indicator]) == list(range(TILE_COUNT))
    for seat in range(4):
        assert svc.table.legal(final, seat) == []
        assert svc.table.view(final, seat).outcome.drawn
    answer = svc.table.apply(final, game_pb2.Move(kind=DRAW, seat=final.turn_seat))
    assert (answer.legal, answer.reason) == (False, game_pb2.ILLEGAL_REASON_ROUND_OVER)


# --- a round where a seat opens, lays off, takes back and finishes ----------------------------


def _opening_position() -> State101:
    """Seat 1 to draw K5, holding the red run, Y3 Y4 Y5, the okey K1, B9 B10 B12 and K7; the
    bank then gives K8, K9, B11 to seats 2, 3 and 0. Dealer 3."""
    return arranged({1: f"{ALL_RED} Y3 Y4 Y5 K1 B9 B10 B12 K7"}, wall="K5 K8 K9 B11",
                    dealer=3)


def _opening_round(svc: Services) -> list[tuple[game_pb2.Move, game_pb2.ApplyMoveResponse]]:
    """The round from `_opening_position`, every move through ApplyMove: seat 1 opens with
    103, lays the okey off as Y6, takes it back, lays it off as Y2 and discards K7; seats
    2, 3, 0 draw and discard; seat 1 takes B11, lays B9-B12 and finishes with K5."""
    position = _opening_position()
    steps: list[tuple[game_pb2.Move, game_pb2.ApplyMoveResponse]] = []
    state = signed(position)

    def play(move: Move | game_pb2.Move) -> State101:
        nonlocal state
        message = pb_move(move) if isinstance(move, Move) else move
        answer = svc.play(state, message)
        steps.append((message, answer))
        state = answer.state
        return engine(state)

    now = play(Move(MoveKind.DRAW_FROM_WALL, 1))
    now = play(open_melds(now, ALL_RED, "Y3 Y4 Y5"))
    now = play(lay_off(now, "K1", 1, face="Y6"))
    now = play(Move(MoveKind.TAKE_BACK, 1))
    now = play(lay_off(now, "K1", 1, face="Y2"))
    now = play(Move(MoveKind.DISCARD, 1, one(now, 1, "K7")))
    for seat in (2, 3, 0):
        now = play(Move(MoveKind.DRAW_FROM_WALL, seat))
        drawn = steps[-1][1].events[0].tile
        now = play(game_pb2.Move(kind=DISCARD, seat=seat, tile=drawn))
    now = play(Move(MoveKind.TAKE_DISCARD, 1))
    now = play(lay_meld(now, "B9 B10 B11 B12"))
    play(Move(MoveKind.DISCARD, 1, one(now, 1, "K5")))
    return steps


def test_a_seat_opens_lays_off_takes_back_and_finishes_through_grpc(svc: Services) -> None:
    """§10.2-§10.6 through ApplyMove: OPEN with MeldPlay/LaidTile messages, LAY_OFF of an
    okey with stands_for, a one-tile TAKE_BACK (free), TAKE_DISCARD, LAY_MELD using the
    taken tile, and the finishing discard; each answer's events and the views after it."""
    steps = _opening_round(svc)
    events = [kinds(answer) for _, answer in steps]
    assert events == [
        [game_pb2.EVENT_KIND_DREW_FROM_WALL],
        [game_pb2.EVENT_KIND_OPENED],
        [game_pb2.EVENT_KIND_LAID_OFF],
        [game_pb2.EVENT_KIND_TOOK_BACK],
        [game_pb2.EVENT_KIND_LAID_OFF],
        [game_pb2.EVENT_KIND_DISCARDED],
        *[[game_pb2.EVENT_KIND_DREW_FROM_WALL], [game_pb2.EVENT_KIND_DISCARDED]] * 3,
        [game_pb2.EVENT_KIND_TOOK_DISCARD],
        [game_pb2.EVENT_KIND_LAID_MELD],
        [game_pb2.EVENT_KIND_DISCARDED, game_pb2.EVENT_KIND_ROUND_WON],
    ]
    (opened,) = steps[1][1].events
    assert (opened.seat, opened.meld, len(opened.tiles)) == (1, 0, 16)
    view = svc.table.view(steps[1][1].state, 0)
    assert view.seats[1].opened == game_pb2.OPENED_MELDS
    assert [(m.index, m.owner_seat, m.kind, m.value) for m in view.table] == [
        (0, 1, hand_pb2.MELD_KIND_RUN, 91), (1, 1, hand_pb2.MELD_KIND_RUN, 12),
    ]
    (laid_off,) = steps[2][1].events
    assert (laid_off.meld, notation_of(laid_off.tile)) == (1, "K1")
    okey_as_y6 = svc.table.view(steps[2][1].state, 2).table[1]
    assert faces(okey_as_y6) == ["Y3", "Y4", "Y5", "Y6"]
    assert [p.wild for p in okey_as_y6.tiles] == [False, False, False, True]
    assert okey_as_y6.value == 18
    (took_back,) = steps[3][1].events
    assert [notation_of(t) for t in took_back.tiles] == ["K1"]
    back = svc.table.view(steps[3][1].state, 1)
    assert faces(back.table[1]) == ["Y3", "Y4", "Y5"]
    assert list(back.seats[1].penalties) == [], "one tile comes back free"
    okey_as_y2 = svc.table.view(steps[4][1].state, 3).table[1]
    assert faces(okey_as_y2) == ["Y2", "Y3", "Y4", "Y5"]
    assert notation_of(okey_as_y2.tiles[0].tile) == "K1"
    (took,) = steps[12][1].events
    assert (took.seat, took.from_seat, notation_of(took.tile)) == (1, 0, "B11")
    assert notation_of(svc.table.view(steps[12][1].state, 2).taken_discard) == "B11"
    (laid,) = steps[13][1].events
    assert (laid.meld, [notation_of(t) for t in laid.tiles]) == (2, ["B9", "B10", "B11", "B12"])
    assert not svc.table.view(steps[13][1].state, 2).HasField("taken_discard")
    final = steps[-1][1].state
    assert steps[-1][1].status.phase == state_pb2.PHASE_ROUND_OVER
    assert steps[-1][1].status.outcome.winner_seat == 1
    outcome = svc.table.view(final, 0).outcome
    assert (outcome.drawn, outcome.winner_seat, outcome.okey_discard) == (False, 1, False)
    assert not outcome.one_turn_finish, "seat 1 opened in an earlier turn"


def test_a_pairs_opening_taken_back_costs_101(svc: Services) -> None:
    """§10.2, §10.5: OPEN with pairs lays five pairs; taking the opening back (several
    tiles) costs the 101 penalty, an event and a mark on the seat's view."""
    pairs = ("R7 R7", "Y7 Y7", "B7 B7", "K7 K7", "R9 R9")
    position = arranged({1: " ".join(pairs)}, phase=Phase.DISCARD)
    opened = svc.play(position, open_melds(position, *pairs, pairs=True))
    view = svc.table.view(opened.state, 0)
    assert view.seats[1].opened == game_pb2.OPENED_PAIRS
    assert [m.kind for m in view.table] == [hand_pb2.MELD_KIND_PAIR] * 5
    assert [faces(m) for m in view.table] == [p.split() for p in pairs]
    back = svc.play(opened.state, game_pb2.Move(kind=TAKE_BACK, seat=1))
    assert kinds(back) == [game_pb2.EVENT_KIND_TOOK_BACK, game_pb2.EVENT_KIND_PENALTY]
    penalty = back.events[1]
    assert (penalty.seat, penalty.penalty, penalty.points) == (
        1, game_pb2.PENALTY_TOOK_BACK_SEVERAL, 101
    )
    undone = svc.table.view(back.state, 2)
    assert list(undone.table) == []
    assert undone.seats[1].opened == game_pb2.OPENED_UNSPECIFIED
    assert list(undone.seats[1].penalties) == [game_pb2.PENALTY_TOOK_BACK_SEVERAL]


def test_only_the_last_tile_placed_comes_back_free_across_calls(svc: Services) -> None:
    """§10.5 several tiles laid and taken back, one ApplyMove at a time: R5, R6 and Y4 laid
    off and taken back; Y4 (the last placed) comes back free, R6 costs 101 (the event and
    the seat's view say so) and R5 nothing more (once a turn). The state's record of the
    tiles taken back is decoded in test_convert_state101.py (this in-process server would
    find these states in its cache of the ones it issued)."""
    position = arranged({1: "R5 R6 Y4 K12"}, phase=Phase.DISCARD,
                        table=[*OPENED_1, (2, "R2 R3 R4"), (3, "Y5 Y6 Y7")])
    state = signed(position)
    for word, meld in (("R5", 1), ("R6", 1), ("Y4", 2)):
        state = svc.play(state, lay_off(engine(state), word, meld)).state
    answers = []
    for _ in range(3):
        answers.append(svc.play(state, game_pb2.Move(kind=TAKE_BACK, seat=1)))
        state = answers[-1].state
    assert [[notation_of(t) for t in a.events[0].tiles] for a in answers] == [
        ["Y4"], ["R6"], ["R5"]
    ]
    assert [kinds(a) for a in answers] == [
        [game_pb2.EVENT_KIND_TOOK_BACK],
        [game_pb2.EVENT_KIND_TOOK_BACK, game_pb2.EVENT_KIND_PENALTY],
        [game_pb2.EVENT_KIND_TOOK_BACK],
    ]
    assert answers[1].events[1].penalty == game_pb2.PENALTY_TOOK_BACK_SEVERAL
    view = svc.table.view(state, 0)
    assert list(view.seats[1].penalties) == [game_pb2.PENALTY_TOOK_BACK_SEVERAL]


def test_a_taken_discard_returned_for_a_bank_tile(svc: Services) -> None:
    """§10.4: RETURN_DISCARD puts the taken tile back on the previous seat's pile and draws
    the bank's next tile, free: two events, the draw private."""
    position = arranged({1: "B4 K12"}, table=OPENED_1, discards={0: "Y6"}, wall="K8")
    took = svc.play(position, Move(MoveKind.TAKE_DISCARD, 1))
    assert notation_of(svc.table.view(took.state, 3).taken_discard) == "Y6"
    returned = svc.play(took.state, game_pb2.Move(kind=RETURN, seat=1))
    assert kinds(returned) == [
        game_pb2.EVENT_KIND_RETURNED_DISCARD, game_pb2.EVENT_KIND_DREW_FROM_WALL
    ]
    back, drew = returned.events
    assert (back.seat, back.from_seat, notation_of(back.tile), back.private) == (1, 0, "Y6", False)
    assert (drew.seat, notation_of(drew.tile), drew.private) == (1, "K8", True)
    view = svc.table.view(returned.state, 1)
    assert notation_of(view.seats[0].discards[-1]) == "Y6"
    assert not view.HasField("taken_discard")
    assert "K8" in [notation_of(t) for t in view.rack]


def test_a_failed_opening_is_a_legal_move_with_a_penalty_event(svc: Services) -> None:
    """§10.2, §10.5: an opening under 101 is not refused: nothing is laid and the seat pays
    101, an event of the answer."""
    position = arranged({1: "R10 R11 R12 R13 Y10 Y11 Y12 Y13"}, phase=Phase.DISCARD)
    answer = svc.play(position, open_melds(position, "R10 R11 R12 R13", "Y10 Y11 Y12 Y13"))
    assert kinds(answer) == [game_pb2.EVENT_KIND_PENALTY]
    (penalty,) = answer.events
    assert (penalty.penalty, penalty.points) == (game_pb2.PENALTY_FAILED_OPENING, 101)
    view = svc.table.view(answer.state, 1)
    assert view.seats[1].opened == game_pb2.OPENED_UNSPECIFIED
    assert len(view.rack) == 22


def test_the_events_that_end_a_101_round_carry_its_outcome(svc: Services) -> None:
    """game.proto Event.outcome: ROUND_WON, ROUND_DRAWN and ROUND_VOID carry the outcome."""
    won = _opening_round(svc)[-1][1].events[-1]
    assert won.HasField("outcome")
    assert (won.outcome.winner_seat, won.outcome.drawn) == (1, False)
    played = play_101_round(svc.table, svc.table.deal(SEED, preset="101"))
    drawn = played.events[-1]
    assert drawn.HasField("outcome")
    assert drawn.outcome.drawn


# --- every 101 reason a move is refused --------------------------------------------------------


def refused(svc: Services, state: State101 | Position | bytes,
            move: Move | game_pb2.Move, reason: int) -> None:
    """An illegal 101 move is an answer: legal false, its reason, a message, no state, status
    or events."""
    answer = svc.apply(state, move)
    assert not answer.legal
    assert answer.reason == reason, game_pb2.IllegalReason.Name(answer.reason)
    assert answer.message
    assert answer.state == b""
    assert not answer.HasField("status")
    assert not answer.events


def test_101_round_over(svc: Services) -> None:
    over = finish(arranged({1: "Y7 Y8 Y9 R2"}, phase=Phase.DISCARD, table=OPENED_1),
                  "Y7 Y8 Y9", last="R2")
    refused(svc, over, Move(MoveKind.DRAW_FROM_WALL, 2), game_pb2.ILLEGAL_REASON_ROUND_OVER)


def test_101_not_your_turn(svc: Services) -> None:
    state = svc.table.deal(SEED, preset="101", dealer_seat=0)
    other = svc.table.view(state, 1).rack[0]
    refused(svc, state, game_pb2.Move(kind=DISCARD, seat=1, tile=other),
            game_pb2.ILLEGAL_REASON_NOT_YOUR_TURN)


def test_101_must_draw_first(svc: Services) -> None:
    state = arranged()
    refused(svc, state, Move(MoveKind.DISCARD, 1, state.seats[1].rack[0]),
            game_pb2.ILLEGAL_REASON_MUST_DRAW_FIRST)


def test_101_must_discard_first(svc: Services) -> None:
    state = svc.table.deal(SEED, preset="101", dealer_seat=2)
    refused(svc, state, game_pb2.Move(kind=DRAW, seat=2),
            game_pb2.ILLEGAL_REASON_MUST_DISCARD_FIRST)


def test_101_tile_not_in_rack(svc: Services) -> None:
    state = arranged({1: "R5", 2: "R6"}, phase=Phase.DISCARD)
    refused(svc, state, Move(MoveKind.DISCARD, 1, one(state, 2, "R6")),
            game_pb2.ILLEGAL_REASON_TILE_NOT_IN_RACK)


def test_101_wall_empty(svc: Services) -> None:
    state = arranged(discards={0: "Y6"}, wall_size=0)
    refused(svc, state, Move(MoveKind.DRAW_FROM_WALL, 1),
            game_pb2.ILLEGAL_REASON_WALL_EMPTY)


def test_101_not_opened(svc: Services) -> None:
    state = arranged({1: "Y7 Y8 Y9 R8"}, phase=Phase.DISCARD, table=[(2, "R5 R6 R7")])
    refused(svc, state, lay_meld(state, "Y7 Y8 Y9"), game_pb2.ILLEGAL_REASON_NOT_OPENED)
    refused(svc, state, lay_off(state, "R8", 0), game_pb2.ILLEGAL_REASON_NOT_OPENED)


def test_101_already_opened(svc: Services) -> None:
    runs = ("R10 R11 R12 R13", "Y10 Y11 Y12 Y13", "R3 Y3 K3")
    state = arranged({1: f"{' '.join(runs)} K12"}, phase=Phase.DISCARD, table=OPENED_1)
    refused(svc, state, open_melds(state, *runs), game_pb2.ILLEGAL_REASON_ALREADY_OPENED)


def test_101_invalid_meld(svc: Services) -> None:
    """A group that is no set or run, or an okey's stands_for that does not fit."""
    state = arranged({1: "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B3 Y3 K4 K1"}, phase=Phase.DISCARD)
    refused(svc, state, open_melds(state, "R10 R11 R12 R13", "Y10 Y11 Y12 Y13", "B3 Y3 K4"),
            game_pb2.ILLEGAL_REASON_INVALID_MELD)
    refused(svc, state, open_melds(state, "R10 R11 R12 R13", "Y10 Y11 Y12 Y13", "B3 Y3 K1=Y3"),
            game_pb2.ILLEGAL_REASON_INVALID_MELD)


def test_101_taken_discard_not_used(svc: Services) -> None:
    state = take(arranged({1: "R3"}, discards={0: "Y3"}))
    refused(svc, state, Move(MoveKind.DISCARD, 1, one(state, 1, "R3")),
            game_pb2.ILLEGAL_REASON_TAKEN_DISCARD_NOT_USED)


def test_101_no_discard_to_return(svc: Services) -> None:
    state = draw(arranged(table=OPENED_1, discards={0: "Y6"}))
    refused(svc, state, Move(MoveKind.RETURN_DISCARD, 1),
            game_pb2.ILLEGAL_REASON_NO_DISCARD_TO_RETURN)


def test_101_nothing_to_take_back(svc: Services) -> None:
    state = arranged(phase=Phase.DISCARD, table=OPENED_1)
    refused(svc, state, Move(MoveKind.TAKE_BACK, 1),
            game_pb2.ILLEGAL_REASON_NOTHING_TO_TAKE_BACK)


def test_101_no_such_meld(svc: Services) -> None:
    state = arranged({1: "B4 K12"}, phase=Phase.DISCARD, table=OPENED_1)
    refused(svc, state, lay_off(state, "B4", 1), game_pb2.ILLEGAL_REASON_NO_SUCH_MELD)


def test_101_cannot_lay_off(svc: Services) -> None:
    """A tile that does not extend the meld; an okey's stands_for that does not either."""
    state = arranged({1: "B5 K1 K12"}, phase=Phase.DISCARD, table=OPENED_1)
    refused(svc, state, lay_off(state, "B5", 0), game_pb2.ILLEGAL_REASON_CANNOT_LAY_OFF)
    refused(svc, state, lay_off(state, "K1", 0, face="B5"),
            game_pb2.ILLEGAL_REASON_CANNOT_LAY_OFF)


def test_101_pairs_opener_lays_no_melds(svc: Services) -> None:
    state = arranged({1: "R7 Y7 B7 K12"}, phase=Phase.DISCARD,
                     table=[(1, p) for p in ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6")])
    refused(svc, state, lay_meld(state, "R7 Y7 B7"),
            game_pb2.ILLEGAL_REASON_PAIRS_OPENER_LAYS_NO_MELDS)


def test_101_must_keep_a_tile(svc: Services) -> None:
    state = arranged({1: "Y7 Y8 Y9"}, phase=Phase.DISCARD, table=OPENED_1)
    refused(svc, state, lay_meld(state, "Y7 Y8 Y9"), game_pb2.ILLEGAL_REASON_MUST_KEEP_A_TILE)


def test_101_discard_pile_empty(svc: Services) -> None:
    refused(svc, arranged(), Move(MoveKind.TAKE_DISCARD, 1),
            game_pb2.ILLEGAL_REASON_DISCARD_PILE_EMPTY)


def test_101_lay_off_cap_reached(svc: Services) -> None:
    """§10.8 option lay_off_cap: a third tile onto one end of a meld in one turn."""
    state = with_rules(arranged({1: "R8 R9 R10 K12"}, phase=Phase.DISCARD,
                                table=[*OPENED_1, (2, "R5 R6 R7")]), lay_off_cap=True)
    state = after(state, lay_off(state, "R8", 1))
    state = after(state, lay_off(state, "R9", 1))
    refused(svc, state, lay_off(state, "R10", 1), game_pb2.ILLEGAL_REASON_LAY_OFF_CAP_REACHED)


def test_every_101_illegal_reason_is_answered_through_grpc() -> None:
    """Each reason the 101 engine gives (IllegalReason) is an IllegalReason of the contract
    and has its test above, named test_101_<reason>."""
    names = {value.name for value in game_pb2.IllegalReason.DESCRIPTOR.values}
    assert [r.name for r in IllegalReason if f"ILLEGAL_REASON_{r.name}" not in names] == []
    missing = [r.name for r in OKEY_101_REASONS if f"test_101_{r.name.lower()}" not in globals()]
    assert missing == []


# --- what a seat sees and may do ---------------------------------------------------------------


def _viewed_position() -> State101:
    """Seat 2 opened with R5 okey(R6) R7 and paid a penalty; seat 0 opened with pairs; seat 1
    took seat 0's discard Y6 and has not laid it yet."""
    state = arranged({1: "R8 Y7", 2: "B4 B8 K12"}, discards={0: "K2 Y6"},
                     table=[(2, "R5 K1=R6 R7"),
                            *[(0, p) for p in ("Y1 Y1", "Y2 Y2", "B3 B3", "K4 K4", "R11 R11")]])
    return take(penalised(state, 2, Penalty.OKEY_DISCARDED))


def test_player_view_shows_the_table_openings_penalties_and_the_taken_discard(
    svc: Services,
) -> None:
    """§10.3-§10.5, §8.7: every seat sees the table (each tile with the face it stands
    for), each seat's opening and penalties and the discard taken; its own rack, only
    counts of the others, never a tile of another rack (the taken discard is public)."""
    position = _viewed_position()
    message = signed(position)
    taken = position.taken
    assert taken is not None
    for seat in range(4):
        view = svc.table.view(message, seat)
        assert codes_of(view.rack) == list(position.seats[seat].rack)
        assert [s.rack_size for s in view.seats] == [len(s.rack) for s in position.seats]
        run = view.table[0]
        assert (run.index, run.owner_seat, run.kind, run.value) == (
            0, 2, hand_pb2.MELD_KIND_RUN, 18
        )
        assert [notation_of(p.tile) for p in run.tiles] == ["R5", "K1", "R7"]
        assert faces(run) == ["R5", "R6", "R7"]
        assert [p.wild for p in run.tiles] == [False, True, False]
        assert [m.kind for m in view.table[1:]] == [hand_pb2.MELD_KIND_PAIR] * 5
        assert [s.opened for s in view.seats] == [
            game_pb2.OPENED_PAIRS, game_pb2.OPENED_UNSPECIFIED,
            game_pb2.OPENED_MELDS, game_pb2.OPENED_UNSPECIFIED,
        ]
        assert [list(s.penalties) for s in view.seats] == [
            [], [], [game_pb2.PENALTY_OKEY_DISCARDED], []
        ]
        assert code_of(view.taken_discard) == taken
        shown = [code_of(view.taken_discard), code_of(view.indicator),
                 *(c for s in view.seats for c in codes_of(s.discards)),
                 *(code_of(p.tile) for m in view.table for p in m.tiles)]
        for other in range(4):
            if other != seat:
                hidden = set(position.seats[other].rack) - {taken}
                assert not hidden & set(shown), (seat, other)
    assert invalid(svc.table.games.PlayerView,
                   game_pb2.PlayerViewRequest(state=message, seat=4)) == (
        "seat", "ERROR_REASON_INVALID_MOVE"
    )


def _offered(svc: Services, state: State101, seat: int) -> set[tuple[int, int, int, int]]:
    moves = svc.table.legal(signed(state), seat)
    assert all(m.seat == seat for m in moves)
    return {(m.kind, m.seat, code_of(m.tile) if m.HasField("tile") else -1, m.meld)
            for m in moves}


def _engine_offers(state: State101, seat: int) -> set[tuple[int, int, int, int]]:
    moves = [pb_move(m) for m in legal_moves_101(state, seat)]
    return {(m.kind, m.seat, code_of(m.tile) if m.HasField("tile") else -1, m.meld)
            for m in moves}


def test_legal_moves_for_101(svc: Services) -> None:
    """Every move but openings and new melds: a draw or a take; then the lay-offs that fit,
    TAKE_BACK after laying, RETURN_DISCARD with a taken tile unlaid, and the discards (none
    while the taken tile waits); nothing for a seat not on turn or a round over."""
    to_draw = arranged({1: "B4 K12"}, table=OPENED_1, discards={0: "Y6"})
    assert {k for k, *_ in _offered(svc, to_draw, 1)} == {DRAW, TAKE}
    assert {k for k, *_ in _offered(svc, arranged(), 1)} == {DRAW}, "seat 0's pile is empty"
    assert _offered(svc, to_draw, 2) == set()

    took = take(to_draw)
    offered = _offered(svc, took, 1)
    assert offered == _engine_offers(took, 1)
    assert {k for k, *_ in offered} == {RETURN, LAY_OFF}
    assert (LAY_OFF, 1, one(took, 1, "B4"), 0) in offered

    drawn = draw(to_draw)
    offered = _offered(svc, drawn, 1)
    assert offered == _engine_offers(drawn, 1)
    assert {k for k, *_ in offered} == {LAY_OFF, DISCARD}
    assert {t for k, _, t, _ in offered if k == DISCARD} == set(drawn.seats[1].rack)

    laid = after(drawn, lay_off(drawn, "B4", 0))
    offered = _offered(svc, laid, 1)
    assert offered == _engine_offers(laid, 1)
    assert TAKE_BACK in {k for k, *_ in offered}
    for kind, seat, tile, meld in sorted(offered):
        move = game_pb2.Move(kind=kind, seat=seat, meld=meld)  # type: ignore[arg-type]
        if tile >= 0:
            move.tile.CopyFrom(pb_code(tile))
        assert svc.apply(laid, move).legal, move

    over = finish(arranged({1: "Y7 Y8 Y9 R2"}, phase=Phase.DISCARD, table=OPENED_1),
                  "Y7 Y8 Y9", last="R2")
    assert all(_offered(svc, over, seat) == set() for seat in range(4))


# --- replays and signed states -----------------------------------------------------------------


def logged(moves: list[game_pb2.Move]) -> list[game_pb2.LoggedMove]:
    return [game_pb2.LoggedMove(move=m) for m in moves]


def test_replay_of_a_101_log_from_its_seeded_deal_reaches_the_same_signed_state(
    svc: Services,
) -> None:
    """A 101 round's move log replayed from its seeded deal (or its opening state) gives
    the same signed state and the same events."""
    deal = deal_pb2.DealRequest(seed=SEED, preset="101", dealer_seat=3)
    played = play_101_round(svc.table, svc.table.deal(SEED, preset="101", dealer_seat=3))
    answer = svc.table.games.Replay(game_pb2.ReplayRequest(deal=deal, moves=logged(played.moves)))
    assert answer.legal
    assert answer.moves_applied == len(played.moves)
    assert answer.state == played.final.token
    assert answer.status == played.final.status
    assert list(answer.events) == played.events
    from_state = svc.table.games.Replay(
        game_pb2.ReplayRequest(state=played.states[0].token, moves=logged(played.moves))
    )
    assert from_state.state == played.final.token


def test_replay_of_a_101_log_with_melds_reaches_the_same_signed_state(svc: Services) -> None:
    """Openings, lay-offs with stands_for, take-backs and new melds replay as they played."""
    steps = _opening_round(svc)
    answer = svc.table.games.Replay(game_pb2.ReplayRequest(
        state=signed(_opening_position()), moves=logged([move for move, _ in steps])
    ))
    assert answer.legal
    assert answer.state == steps[-1][1].state
    assert list(answer.events) == [e for _, played in steps for e in played.events]


def test_replay_names_the_first_illegal_101_move(svc: Services) -> None:
    steps = _opening_round(svc)
    log = logged([move for move, _ in steps])
    log[4].move.stands_for.CopyFrom(tile_pb2.Tile(color=tile_pb2.COLOR_YELLOW, number=9))
    answer = svc.table.games.Replay(
        game_pb2.ReplayRequest(state=signed(_opening_position()), moves=log)
    )
    assert not answer.legal
    assert (answer.illegal_index, answer.moves_applied) == (4, 4)
    assert answer.reason == game_pb2.ILLEGAL_REASON_CANNOT_LAY_OFF
    assert answer.message
    assert answer.state == steps[3][1].state


# The token's layout (sealing): version byte, 4-byte key id, then the sealed body.
BODY_START = 5


@pytest.mark.parametrize("where", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_a_tampered_101_state_is_refused(svc: Services, where: float) -> None:
    """A 101 state changed after sealing (one bit anywhere in its sealed body: openings,
    penalties, table okeys, the taken discard and racks are all inside) is
    INVALID_ARGUMENT on state, INVALID_STATE; the untouched token plays."""
    token = signed(_viewed_position())
    index = BODY_START + round(where * (len(token) - BODY_START - 1))
    changed = bytearray(token)
    changed[index] ^= 0x10
    request = game_pb2.ApplyMoveRequest(state=bytes(changed),
                                        move=game_pb2.Move(kind=RETURN, seat=1))
    assert invalid(svc.table.games.ApplyMove, request) == ("state", "ERROR_REASON_INVALID_STATE")
    assert svc.table.apply(token, game_pb2.Move(kind=RETURN, seat=1)).legal


def test_a_101_state_sealed_with_another_key_is_refused(svc: Services) -> None:
    """The same 101 state sealed under another key: UNKNOWN_KEY on state."""
    foreign = state_token(_viewed_position(), OTHER_KEY)
    request = game_pb2.PlayerViewRequest(state=foreign, seat=0)
    assert invalid(svc.table.games.PlayerView, request) == ("state", "ERROR_REASON_UNKNOWN_KEY")


@pytest.mark.parametrize("kind", [
    game_pb2.MOVE_KIND_DECLARE_WIN,
    game_pb2.MOVE_KIND_GOSTERME,
    game_pb2.MOVE_KIND_END_ROUND,
    game_pb2.MOVE_KIND_TIMEOUT,
])
def test_a_classic_only_move_kind_in_a_101_state_is_invalid_argument(
    svc: Services, kind: int
) -> None:
    """Declaring a win, gösterme, ending the round and timeouts are classic moves: in a
    101 state they are INVALID_ARGUMENT on move.kind (in a replay, on moves[i].move.kind)."""
    state = signed(arranged({1: "R2"}, phase=Phase.DISCARD))
    move = game_pb2.Move(kind=kind, seat=1, tile=pb_code(one(engine(state), 1, "R2")))  # type: ignore[arg-type]
    if kind != game_pb2.MOVE_KIND_DECLARE_WIN:
        move.ClearField("tile")
    request = game_pb2.ApplyMoveRequest(state=state, move=move)
    assert invalid(svc.table.games.ApplyMove, request) == (
        "move.kind", "ERROR_REASON_INVALID_MOVE"
    )
    replay = game_pb2.ReplayRequest(state=state, moves=logged([move]))
    assert invalid(svc.table.games.Replay, replay)[0] == "moves[0].move.kind"


def _meld_move(stands_for: tile_pb2.Tile | None = None,
               tile: tile_pb2.Tile | None = None) -> game_pb2.Move:
    """An OPEN of seat 1 in `_malformed_position`, with the okey's stands_for or the first
    tile replaced."""
    state = _malformed_position()
    move = pb_move(open_melds(state, "R10 R11 R12 R13", "Y10 Y11 K1 Y13", "B3 Y3 K3"))
    if stands_for is not None:
        move.melds[1].tiles[2].stands_for.CopyFrom(stands_for)
    if tile is not None:
        move.melds[0].tiles[0].tile.CopyFrom(tile)
    return move


def _malformed_position() -> State101:
    return arranged({1: "R10 R11 R12 R13 Y10 Y11 K1 Y13 B3 Y3 K3 B5"}, phase=Phase.DISCARD)


@pytest.mark.parametrize(("move", "field"), [
    (game_pb2.Move(kind=OPEN, seat=1), "move.melds"),
    (game_pb2.Move(kind=LAY_MELD, seat=1), "move.melds"),
    (game_pb2.Move(kind=LAY_OFF, seat=1, meld=0), "move.tile"),
    (game_pb2.Move(kind=DISCARD, seat=1), "move.tile"),
    (game_pb2.Move(kind=DRAW, seat=4), "move.seat"),
    (game_pb2.Move(seat=1), "move.kind"),
    (_meld_move(stands_for=tile_pb2.Tile(false_joker=True)), "move.melds[1].tiles[2].stands_for"),
    (_meld_move(tile=tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=14)),
     "move.melds[0].tiles[0].tile.number"),
    (game_pb2.Move(kind=LAY_OFF, seat=1, tile=tile_pb2.Tile(color=tile_pb2.COLOR_BLUE, number=5),
                   stands_for=tile_pb2.Tile(color=tile_pb2.COLOR_BLUE, number=0)),
     "move.stands_for.number"),
], ids=["open-without-melds", "lay-meld-without-melds", "lay-off-without-tile",
        "discard-without-tile", "no-such-seat", "no-kind", "okey-for-a-false-joker",
        "tile-number-14", "stands-for-number-0"])
def test_a_101_move_no_rule_can_judge_is_invalid_argument(
    svc: Services, move: game_pb2.Move, field: str
) -> None:
    request = game_pb2.ApplyMoveRequest(state=signed(_malformed_position()), move=move)
    assert invalid(svc.table.games.ApplyMove, request) == (field, "ERROR_REASON_INVALID_MOVE")


def test_a_101_draw_naming_a_tile_is_invalid_argument(svc: Services) -> None:
    state = signed(arranged())
    move = game_pb2.Move(kind=DRAW, seat=1, tile=tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=3))
    request = game_pb2.ApplyMoveRequest(state=state, move=move)
    assert invalid(svc.table.games.ApplyMove, request) == ("move.tile", "ERROR_REASON_INVALID_MOVE")


# --- scoring 101 states (§10.7) ----------------------------------------------------------------


def _rules(answer: scoring_pb2.ScoreRoundResponse) -> list[int]:
    return [line.rule for line in answer.lines]


def test_score_round_of_a_finished_101_state_names_the_next_deal(svc: Services) -> None:
    """§10.7: the round played above: seat 1 finished (-101), nobody else opened (202
    each); the next round is dealt by the seat after the dealer (3, so 0), numbered one
    more."""
    final = _opening_round(svc)[-1][1].state
    answer = svc.score(final)
    assert list(answer.deltas) == [202, -101, 202, 202]
    assert list(answer.table.scores) == [202, -101, 202, 202]
    assert answer.table.rounds_played == 1
    assert _rules(answer) == [scoring_pb2.SCORE_RULE_FINISHED,
                              *[scoring_pb2.SCORE_RULE_NEVER_OPENED] * 3]
    assert answer.ruleset.game == ruleset_pb2.GAME_OKEY_101
    assert (answer.next_dealer_seat, answer.next_round) == (0, 2)
    assert not answer.game_over


def test_score_round_of_101_doubles_penalties_and_the_next_dealer(svc: Services) -> None:
    """§10.7: an okey-discard finish doubles (-202, 404 never opened, an opened seat's
    tiles x2, a pairs-opener's x4); a penalty 101; dealer 1 of round 4: dealer 2, round 5."""
    position = arranged({1: "Y7 Y8 Y9 K1", 2: "R3 Y11", 3: "B4 Y6"}, phase=Phase.DISCARD,
                        table=[*OPENED_1, (2, "K9 K10 K11"),
                               *[(3, p) for p in ("B5 B5", "R10 R10", "Y12 Y12", "B13 B13",
                                                  "K6 K6")]],
                        dealer=1)
    position = replace(penalised(position, 0, Penalty.FAILED_OPENING), round=4)
    final = finish(position, "Y7 Y8 Y9", last="K1")
    answer = svc.score(final, table=scoring_pb2.TableScores(scores=[10, 20, 30, 40],
                                                            rounds_played=3))
    assert list(answer.deltas) == [404 + 101, -202, 14 * 2, 10 * 4]
    assert list(answer.table.scores) == [515, -182, 58, 80]
    assert scoring_pb2.SCORE_RULE_OKEY_DISCARD in _rules(answer)
    assert scoring_pb2.SCORE_RULE_PENALTY in _rules(answer)
    assert (answer.next_dealer_seat, answer.next_round) == (2, 5)


def test_score_round_of_a_pairs_opener_finish_doubles_its_minus_101(svc: Services) -> None:
    """§10.7 a pairs-opener doubles: seat 1 opened with pairs and finishes: -202 (its own
    -101 doubled), seat 2's 34 points 68, a never-opened seat 404; the line says so."""
    pairs = [(1, p) for p in ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6")]
    position = arranged({1: "Y8 Y8 R2", 2: "R3 Y11 B8 R12"}, phase=Phase.DISCARD,
                        table=[*pairs, (2, "K9 K10 K11")])
    answer = svc.score(finish(position, "Y8 Y8", last="R2"))
    assert list(answer.deltas) == [404, -202, 68, 404]
    finished = [line for line in answer.lines if line.rule == scoring_pb2.SCORE_RULE_FINISHED]
    assert [(line.seat, list(line.deltas)) for line in finished] == [(1, [0, -202, 0, 0])]
    assert (1, 2) in [(line.seat, line.factor) for line in answer.lines
                      if line.rule == scoring_pb2.SCORE_RULE_PAIRS_OPENER]


def _void(dealer: int, round_number: int) -> State101:
    pairs = {0: ("R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"),
             2: ("Y1 Y1", "Y2 Y2", "Y3 Y3", "Y4 Y4", "Y5 Y5"),
             3: ("B1 B1", "B2 B2", "B3 B3", "B4 B4", "B5 B5")}
    sevens = ("R7 R7", "Y7 Y7", "B7 B7", "K7 K7", "R9 R9")
    state = arranged({1: " ".join(sevens)}, phase=Phase.DISCARD, dealer=dealer,
                     table=[(seat, p) for seat, ps in pairs.items() for p in ps])
    over = after(replace(state, round=round_number), open_melds(state, *sevens, pairs=True))
    assert over.outcome is not None
    assert over.outcome.end is RoundEnd.VOID
    return over


def test_score_round_of_a_void_101_round_deals_it_again(svc: Services) -> None:
    """§10.7: a void round scores nothing and is dealt again by the same dealer with the
    same number."""
    answer = svc.score(_void(dealer=2, round_number=3),
                       table=scoring_pb2.TableScores(scores=[5, 6, 7, 8], rounds_played=2))
    assert list(answer.deltas) == [0, 0, 0, 0]
    assert list(answer.table.scores) == [5, 6, 7, 8]
    assert _rules(answer) == [scoring_pb2.SCORE_RULE_VOID_ROUND]
    assert (answer.next_dealer_seat, answer.next_round) == (2, 3)


def test_score_round_of_a_101_round_played_to_the_banks_end(svc: Services) -> None:
    """§10.7: the bank ran out, nobody opened: 202 each (option exhaustion_scores_tiles on
    by default); off, nothing."""
    final = play_101_round(svc.table, svc.table.deal(SEED, preset="101")).final
    answer = svc.score(final.token)
    assert list(answer.deltas) == [202] * 4
    assert _rules(answer) == [scoring_pb2.SCORE_RULE_BANK_EXHAUSTED,
                              *[scoring_pb2.SCORE_RULE_NEVER_OPENED] * 4]
    off = ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101, exhaustion_scores_tiles=False)
    dealt = svc.table.deal(SEED, preset="101", ruleset=off)
    quiet = svc.score(play_101_round(svc.table, dealt).final)
    assert list(quiet.deltas) == [0] * 4


def test_score_game_over_101_states(svc: Services) -> None:
    """§10.7: ScoreGame adds the 101 rounds up (a finish, then a finish with an okey
    discard); after game_rounds the lowest total wins; a round after the end, another
    ruleset or a result given directly are refused."""
    won = with_rules(_opening_won(), game_rounds=2)
    okey_won = with_rules(_opening_won(okey_last=True), game_rounds=2)
    rounds = [scoring_pb2.RoundInput(state=signed(s)) for s in (won, okey_won)]
    answer = svc.scoring.ScoreGame(scoring_pb2.ScoreGameRequest(rounds=rounds))
    assert [list(r.deltas) for r in answer.rounds] == [
        [202, -101, 202, 202], [404, -202, 404, 404],
    ]
    assert list(answer.table.scores) == [606, -303, 606, 606]
    assert answer.table.rounds_played == 2
    assert answer.game_over
    assert list(answer.winner_seats) == [1]
    after_end = scoring_pb2.ScoreGameRequest(rounds=[*rounds, rounds[0]])
    assert invalid(svc.scoring.ScoreGame, after_end) == ("rounds[2]", "ERROR_REASON_INVALID_ROUND")
    other = scoring_pb2.RoundInput(state=signed(_opening_won()))
    mixed = scoring_pb2.ScoreGameRequest(rounds=[rounds[0], other])
    assert invalid(svc.scoring.ScoreGame, mixed) == (
        "rounds[1].state.ruleset", "ERROR_REASON_INVALID_STATE"
    )
    given = scoring_pb2.RoundInput(result=scoring_pb2.RoundResult(winner_seat=1,
                                                                  win_kind=hand_pb2.WIN_KIND_MELDS))
    with_result = scoring_pb2.ScoreGameRequest(rounds=[rounds[0], given])
    assert invalid(svc.scoring.ScoreGame, with_result)[0] == "rounds[1].result"


def _opening_won(okey_last: bool = False) -> State101:
    """Seat 1 opened earlier; it lays Y7 Y8 Y9 and finishes with R2 (or the okey K1)."""
    last = "K1" if okey_last else "R2"
    position = arranged({1: f"Y7 Y8 Y9 {last}"}, phase=Phase.DISCARD, table=OPENED_1)
    return finish(position, "Y7 Y8 Y9", last=last)


@pytest.mark.parametrize(("preset", "ruleset"), [
    ("", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101)),
    ("101", None),
])
def test_a_101_result_given_directly_is_refused_on_ruleset_game(
    svc: Services, preset: str, ruleset: ruleset_pb2.Ruleset | None
) -> None:
    """§10.7: an Okey 101 round is scored from its finished state, never from a result."""
    request = scoring_pb2.ScoreRoundRequest(
        preset=preset, ruleset=ruleset,
        round=scoring_pb2.RoundInput(result=scoring_pb2.RoundResult(
            winner_seat=1, win_kind=hand_pb2.WIN_KIND_MELDS)),
    )
    assert invalid(svc.scoring.ScoreRound, request)[0] == "ruleset.game"


def test_score_round_refuses_a_101_state_in_play_or_a_table_it_cannot_take(
    svc: Services,
) -> None:
    """§10.7: a round still in play; a table of other than four scores; a table whose game
    of game_rounds is over."""
    in_play = scoring_pb2.ScoreRoundRequest(
        round=scoring_pb2.RoundInput(state=signed(arranged(phase=Phase.DISCARD))))
    assert invalid(svc.scoring.ScoreRound, in_play) == ("round.state", "ERROR_REASON_INVALID_STATE")
    final = signed(with_rules(_opening_won(), game_rounds=3))
    three = scoring_pb2.ScoreRoundRequest(
        round=scoring_pb2.RoundInput(state=final),
        table=scoring_pb2.TableScores(scores=[1, 2, 3], rounds_played=1))
    assert invalid(svc.scoring.ScoreRound, three) == ("table.scores", "ERROR_REASON_INVALID_SCORES")
    over = scoring_pb2.ScoreRoundRequest(
        round=scoring_pb2.RoundInput(state=final),
        table=scoring_pb2.TableScores(scores=[1, 2, 3, 4], rounds_played=3))
    assert invalid(svc.scoring.ScoreRound, over) == (
        "table.rounds_played", "ERROR_REASON_INVALID_SCORES"
    )
