"""Every RPC of every okey.v1 service over Connect JSON, from a plain HTTP client
(http.client): the HTTP listener serves the gRPC port's own servicers, so where an
answer is deterministic it is the gRPC port's answer, field for field, in proto3 JSON."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from fair_deal_helpers import play_to_the_end
from google.protobuf import json_format
from http_helpers import GRPC_OPTIONS, SIGNING_KEY, HttpServer, start_http_server, stop_http_server
from okey.v1 import deal_pb2, deal_pb2_grpc, hand_pb2, hand_pb2_grpc

pytestmark = pytest.mark.service

HAND = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
RACK_101 = "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B4 Y4 K4"


@pytest.fixture(scope="module")
def server(loop_thread) -> Iterator[HttpServer]:
    made = start_http_server(loop_thread)
    yield made
    stop_http_server(loop_thread, made)


@pytest.fixture(scope="module")
def channel(server: HttpServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.grpc_address, options=GRPC_OPTIONS) as opened:
        yield opened


def as_json(message: Any) -> dict[str, Any]:
    """A gRPC answer as the HTTP listener writes it: proto3 JSON, every field."""
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def b64(token: str) -> bytes:
    return base64.b64decode(token)


def test_check_hand_answers_as_on_the_grpc_port(server: HttpServer, channel) -> None:
    """HandService.CheckHand (its answer is written as bytes by the servicer) in JSON:
    lowerCamelCase names, enums by name, every field; the gRPC answer in JSON."""
    request = {"handNotation": HAND, "indicatorNotation": "R4"}
    answer = server.ok("/okey.v1.HandService/CheckHand", request)
    assert answer["winning"] is True
    assert answer["kind"] == "WIN_KIND_MELDS"
    assert answer["okeyDiscardWins"] is False  # a default, written all the same
    grpc_answer = hand_pb2_grpc.HandServiceStub(channel).CheckHand(
        hand_pb2.CheckHandRequest(hand_notation=HAND, indicator_notation="R4"))
    assert answer == as_json(hand_pb2.CheckHandResponse.FromString(
        grpc_answer.SerializeToString()))


def test_best_opening(server: HttpServer, channel) -> None:
    """HandService.BestOpening: an Okey 101 rack's best opening, as over gRPC."""
    answer = server.ok("/okey.v1.HandService/BestOpening",
                       {"handNotation": RACK_101, "indicatorNotation": "K13"})
    grpc_answer = hand_pb2_grpc.HandServiceStub(channel).BestOpening(
        hand_pb2.BestOpeningRequest(hand_notation=RACK_101, indicator_notation="K13"))
    assert answer == as_json(grpc_answer)
    assert answer["value"] > 0


def test_deal_answers_the_grpc_deal_of_the_same_seed(server: HttpServer, channel) -> None:
    """DealService.Deal: the same seed deals the same racks and seals the same state
    (bytes fields in base64, 64-bit integers as strings where there are any)."""
    answer = server.ok("/okey.v1.DealService/Deal", {"seed": "42"})
    grpc_answer = deal_pb2_grpc.DealServiceStub(channel).Deal(deal_pb2.DealRequest(seed="42"))
    assert answer == as_json(grpc_answer)
    assert b64(answer["state"]) == grpc_answer.state


def test_commit_seed_deal_and_reveal_seed(server: HttpServer) -> None:
    """DealService.CommitSeed, a committed Deal, and RevealSeed once the round is over."""
    committed = server.ok("/okey.v1.DealService/CommitSeed",
                          {"playerCount": 3, "noClientSeeds": True})
    dealt = server.ok("/okey.v1.DealService/Deal",
                      {"dealId": committed["dealId"], "playerCount": 3})
    assert dealt["seed"] == ""  # withheld until the round is over
    finished = play_to_the_end(b64(dealt["state"]), SIGNING_KEY)
    revealed = server.ok("/okey.v1.DealService/RevealSeed", {
        "dealId": committed["dealId"], "state": base64.b64encode(finished).decode()})
    assert revealed["commitment"] == committed["commitment"]
    redealt = server.ok("/okey.v1.DealService/Deal",
                        {"seed": revealed["seed"], "playerCount": 3})
    assert redealt["racks"] == dealt["racks"]


def test_the_game_service_plays_a_move(server: HttpServer) -> None:
    """GameService.LegalMoves, ApplyMove, PlayerView and Replay on one dealt round."""
    dealt = server.ok("/okey.v1.DealService/Deal", {"seed": "7"})
    seat = dealt["status"]["turnSeat"]
    moves = server.ok("/okey.v1.GameService/LegalMoves",
                      {"state": dealt["state"], "seat": seat})["moves"]
    assert moves
    applied = server.ok("/okey.v1.GameService/ApplyMove",
                        {"state": dealt["state"], "move": moves[0]})
    assert applied["legal"] is True
    assert applied["status"]["moveNumber"] == 1
    view = server.ok("/okey.v1.GameService/PlayerView", {"state": applied["state"], "seat": 0})
    assert len(view["rack"]) in (14, 15)
    replayed = server.ok("/okey.v1.GameService/Replay",
                         {"deal": {"seed": "7"}, "moves": [{"move": moves[0]}]})
    assert replayed["legal"] is True
    assert replayed["movesApplied"] == 1
    assert replayed["state"] == applied["state"]


def test_scoring_service(server: HttpServer) -> None:
    """ScoringService.ScoreRound and ScoreGame from round results given in JSON."""
    won = {"result": {"winnerSeat": 1, "winKind": "WIN_KIND_MELDS"}}
    scored = server.ok("/okey.v1.ScoringService/ScoreRound", {"round": won})
    assert scored["roundValue"] == 2
    assert scored["deltas"] == [-2, 0, -2, -2]
    game = server.ok("/okey.v1.ScoringService/ScoreGame", {"rounds": [won, won]})
    assert game["table"]["roundsPlayed"] == 2


def test_analysis_service(server: HttpServer) -> None:
    """AnalysisService.AnalyzeHand for a hand and SuggestMove for a seat of a dealt round."""
    analysed = server.ok("/okey.v1.AnalysisService/AnalyzeHand",
                         {"handNotation": HAND, "indicatorNotation": "R4"})
    assert analysed["distance"]["melds"] == 0
    dealt = server.ok("/okey.v1.DealService/Deal", {"seed": "7"})
    seat = dealt["status"]["turnSeat"]
    suggested = server.ok("/okey.v1.AnalysisService/SuggestMove",
                          {"state": dealt["state"], "seat": seat, "level": 1})
    assert suggested["move"]["seat"] == seat
    assert suggested["level"] == 1


def test_health_check(server: HttpServer) -> None:
    """grpc.health.v1.Health/Check over HTTP: SERVING for the server and each service."""
    assert server.ok("/grpc.health.v1.Health/Check", {}) == {"status": "SERVING"}
    assert server.ok("/grpc.health.v1.Health/Check",
                     {"service": "okey.v1.HandService"}) == {"status": "SERVING"}
