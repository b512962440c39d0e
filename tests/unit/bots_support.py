"""Positions for the bot tests: seeded rounds played by bots, every position of the seat
on turn kept, for both games through the Round interface."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from okey_rules.bots.suggest import suggest_move
from okey_rules.dealing.deal import deal
from okey_rules.play.round import RoundState, round_for
from okey_rules.play.round_types import MoveKind, Phase
from okey_rules.ruleset import Game, Ruleset, preset

SEATS = 4
MOVE_LIMIT = 3000


def rules_of(game: Game) -> Ruleset:
    return preset("101") if game is Game.OKEY_101 else preset("classic")


def start_of(game: Game, seed: str) -> RoundState:
    return round_for(game).start(deal(rules_of(game), SEATS, 0, seed=seed), deal_ref="",
                                 round_number=1, now_ms=None)


def positions(game: Game, seed: str, levels: Sequence[int]) -> Iterator[RoundState]:
    """Every position of a round whose seat `s` is played by the level `levels[s]` bot,
    before each move of the seat on turn (gösterme shown by the seats off turn too)."""
    rounds = round_for(game)
    state = start_of(game, seed)
    for _ in range(MOVE_LIMIT):
        if state.phase is Phase.ROUND_OVER:
            return
        for seat in range(SEATS):
            if seat == state.turn or game is not Game.CLASSIC:
                continue
            legal = rounds.legal_moves(state, seat, None)
            if any(m.kind is MoveKind.GOSTERME for m in legal):
                shown = suggest_move(rounds.view(state, seat), legal, levels[seat]).move
                if shown.kind is MoveKind.GOSTERME:
                    after = rounds.apply(state, shown, None).state
                    assert after is not None
                    state = after
        yield state
        seat = state.turn
        move = suggest_move(rounds.view(state, seat), rounds.legal_moves(state, seat, None),
                            levels[seat]).move
        result = rounds.apply(state, move, None)
        assert result.legal, (move, result.message)
        assert result.state is not None
        state = result.state
    raise AssertionError(f"the round {seed!r} did not end in {MOVE_LIMIT} moves")
