"""okey-server's HTTP listener as an operator runs it: ``--http-port 0`` named on the startup
line, TLS and mutual TLS from the gRPC port's files, ``--processes 2`` sharing the port,
and a clean stop on SIGTERM."""

from __future__ import annotations

import http.client
import json
import ssl
import time

import pytest
import tls_certs

pytestmark = pytest.mark.e2e

HEALTH = "/grpc.health.v1.Health/Check"
CHECK_HAND = "/okey.v1.HandService/CheckHand"
HAND = {"handNotation": "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13",
        "indicatorNotation": "R4"}


def post(connection: http.client.HTTPConnection, path: str, body: dict[str, object]
         ) -> tuple[int, dict[str, object]]:
    connection.request("POST", path, body=json.dumps(body),
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def test_http_port_0_is_named_on_the_startup_line_and_serves(start_server_process) -> None:
    server = start_server_process("--port", "0", "--http-port", "0")
    connection = http.client.HTTPConnection("127.0.0.1", int(server.startup["http_port"]),
                                            timeout=10)
    status, answer = post(connection, CHECK_HAND, HAND)
    assert (status, answer["summary"]) == (200, "winning: melds")
    assert server.stop() == 0
    lines = server.log_lines()
    assert any(line.get("event") == "rpc" and line.get("transport") == "connect_json"
               for line in lines)
    assert not [line for line in lines if line.get("level") == "error"]


def test_a_connection_idle_past_the_receive_timeout_still_serves(start_server_process) -> None:
    """A keep-alive connection left idle longer than --receive-timeout (a page whose player
    is thinking) carries the next call: the receive timeout must not leave an idle
    connection open but deaf, which made that call hang."""
    server = start_server_process("--port", "0", "--http-port", "0", "--receive-timeout", "1")
    connection = http.client.HTTPConnection("127.0.0.1", int(server.startup["http_port"]),
                                            timeout=10)
    assert post(connection, HEALTH, {}) == (200, {"status": "SERVING"})
    sock = connection.sock
    time.sleep(2.5)
    assert post(connection, HEALTH, {}) == (200, {"status": "SERVING"})
    assert connection.sock is sock
    connection.close()


def test_without_http_port_there_is_no_http_listener(start_server_process) -> None:
    server = start_server_process("--port", "0")
    assert "http_port" not in server.startup


def test_tls_and_mutual_tls_as_on_the_grpc_port(start_server_process) -> None:
    """With --tls-cert/--tls-key the HTTP listener speaks TLS with the same certificate;
    with --tls-client-ca it requires a client certificate that CA signed."""
    certs = tls_certs.certificates()
    server = start_server_process(
        "--port", "0", "--http-port", "0", "--tls-cert", str(certs.server_cert),
        "--tls-key", str(certs.server_key), "--tls-client-ca", str(certs.ca))
    port = int(server.startup["http_port"])
    trusting = ssl.create_default_context(cafile=str(certs.ca))
    trusting.load_cert_chain(str(certs.client_cert), str(certs.client_key))
    connection = http.client.HTTPSConnection("127.0.0.1", port, context=trusting, timeout=10)
    assert post(connection, HEALTH, {}) == (200, {"status": "SERVING"})
    anonymous = ssl.create_default_context(cafile=str(certs.ca))
    with pytest.raises((ssl.SSLError, ConnectionError)):
        post(http.client.HTTPSConnection("127.0.0.1", port, context=anonymous, timeout=10),
             HEALTH, {})
    plaintext = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    with pytest.raises((http.client.HTTPException, ConnectionError)):
        post(plaintext, HEALTH, {})


def test_processes_share_the_http_port(start_server_process) -> None:
    """--processes 2: one http_port on the parent's line; both server processes answer it."""
    server = start_server_process("--port", "0", "--http-port", "0", "--processes", "2")
    port = int(server.startup["http_port"])
    for _ in range(8):  # each call on its own connection: the kernel spreads connections
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        assert post(connection, HEALTH, {}) == (200, {"status": "SERVING"})
        connection.close()
    assert server.stop() == 0
    served = {line["pid"] for line in server.log_lines() if line.get("event") == "rpc"}
    assert served <= set(server.startup["workers"])  # type: ignore[arg-type]
    assert served
