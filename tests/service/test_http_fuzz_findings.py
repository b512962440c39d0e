"""What fuzzing the HTTP listener found (docs/fuzzing.md, "Bugs it found"), one test each:
bad input answered as bad input, never as a server fault. (That such refusals are not
logged as server faults is checked by tests/fuzz/test_fuzz.py's short run, which fails on any
error line in the server's log.)"""

from __future__ import annotations

import struct
from collections.abc import Iterator

import grpc
import pytest
from http_helpers import (
    GRPC_WEB,
    HttpServer,
    connect_refusal,
    grpc_web_answer,
    grpc_web_refusal,
    start_http_server,
    stop_http_server,
)

CHECK_HAND = "/okey.v1.HandService/CheckHand"


@pytest.fixture(scope="module")
def server(loop_thread) -> Iterator[HttpServer]:
    made = start_http_server(loop_thread)
    yield made
    stop_http_server(loop_thread, made)


@pytest.mark.parametrize(("path", "body"), [
    # A lone surrogate as an enum name: upb's lookup fails with SystemError.
    (CHECK_HAND, b'{"hand": {"tiles": [{"color": "\\ud800"}]}}'),
    # -Infinity for an integer field: OverflowError, not a ParseError.
    ("/okey.v1.AnalysisService/AnalyzeHand", b'{"ruleset": {"colourDouble": -Infinity}}'),
], ids=["lone-surrogate-enum-name", "infinity-for-an-integer"])
def test_json_the_parser_trips_on_is_invalid_argument_on_request(
    server: HttpServer, path: str, body: bytes
) -> None:
    answer = server.call(path, body)
    assert answer.status == 400
    refusal = connect_refusal(answer)
    assert (refusal.code, refusal.fields) == ("invalid_argument", ("request",))


def test_a_grpc_web_message_flagged_compressed_without_an_encoding_is_invalid_argument(
    server: HttpServer,
) -> None:
    message = b"\x0a\x02R1"
    answer = server.call(CHECK_HAND, struct.pack(">BI", 1, len(message)) + message, GRPC_WEB)
    _messages, trailers = grpc_web_answer(answer)
    code, refusal = grpc_web_refusal(trailers)
    assert code == grpc.StatusCode.INVALID_ARGUMENT  # connectrpc alone says INTERNAL
    assert refusal.fields == ("request",)


def test_grpc_over_http_1_1_is_an_unsupported_content_type(server: HttpServer) -> None:
    # gRPC needs HTTP/2 trailers; connectrpc alone answers UNKNOWN and logs a traceback.
    answer = server.call(CHECK_HAND, b"\x00\x00\x00\x00\x00", "application/grpc")
    assert answer.status == 415
    assert b"HTTP/2" in answer.body
