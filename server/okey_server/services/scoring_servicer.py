"""okey.v1.ScoringService: round inputs read, the engine's scoring, the table written back."""

from __future__ import annotations

from collections.abc import Callable

import grpc
from okey.v1 import ruleset_pb2, scoring_pb2, scoring_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import NextDeal, RoundState
from okey_rules.scores.scoring_types import RoundScore, Table

from okey_server.rpc.config import Config
from okey_server.wire.convert_ruleset import ruleset_to_proto
from okey_server.wire.convert_scoring import (
    finished_state,
    round_to_proto,
    rules_for,
    table_from_proto,
)
from okey_server.wire.scoring_wire import RoundInput, scoring_for
from okey_server.wire.sealing import KeyRing


class ScoringServicer(scoring_pb2_grpc.ScoringServiceServicer):
    """Thin: every scoring rule is in okey_rules.scores; how a game's rounds are read is
    its GameScoring (okey_server.wire.scoring_wire), looked up by the rules' game."""

    def __init__(self, config: Config) -> None:
        self._keys = KeyRing(config.signing_key, config.previous_signing_keys)

    async def ScoreRound(  # noqa: N802 (the RPC's name)
        self, request: scoring_pb2.ScoreRoundRequest,
        _context: grpc.aio.ServicerContext[
            scoring_pb2.ScoreRoundRequest, scoring_pb2.ScoreRoundResponse
        ],
    ) -> scoring_pb2.ScoreRoundResponse:
        table = table_from_proto(request.table) if request.HasField("table") else None
        state = self._state_of(request.round, "round")
        rules = rules_for(request.preset, request.ruleset, state)
        scoring = scoring_for(rules)
        seats = scoring.round_seats(rules, request.player_count, table, state)
        given = RoundInput(request.round, state, "round", in_game=False)
        scored, next_one = scoring.score(rules, seats, table, given)
        return _answer(scored, ruleset_to_proto(rules), next_one)

    async def ScoreGame(  # noqa: N802 (the RPC's name)
        self, request: scoring_pb2.ScoreGameRequest,
        _context: grpc.aio.ServicerContext[
            scoring_pb2.ScoreGameRequest, scoring_pb2.ScoreGameResponse
        ],
    ) -> scoring_pb2.ScoreGameResponse:
        if not request.rounds:
            raise InvalidInputError("rounds", "a game has at least one round")
        states = [self._state_of(entry, f"rounds[{i}]") for i, entry in enumerate(request.rounds)]
        first = next((s for s in states if s is not None), None)
        rules = rules_for(request.preset, request.ruleset, first)
        for index, state in enumerate(states):
            if state is not None and state.rules != rules:
                raise InvalidInputError(
                    f"rounds[{index}].state.ruleset",
                    "every round of a game is played under the same rules",
                )
        scoring = scoring_for(rules)
        seats = scoring.game_seats(rules, request.player_count, states)

        def score(index: int, table: Table | None) -> tuple[RoundScore, NextDeal]:
            given = RoundInput(request.rounds[index], states[index], f"rounds[{index}]",
                               in_game=True)
            return scoring.score(rules, seats, table, given)

        return _scored_game(len(request.rounds), score, ruleset_to_proto(rules))

    def _state_of(self, entry: scoring_pb2.RoundInput, field: str) -> RoundState | None:
        which = entry.WhichOneof("round")
        if which is None:
            raise InvalidInputError(field, "give the round: a finished state or a result")
        if which == "state":
            return finished_state(entry.state, self._keys, f"{field}.state")
        return None


def _answer(
    scored: RoundScore, rules: ruleset_pb2.Ruleset, next_deal: NextDeal
) -> scoring_pb2.ScoreRoundResponse:
    """A round's answer, naming the next deal when there is one."""
    answer = round_to_proto(scored, rules)
    if next_deal is not None:
        answer.next_dealer_seat, answer.next_round = next_deal
    return answer


def _scored_game(
    rounds: int,
    score: Callable[[int, Table | None], tuple[RoundScore, NextDeal]],
    rules: ruleset_pb2.Ruleset,
) -> scoring_pb2.ScoreGameResponse:
    """Every round scored in order on the table the one before left; none after the end.
    A round given as a state names the next deal, as ScoreRound does."""
    answer = scoring_pb2.ScoreGameResponse()
    table: Table | None = None
    scored: RoundScore | None = None
    for index in range(rounds):
        if scored is not None and scored.game_over:
            raise InvalidInputError(
                f"rounds[{index}]", f"the game ended after round {index}: no more rounds"
            )
        scored, next_deal = score(index, table)
        answer.rounds.append(_answer(scored, rules, next_deal))
        table = scored.table
    assert scored is not None
    answer.table.CopyFrom(answer.rounds[-1].table)
    answer.game_over = scored.game_over
    answer.winner_seats.extend(scored.winners)
    return answer
