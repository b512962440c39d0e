"""The HTTP listener's protocols and refusals: Connect binary and gRPC-Web beside JSON, the
error details in each protocol's own form, and what is not a call (no such method, a
content type it cannot read, a body too big or malformed)."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator

import grpc
import pytest
from http_helpers import (
    GRPC_WEB,
    JSON,
    LOOPBACK,
    PROTO,
    HttpServer,
    connect_refusal,
    grpc_web_answer,
    grpc_web_frame,
    grpc_web_refusal,
    start_http_server,
    stop_http_server,
)
from okey.v1 import hand_pb2

pytestmark = pytest.mark.service

CHECK_HAND = "/okey.v1.HandService/CheckHand"
HAND = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
BAD_TILE = hand_pb2.CheckHandRequest(hand_notation="R1 X2", indicator_notation="R4")
MAX_RECEIVE_BYTES = 4096


@pytest.fixture(scope="module")
def server(loop_thread) -> Iterator[HttpServer]:
    made = start_http_server(loop_thread, max_receive_bytes=MAX_RECEIVE_BYTES)
    yield made
    stop_http_server(loop_thread, made)


def winning_request() -> hand_pb2.CheckHandRequest:
    return hand_pb2.CheckHandRequest(hand_notation=HAND, indicator_notation="R4")


def test_connect_binary(server: HttpServer) -> None:
    """application/proto: the request and CheckHand's pre-serialized answer as protobuf bytes."""
    answer = server.call(CHECK_HAND, winning_request().SerializeToString(), PROTO)
    assert answer.status == 200
    assert answer.headers["content-type"] == PROTO
    assert hand_pb2.CheckHandResponse.FromString(answer.body).summary == "winning: melds"


def test_grpc_web(server: HttpServer) -> None:
    """application/grpc-web+proto: one framed message, then the status in a trailer frame."""
    answer = server.call(CHECK_HAND, grpc_web_frame(winning_request().SerializeToString()),
                         GRPC_WEB)
    assert answer.status == 200
    messages, trailers = grpc_web_answer(answer)
    assert hand_pb2.CheckHandResponse.FromString(messages[0]).winning
    assert trailers["grpc-status"] == "0"


def test_bad_input_in_connect_error_json(server: HttpServer) -> None:
    """Bad input is invalid_argument (HTTP 400) with the gRPC port's BadRequest field
    violation and ErrorInfo reason as Connect error details, over JSON and binary."""
    request = {"handNotation": "R1 X2", "indicatorNotation": "R4"}
    for answer in (server.json_call(CHECK_HAND, request),
                   server.call(CHECK_HAND, BAD_TILE.SerializeToString(), PROTO)):
        assert answer.status == 400
        assert answer.headers["content-type"] == JSON
        refusal = connect_refusal(answer)
        assert refusal.code == "invalid_argument"
        assert refusal.fields == ("hand_notation",)
        assert refusal.reason == "ERROR_REASON_INVALID_TILES"
        assert "X2" in refusal.message


def test_bad_input_in_grpc_web_trailers(server: HttpServer) -> None:
    """Over gRPC-Web the same status: grpc-status 3, grpc-message, grpc-status-details-bin
    with the BadRequest and the ErrorInfo."""
    answer = server.call(CHECK_HAND, grpc_web_frame(BAD_TILE.SerializeToString()), GRPC_WEB)
    _, trailers = grpc_web_answer(answer)
    code, refusal = grpc_web_refusal(trailers)
    assert code is grpc.StatusCode.INVALID_ARGUMENT
    assert refusal.fields == ("hand_notation",)
    assert refusal.reason == "ERROR_REASON_INVALID_TILES"
    assert "X2" in trailers["grpc-message"]


@pytest.mark.parametrize(("body", "said"), [
    (b'{"handNotation": "R1"', "Expecting"),
    (b'{"handNotaton": "R1"}', "handNotaton"),
    (b'{"omitArrangements": "yes"}', "omitArrangements"),
    (b"[1, 2]", "JSON object"),
])
def test_malformed_json_is_invalid_argument_on_request(server: HttpServer, body: bytes,
                                                       said: str) -> None:
    """JSON that is not the request message (broken, an unknown field, a wrong type) is
    invalid_argument on field `request` (ERROR_REASON_MALFORMED_REQUEST), saying what is
    wrong, never internal."""
    answer = server.call(CHECK_HAND, body, JSON)
    assert answer.status == 400
    refusal = connect_refusal(answer)
    assert (refusal.code, refusal.fields) == ("invalid_argument", ("request",))
    assert refusal.reason == "ERROR_REASON_MALFORMED_REQUEST"
    assert said in refusal.message


def test_undecodable_binary_is_invalid_argument(server: HttpServer) -> None:
    answer = server.call(CHECK_HAND, b"\xff\xff\xff", PROTO)
    refusal = connect_refusal(answer)
    assert (refusal.code, refusal.fields) == ("invalid_argument", ("request",))


def test_an_empty_json_body_is_the_empty_request(server: HttpServer) -> None:
    """No body at all reads as {} (the servicer then names the missing field)."""
    refusal = connect_refusal(server.call(CHECK_HAND, b"", JSON))
    assert refusal.fields == ("hand",)


@pytest.mark.parametrize("path", [
    "/okey.v1.HandService/NoSuchMethod", "/okey.v1.NoService/CheckHand", "/", "/metrics",
])
def test_no_such_method_is_404(server: HttpServer, path: str) -> None:
    """An unknown method or service is HTTP 404, which Connect clients read as unimplemented."""
    assert server.call(path, b"{}", JSON).status == 404


@pytest.mark.parametrize(("method", "path", "content_type", "status"), [
    ("POST", "/okey.v1.HandService/NoSuchMethod", JSON, 404),
    ("POST", "/okey.v1.NoService/CheckHand", JSON, 404),
    ("POST", CHECK_HAND, "text/plain", 415),
    ("PUT", CHECK_HAND, JSON, 405),
])
def test_a_refused_call_leaves_its_connection_usable(
    server: HttpServer, method: str, path: str, content_type: str, status: int,
) -> None:
    """HTTP/1.1 keep-alive: a refusal that comes before the request is decoded is sent only
    once the request's body has been read, so the same connection carries the next call (a
    body left unread made the server close the connection without saying so, and the
    client's next call on it failed)."""
    connection = http.client.HTTPConnection(LOOPBACK, server.port, timeout=10)
    try:
        body = json.dumps({"handNotation": "R1 R2 R3"}).encode()
        connection.putrequest(method, path)
        connection.putheader("Content-Type", content_type)
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders()
        # The body comes after the headers, as a slow client's would: the refusal used to
        # go out before it arrived.
        time.sleep(0.1)
        connection.send(body)
        refused = connection.getresponse()
        refused.read()
        assert refused.status == status
        assert refused.getheader("connection") is None
        sock = connection.sock
        connection.request("POST", "/grpc.health.v1.Health/Check", body=b"{}",
                           headers={"Content-Type": JSON})
        answer = connection.getresponse()
        assert answer.status == 200, answer.read()
        assert json.loads(answer.read()) == {"status": "SERVING"}
        assert connection.sock is sock
    finally:
        connection.close()


def test_wrong_content_type_is_415(server: HttpServer) -> None:
    """A content type neither Connect nor gRPC-Web is 415, naming the ones accepted."""
    answer = server.call(CHECK_HAND, b"{}", "text/plain")
    assert answer.status == 415
    assert "application/json" in answer.headers["accept-post"]


def test_only_post_calls_a_method(server: HttpServer) -> None:
    assert server.call(CHECK_HAND, b"", JSON, method="PUT").status == 405


def test_a_request_over_the_size_limit_is_resource_exhausted(server: HttpServer) -> None:
    """--max-receive-bytes bounds an HTTP request as it does a gRPC one."""
    body = json.dumps({"handNotation": "R1 " * MAX_RECEIVE_BYTES}).encode()
    answer = server.call(CHECK_HAND, body, JSON)
    assert answer.status == 429
    assert connect_refusal(answer).code == "resource_exhausted"
    # The rest of the body is not read: the answer says the connection closes.
    assert answer.headers["connection"] == "close"


def test_request_id_is_echoed(server: HttpServer) -> None:
    """A sane x-request-id comes back; without one the server makes one."""
    given = server.json_call("/grpc.health.v1.Health/Check", {},
                             headers={"x-request-id": "table-7.call-42"})
    assert given.headers["x-request-id"] == "table-7.call-42"
    made = server.json_call("/grpc.health.v1.Health/Check", {})
    assert len(made.headers["x-request-id"]) == 32
