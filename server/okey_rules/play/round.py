"""One interface for a round of either game, looked up by game: what the server and the
CLI ask instead of asking which game a state belongs to.

`round_for(game)` (or `round_of(state)`, by the state's rules) gives the game's `Round`:
start a round from a deal, apply a move, list a seat's legal moves, a seat's view,
replay a move log, the next deal after a scored round. Classic Okey (okey_rules.play.game)
and Okey 101 (okey_rules.play.game101) stand behind it; each implementation only forwards to
its game's functions. The moves, results and views are still each game's own types: the
callers translate them with the game's own translation, looked up by game the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from okey_rules.dealing.deal_types import Deal
from okey_rules.play.game import apply_move, legal_moves, replay, start_round
from okey_rules.play.game101 import apply_move_101, legal_moves_101, replay_101, start_round_101
from okey_rules.play.game101_types import Move101, Replay101, Result101, State101
from okey_rules.play.game101_view import PlayerView101, player_view_101
from okey_rules.play.game_types import GameState, Move, MoveResult, ReplayResult
from okey_rules.play.game_view import PlayerView, player_view
from okey_rules.ruleset import Game, Ruleset
from okey_rules.scores.scoring import next_deal
from okey_rules.scores.scoring101 import next_deal_101
from okey_rules.scores.scoring_types import RoundScore, Table

RoundState = GameState | State101
AnyMove = Move | Move101
AnyResult = MoveResult | Result101
AnyReplay = ReplayResult | Replay101
AnyView = PlayerView | PlayerView101


class Round(Protocol):
    """One game's rules of play. A state given to a method is one of that game's states
    (as `round_of` picks the round); a move, one of that game's moves."""

    game: Game

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState: ...

    def apply(self, state: RoundState, move: AnyMove, now_ms: int | None) -> AnyResult: ...

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[AnyMove]: ...

    def view(self, state: RoundState, seat: int) -> AnyView: ...

    def replay(self, state: RoundState,
               log: Sequence[tuple[AnyMove, int | None]]) -> AnyReplay: ...

    def next_deal(self, rules: Ruleset, state: RoundState, before: Table,
                  scored: RoundScore) -> tuple[int, int] | None: ...


def _classic(state: RoundState) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError("an Okey 101 state given to the classic round")
    return state


def _okey_101(state: RoundState) -> State101:
    if not isinstance(state, State101):
        raise TypeError("a classic state given to the Okey 101 round")
    return state


def _classic_move(move: AnyMove) -> Move:
    if not isinstance(move, Move):
        raise TypeError("an Okey 101 move given to the classic round")
    return move


def _move_101(move: AnyMove) -> Move101:
    if not isinstance(move, Move101):
        raise TypeError("a classic move given to the Okey 101 round")
    return move


class ClassicRound:
    """Classic Okey (okey_rules.play.game): 2-4 seats, timed turns, gösterme, a win by melds,
    seven pairs or kafa."""

    game = Game.CLASSIC

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState:
        return start_round(dealt, deal_id=deal_ref, round_number=round_number, now_ms=now_ms)

    def apply(self, state: RoundState, move: AnyMove, now_ms: int | None) -> AnyResult:
        return apply_move(_classic(state), _classic_move(move), now_ms)

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[AnyMove]:
        return legal_moves(_classic(state), seat, now_ms)

    def view(self, state: RoundState, seat: int) -> AnyView:
        return player_view(_classic(state), seat)

    def replay(self, state: RoundState,
               log: Sequence[tuple[AnyMove, int | None]]) -> AnyReplay:
        return replay(_classic(state), [(_classic_move(move), now) for move, now in log])

    def next_deal(self, rules: Ruleset, state: RoundState, before: Table,
                  scored: RoundScore) -> tuple[int, int] | None:
        return next_deal(rules, _classic(state), before, scored)


class Okey101Round:
    """Okey 101 (okey_rules.play.game101): four seats, untimed turns (the caller's clock is
    not used), openings, melds on the table, penalties."""

    game = Game.OKEY_101

    def start(self, dealt: Deal, *, deal_ref: str, round_number: int,
              now_ms: int | None) -> RoundState:  # noqa: ARG002 (101 turns are untimed)
        return start_round_101(dealt, deal_id=deal_ref, round_number=round_number)

    def apply(self, state: RoundState, move: AnyMove,
              now_ms: int | None) -> AnyResult:  # noqa: ARG002 (101 turns are untimed)
        return apply_move_101(_okey_101(state), _move_101(move))

    def legal_moves(self, state: RoundState, seat: int,
                    now_ms: int | None) -> Sequence[AnyMove]:  # noqa: ARG002 (untimed)
        return legal_moves_101(_okey_101(state), seat)

    def view(self, state: RoundState, seat: int) -> AnyView:
        return player_view_101(_okey_101(state), seat)

    def replay(self, state: RoundState,
               log: Sequence[tuple[AnyMove, int | None]]) -> AnyReplay:
        return replay_101(_okey_101(state), [_move_101(move) for move, _ in log])

    # The 101 next deal needs neither the rules nor the table before (§10.7: always the
    # seat after the dealer, four seats, nobody eliminated).
    def next_deal(self, rules: Ruleset, state: RoundState, before: Table,  # noqa: ARG002
                  scored: RoundScore) -> tuple[int, int] | None:
        return next_deal_101(_okey_101(state), scored)


ROUNDS: dict[Game, Round] = {Game.CLASSIC: ClassicRound(), Game.OKEY_101: Okey101Round()}


def round_for(game: Game) -> Round:
    """The rules of play of `game`."""
    return ROUNDS[game]


def round_of(state: RoundState) -> Round:
    """The rules of play of the game `state` belongs to (by its rules, never its type)."""
    return ROUNDS[state.rules.game]
