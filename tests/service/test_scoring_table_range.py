"""ScoreRound's given table: a round whose new scores leave int32, or whose count leaves
uint32, is INVALID_ARGUMENT on that table field.

TableScores carries int32 scores and a uint32 round count; a table at their
edge (rounds_played 4294967295, a penalty-table score of 2147483647) made the
answer unwritable and ScoreRound answered INTERNAL (found by tests/fuzz).
"""

from __future__ import annotations

import grpc
import pytest
from okey.v1 import hand_pb2, scoring_pb2, scoring_pb2_grpc
from service_helpers import decode_error

pytestmark = pytest.mark.service

INT32_MAX = 2**31 - 1
UINT32_MAX = 2**32 - 1


def _won(table: scoring_pb2.TableScores, preset: str) -> scoring_pb2.ScoreRoundRequest:
    request = scoring_pb2.ScoreRoundRequest(preset=preset, table=table)
    request.round.result.winner_seat = 1
    request.round.result.win_kind = hand_pb2.WIN_KIND_MELDS
    return request


def _refused_fields(channel: grpc.Channel, request: scoring_pb2.ScoreRoundRequest) -> tuple:
    with pytest.raises(grpc.RpcError) as raised:
        scoring_pb2_grpc.ScoringServiceStub(channel).ScoreRound(request)
    found = decode_error(raised.value)
    return found.code, found.fields


def test_rounds_played_at_the_uint32_edge_is_invalid_rounds_played(channel: grpc.Channel) -> None:
    table = scoring_pb2.TableScores(scores=[6, 2, 8, 4], rounds_played=UINT32_MAX)
    assert _refused_fields(channel, _won(table, "classic")) == (
        grpc.StatusCode.INVALID_ARGUMENT, ("table.rounds_played",))


def test_one_round_short_of_the_uint32_edge_is_scored(channel: grpc.Channel) -> None:
    table = scoring_pb2.TableScores(scores=[6, 2, 8, 4], rounds_played=UINT32_MAX - 1)
    answer = scoring_pb2_grpc.ScoringServiceStub(channel).ScoreRound(_won(table, "classic"))
    assert answer.table.rounds_played == UINT32_MAX


def test_a_penalty_score_pushed_past_int32_is_invalid_that_score(channel: grpc.Channel) -> None:
    table = scoring_pb2.TableScores(scores=[INT32_MAX, 0, 0, 0])
    assert _refused_fields(channel, _won(table, "penalty")) == (
        grpc.StatusCode.INVALID_ARGUMENT, ("table.scores[0]",))
