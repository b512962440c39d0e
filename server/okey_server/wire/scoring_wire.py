"""Each game's way of reading the rounds of a ScoringService request, looked up by the
rules' game: the scoring servicer asks neither which game the rules are for nor what type
a state is. A finished state is scored by its game's round (okey_rules.play.round).

Classic Okey scores a round given as a finished state or as a result given directly, on a
table of 2-4 seats; Okey 101 scores only finished states, always four seats. The scoring
rules themselves are the engine's (okey_rules.scores).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from okey.v1 import scoring_pb2
from okey_rules.dealing.deal import DEFAULT_PLAYERS, OKEY_101_PLAYERS
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import NextDeal, RoundState, ScoreFields, round_of
from okey_rules.ruleset import Game, Ruleset
from okey_rules.scores.scoring import (
    check_scorable,
    check_table,
    check_table_size,
    score_round,
)
from okey_rules.scores.scoring_types import RoundScore, Table

from okey_server.wire.convert_scoring import result_from_proto


@dataclass(frozen=True, slots=True)
class RoundInput:
    """One round of a request: as given, its finished state if given so, where it sits."""

    entry: scoring_pb2.RoundInput
    state: RoundState | None
    field: str  # "round" (ScoreRound) or "rounds[i]" (ScoreGame)
    in_game: bool  # ScoreGame: a refused result is blamed on `field.result`


@dataclass(frozen=True, slots=True)
class Seats:
    """A table's size and the request field that set it (the one a wrong size is blamed on)."""

    count: int
    field: str


class GameScoring(Protocol):
    def round_seats(self, rules: Ruleset, requested: int, table: Table | None,
                    state: RoundState | None) -> Seats:
        """ScoreRound: the table's seats, checked against the rules (and the table)."""

    def game_seats(self, rules: Ruleset, requested: int,
                   states: Sequence[RoundState | None]) -> Seats:
        """ScoreGame: the table's seats, checked against the rules."""

    def score(self, rules: Ruleset, seats: Seats, table: Table | None,
              given: RoundInput) -> tuple[RoundScore, NextDeal]:
        """One round on the table before it (None: the game's start), and the next deal."""


class ClassicScoring:
    def round_seats(self, rules: Ruleset, requested: int, table: Table | None,
                    state: RoundState | None) -> Seats:
        check_scorable(rules, "round.state.ruleset.game" if state else "ruleset.game")
        if requested:
            seats = Seats(requested, "player_count")
        elif table is not None:
            seats = Seats(len(table.scores), "table.scores")
        elif state is not None:
            seats = Seats(state.player_count, "round.state")
        else:
            seats = Seats(DEFAULT_PLAYERS, "player_count")
        check_table_size(rules, seats.count, seats.field)
        if table is not None:
            # The scores are judged before the state is read against them, so that a
            # wrong table is blamed on the table (score_round judges them again).
            check_table(rules, seats.count, table)
        return seats

    def game_seats(self, rules: Ruleset, requested: int,
                   states: Sequence[RoundState | None]) -> Seats:
        check_scorable(rules)
        seats = Seats(requested, "player_count") if requested else next(
            (Seats(s.player_count, f"rounds[{i}].state")
             for i, s in enumerate(states) if s is not None),
            Seats(DEFAULT_PLAYERS, "player_count"),
        )
        check_table_size(rules, seats.count, seats.field)
        return seats

    def score(self, rules: Ruleset, seats: Seats, table: Table | None,
              given: RoundInput) -> tuple[RoundScore, NextDeal]:
        if given.state is not None:
            return score_state(given.state, seats, table, given)
        field = given.field
        result = result_from_proto(given.entry.result, rules, f"{field}.result")
        scored = score_round(rules, seats.count, table, result,
                             **({"field": f"{field}.result"} if given.in_game else {}))
        return scored, None  # a round given as a result names no next deal


class Okey101Scoring:
    # Okey 101 is always four seats and its tables are checked by the engine's scoring:
    # the methods take what the protocol gives and use what 101 needs.
    def round_seats(self, rules: Ruleset, requested: int,  # noqa: ARG002
                    table: Table | None, state: RoundState | None) -> Seats:  # noqa: ARG002
        # Okey 101 is scored from a finished state (four seats); a result given directly
        # is refused as classic's check says.
        if state is None:
            check_scorable(rules)
        return Seats(OKEY_101_PLAYERS, "round.state")

    def game_seats(self, rules: Ruleset, requested: int,  # noqa: ARG002
                   states: Sequence[RoundState | None]) -> Seats:
        if all(state is None for state in states):
            check_scorable(rules)  # results only: refused on ruleset.game, as classic's check
        return Seats(OKEY_101_PLAYERS, "rounds")

    def score(self, rules: Ruleset, seats: Seats, table: Table | None,  # noqa: ARG002
              given: RoundInput) -> tuple[RoundScore, NextDeal]:
        if given.state is None:
            raise InvalidInputError(
                f"{given.field}.result",
                "an Okey 101 game is scored from its rounds' finished states",
            )
        return score_state(given.state, seats, table, given)


def score_state(state: RoundState, seats: Seats, table: Table | None,
                given: RoundInput) -> tuple[RoundScore, NextDeal]:
    """A round given as its finished state, scored by its game's round, which names the
    next deal."""
    fields = ScoreFields(f"{given.field}.state", seats.field,
                         f"{given.field}.result" if given.in_game else None)
    return round_of(state).score(state, seats.count, table, fields)


SCORING: dict[Game, GameScoring] = {Game.CLASSIC: ClassicScoring(), Game.OKEY_101: Okey101Scoring()}


def scoring_for(rules: Ruleset) -> GameScoring:
    """How the rounds of the rules' game are read and scored."""
    return SCORING[rules.game]
