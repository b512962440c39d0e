"""One interface for a round of either game, looked up by game: what the server and the
CLI ask instead of asking which game a state belongs to.

`round_for(game)` (or `round_of(state)`, by the state's rules) gives the game's `Round`:
start a round from a deal, apply a move, list a seat's legal moves, a seat's view,
replay a move log, score a finished round and name the next deal. Classic Okey
(okey_rules.play.game) and Okey 101 (okey_rules.play.game101) stand behind it; each
implementation only forwards to its game's functions. The moves, results, events,
outcomes and views are one vocabulary for both games (okey_rules.play.round_types,
results, view_types): only the states are each game's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from okey_rules.dealing.deal_types import Deal
from okey_rules.errors import InvalidInputError
from okey_rules.play.game import apply_move, legal_moves, replay, start_round
from okey_rules.play.game101 import apply_move_101, legal_moves_101, replay_101, start_round_101
from okey_rules.play.game101_types import (
    OKEY_101_EVENTS,
    OKEY_101_MOVES,
    OKEY_101_REASONS,
    State101,
)
from okey_rules.play.game101_view import player_view_101
from okey_rules.play.game_types import (
    CLASSIC_EVENTS,
    CLASSIC_MOVES,
    CLASSIC_REASONS,
    GameState,
)
from okey_rules.play.game_view import player_view
from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind
from okey_rules.play.view_types import PlayerView
from okey_rules.ruleset import Game
from okey_rules.scores.scoring import (
    next_deal,
    result_of_outcome,
    score_round,
    start_table,
    state_seats,
)
from okey_rules.scores.scoring101 import next_deal_101, score_round_101
from okey_rules.scores.scoring_types import RoundScore, Table

RoundState = GameState | State101
# The next round's dealer and number; None once the game is over.
NextDeal = tuple[int, int] | None


class ScoreFields(NamedTuple):
    """The request fields a scoring error is blamed on."""

    state: str  # the round's finished state
    table: str  # the field that set the table's size
    result: str | None = None  # a refused result (a game's round), else score_round's own
RoundResult = MoveResult[RoundState]
RoundReplay = ReplayResult[RoundState]


class Round(Protocol):
    """One game's rules of play. A state given to a method is one of that game's states
    (as `round_of` picks the round); a move, one of that game's moves."""

    game: Game
    moves: frozenset[MoveKind]  # the kinds of move the game has
    reasons: frozenset[IllegalReason]  # why one of its moves can be refused
    events: frozenset[EventKind]  # what its moves can cause

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState: ...

    def apply(self, state: RoundState, move: Move, now_ms: int | None) -> RoundResult: ...

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[Move]: ...

    def view(self, state: RoundState, seat: int) -> PlayerView: ...

    def replay(self, state: RoundState,
               log: Sequence[tuple[Move, int | None]]) -> RoundReplay: ...

    def score(self, state: RoundState, players: int, table: Table | None,
              fields: ScoreFields) -> tuple[RoundScore, NextDeal]:
        """A finished round on the table before it (None: the game's start; `players`
        seats) and the next deal; errors name the request's `fields`."""
        ...


def classic_state(state: RoundState, field: str = "state") -> GameState:
    """`state` as a classic round's; INVALID_ARGUMENT on `field.ruleset.game` when its rules
    are another game's. Where a caller needs one game's own state (its sealed encoding),
    this is the one place that says which type that is."""
    if state.rules.game is not Game.CLASSIC or not isinstance(state, GameState):
        raise InvalidInputError(f"{field}.ruleset.game", "not a classic Okey round's state")
    return state


def okey_101_state(state: RoundState, field: str = "state") -> State101:
    """`state` as an Okey 101 round's; INVALID_ARGUMENT on `field.ruleset.game` otherwise."""
    if state.rules.game is not Game.OKEY_101 or not isinstance(state, State101):
        raise InvalidInputError(f"{field}.ruleset.game", "not an Okey 101 round's state")
    return state


class ClassicRound:
    """Classic Okey (okey_rules.play.game): 2-4 seats, timed turns, gösterme, a win by melds,
    seven pairs or kafa."""

    game = Game.CLASSIC
    moves = CLASSIC_MOVES
    reasons = CLASSIC_REASONS
    events = CLASSIC_EVENTS

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState:
        return start_round(dealt, deal_id=deal_ref, round_number=round_number, now_ms=now_ms)

    def apply(self, state: RoundState, move: Move, now_ms: int | None) -> RoundResult:
        return apply_move(classic_state(state), move, now_ms)

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[Move]:
        return legal_moves(classic_state(state), seat, now_ms)

    def view(self, state: RoundState, seat: int) -> PlayerView:
        return player_view(classic_state(state), seat)

    def replay(self, state: RoundState,
               log: Sequence[tuple[Move, int | None]]) -> RoundReplay:
        return replay(classic_state(state), [(move, now) for move, now in log])

    def score(self, state: RoundState, players: int, table: Table | None,
              fields: ScoreFields) -> tuple[RoundScore, NextDeal]:
        classic = classic_state(state)
        if classic.outcome is None:
            raise InvalidInputError(fields.state, "the round is not over: nothing to score")
        rules = classic.rules
        before = table if table is not None else start_table(rules, players)
        seats = state_seats(rules, before, classic.player_count, fields.table, fields.state)
        result = result_of_outcome(classic.outcome, classic, seats)
        scored = score_round(rules, players, table, result,
                             **({"field": fields.result} if fields.result else {}))
        return scored, next_deal(rules, classic, before, scored)


class Okey101Round:
    """Okey 101 (okey_rules.play.game101): four seats, untimed turns (the caller's clock is
    not used), openings, melds on the table, penalties."""

    game = Game.OKEY_101
    moves = OKEY_101_MOVES
    reasons = OKEY_101_REASONS
    events = OKEY_101_EVENTS

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState:  # noqa: ARG002 (101 turns are untimed)
        return start_round_101(dealt, deal_id=deal_ref, round_number=round_number)

    def apply(self, state: RoundState, move: Move,
              now_ms: int | None) -> RoundResult:  # noqa: ARG002 (101 turns are untimed)
        return apply_move_101(okey_101_state(state), move)

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[Move]:  # noqa: ARG002 (untimed)
        return legal_moves_101(okey_101_state(state), seat)

    def view(self, state: RoundState, seat: int) -> PlayerView:
        return player_view_101(okey_101_state(state), seat)

    def replay(self, state: RoundState,
               log: Sequence[tuple[Move, int | None]]) -> RoundReplay:
        return replay_101(okey_101_state(state), [move for move, _ in log])

    # Okey 101 is four seats (`players`) and checks its table itself; §10.7: the next
    # deal is always the seat after the dealer's, nobody eliminated.
    def score(self, state: RoundState, players: int,  # noqa: ARG002
              table: Table | None, fields: ScoreFields) -> tuple[RoundScore, NextDeal]:
        okey_101 = okey_101_state(state)
        scored = score_round_101(okey_101, table, fields.state)
        return scored, next_deal_101(okey_101, scored)


ROUNDS: dict[Game, Round] = {Game.CLASSIC: ClassicRound(), Game.OKEY_101: Okey101Round()}


def round_for(game: Game) -> Round:
    """The rules of play of `game`."""
    return ROUNDS[game]


def round_of(state: RoundState) -> Round:
    """The rules of play of the game `state` belongs to (by its rules, never its type)."""
    return ROUNDS[state.rules.game]
