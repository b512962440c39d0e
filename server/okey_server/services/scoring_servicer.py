"""okey.v1.ScoringService: round inputs read, the engine's scoring, the table written back."""

from __future__ import annotations

from collections.abc import Callable

import grpc
from okey.v1 import ruleset_pb2, scoring_pb2, scoring_pb2_grpc
from okey_rules.dealing.deal import DEFAULT_PLAYERS
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import State101
from okey_rules.play.game_types import GameState
from okey_rules.ruleset import Ruleset
from okey_rules.scores.scoring import (
    check_scorable,
    check_table,
    check_table_size,
    next_deal,
    score_round,
    start_table,
)
from okey_rules.scores.scoring101 import next_deal_101, score_round_101
from okey_rules.scores.scoring_types import RoundResult, RoundScore, Table

from okey_server.rpc.config import Config
from okey_server.wire.convert_ruleset import ruleset_to_proto
from okey_server.wire.convert_scoring import (
    finished_state,
    result_from_proto,
    result_from_state,
    round_to_proto,
    rules_for,
    table_from_proto,
)
from okey_server.wire.sealing import KeyRing

# The next round's dealer and number (scoring.proto ScoreRoundResponse.next_dealer_seat,
# next_round); None when the round's answer names no next deal.
NextDeal = tuple[int, int] | None


class ScoringServicer(scoring_pb2_grpc.ScoringServiceServicer):
    """Thin: every scoring rule is in okey_rules.scores.scoring; this class translates."""

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
        if isinstance(state, State101):
            return _round_101(state, table, rules)
        check_scorable(rules, "round.state.ruleset.game" if state else "ruleset.game")
        players, size_field = _players(request.player_count, table, state)
        check_table_size(rules, players, size_field)
        if table is not None:
            # The scores are judged before the state is read against them, so that a
            # wrong table is blamed on the table (score_round judges them again).
            check_table(rules, players, table)
        before = table if table is not None else start_table(rules, players)
        result = self._result(request.round, rules, before, state, "round", size_field=size_field)
        scored = score_round(rules, players, table, result)
        next_one = _classic_next_deal(rules, state, before, scored)
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
        score: Callable[[int, Table | None], tuple[RoundScore, NextDeal]]
        if isinstance(first, State101):

            def score(index: int, table: Table | None) -> tuple[RoundScore, NextDeal]:
                state = states[index]
                if not isinstance(state, State101):
                    raise InvalidInputError(
                        f"rounds[{index}].result",
                        "an Okey 101 game is scored from its rounds' finished states",
                    )
                scored = score_round_101(state, table, f"rounds[{index}].state")
                return scored, next_deal_101(state, scored)
        else:
            check_scorable(rules)
            players, size_field = _game_players(request.player_count, states)
            check_table_size(rules, players, size_field)

            def score(index: int, table: Table | None) -> tuple[RoundScore, NextDeal]:
                field = f"rounds[{index}]"
                state = states[index]
                before = table if table is not None else start_table(rules, players)
                result = self._result(
                    request.rounds[index], rules, before, state, field, size_field=size_field
                )
                scored = score_round(rules, players, table, result, field=f"{field}.result")
                return scored, _classic_next_deal(rules, state, before, scored)

        return _scored_game(len(request.rounds), score, ruleset_to_proto(rules))

    def _state_of(
        self, entry: scoring_pb2.RoundInput, field: str
    ) -> GameState | State101 | None:
        which = entry.WhichOneof("round")
        if which is None:
            raise InvalidInputError(field, "give the round: a finished state or a result")
        if which == "state":
            return finished_state(entry.state, self._keys, f"{field}.state")
        return None

    @staticmethod
    def _result(
        entry: scoring_pb2.RoundInput,
        rules: Ruleset,
        table: Table,
        state: GameState | State101 | None,
        field: str,
        *,
        size_field: str,
    ) -> RoundResult:
        if isinstance(state, State101):
            raise InvalidInputError(
                f"{field}.state", "a game's rounds are all classic or all Okey 101"
            )
        if state is not None:
            return result_from_state(state, rules, table, f"{field}.state", size_field)
        return result_from_proto(entry.result, rules, f"{field}.result")


def _players(requested: int, table: Table | None, state: GameState | None) -> tuple[int, str]:
    """Seats at the table: as asked, else as many as scores, else the state's, else 4;
    with the request field that said so, the one a wrong size is blamed on."""
    if requested:
        return requested, "player_count"
    if table is not None:
        return len(table.scores), "table.scores"
    if state is not None:
        return state.player_count, "round.state"
    return DEFAULT_PLAYERS, "player_count"


def _game_players(
    requested: int, states: list[GameState | State101 | None]
) -> tuple[int, str]:
    """A game's seats: as asked, else the first state's, else 4; with the field that said so."""
    if requested:
        return requested, "player_count"
    for index, state in enumerate(states):
        if state is not None:
            return state.player_count, f"rounds[{index}].state"
    return DEFAULT_PLAYERS, "player_count"


def _answer(
    scored: RoundScore, rules: ruleset_pb2.Ruleset, next_deal: NextDeal
) -> scoring_pb2.ScoreRoundResponse:
    """A round's answer, naming the next deal when there is one."""
    answer = round_to_proto(scored, rules)
    if next_deal is not None:
        answer.next_dealer_seat, answer.next_round = next_deal
    return answer


def _round_101(
    state: State101, table: Table | None, rules: Ruleset
) -> scoring_pb2.ScoreRoundResponse:
    """§10.7: an Okey 101 round from its finished state, and the next deal."""
    scored = score_round_101(state, table)
    return _answer(scored, ruleset_to_proto(rules), next_deal_101(state, scored))


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


def _classic_next_deal(
    rules: Ruleset, state: GameState | State101 | None, before: Table, scored: RoundScore
) -> NextDeal:
    """The next deal after a classic round given as a state (okey_rules.scores.scoring.next_deal);
    a round given as a result names none."""
    return next_deal(rules, state, before, scored) if isinstance(state, GameState) else None
