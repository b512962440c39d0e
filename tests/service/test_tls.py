"""okey-server over TLS and mutual TLS: what a TLS client gets, and which clients are refused.

The certificates are made at test time (tests/tls_certs.py): the server's is
signed by `ca`; under mutual TLS only a client certificate signed by `ca` is
accepted, not one signed by `other_ca` and not none at all.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable
from typing import Any

import grpc
import pytest
import tls_certs
from grpc_health.v1 import health_pb2, health_pb2_grpc
from okey.v1 import hand_pb2, hand_pb2_grpc

pytestmark = pytest.mark.service

LOOPBACK = "127.0.0.1"

# A bound for each call; a refused handshake fails at once, well inside it.
CALL_TIMEOUT_S = 10.0
WINNING = hand_pb2.CheckHandRequest(
    hand_notation="R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5",
    indicator_notation="R4",
    omit_arrangements=True,
)
MakeServer = Callable[..., tuple[grpc.aio.Server, int]]


@pytest.fixture(scope="module")
def certs() -> tls_certs.TlsFiles:
    return tls_certs.certificates()


def tls_server(make_server: MakeServer, certs: tls_certs.TlsFiles, mutual: bool = False) -> str:
    """Starts an in-process server with the test server certificate; returns its address."""
    _, port = make_server(
        tls_cert=certs.read("server_cert"),
        tls_key=certs.read("server_key"),
        tls_client_ca=certs.read("ca") if mutual else None,
    )
    return f"{LOOPBACK}:{port}"


def credentials(certs: tls_certs.TlsFiles, client: str | None = None) -> grpc.ChannelCredentials:
    """Trusts the test CA; `client` ("client" or "stranger") also presents that certificate."""
    if client is None:
        return grpc.ssl_channel_credentials(certs.read("ca"))
    return grpc.ssl_channel_credentials(
        certs.read("ca"), certs.read(f"{client}_key"), certs.read(f"{client}_cert")
    )


def health(channel: grpc.Channel) -> int:
    request = health_pb2.HealthCheckRequest()
    return int(health_pb2_grpc.HealthStub(channel).Check(request, timeout=CALL_TIMEOUT_S).status)


def check_hand(channel: grpc.Channel) -> hand_pb2.CheckHandResponse:
    return hand_pb2_grpc.HandServiceStub(channel).CheckHand(WINNING, timeout=CALL_TIMEOUT_S)


def refused(channel: grpc.Channel) -> grpc.StatusCode:
    """The status of a call that must fail; fails the test if it answers."""
    with pytest.raises(grpc.RpcError) as raised:
        health(channel)
    return raised.value.code()


def test_a_tls_server_answers_health_and_check_hand_to_a_client_trusting_its_ca(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs)
    with grpc.secure_channel(address, credentials(certs)) as channel:
        assert health(channel) == health_pb2.HealthCheckResponse.SERVING
        answer = check_hand(channel)
    assert answer.winning
    assert answer.summary == "winning: melds"


def test_the_server_certificate_is_checked_against_the_name_the_client_dialled(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs)
    # The certificate names 127.0.0.1, localhost and okey.test, nothing else.
    named = (("grpc.ssl_target_name_override", tls_certs.SERVER_ALT_NAME),)
    with grpc.secure_channel(address, credentials(certs), options=named) as channel:
        assert health(channel) == health_pb2.HealthCheckResponse.SERVING
    other = (("grpc.ssl_target_name_override", "not-the-server.example"),)
    with grpc.secure_channel(address, credentials(certs), options=other) as channel:
        assert refused(channel) == grpc.StatusCode.UNAVAILABLE


def test_a_client_that_does_not_trust_the_server_ca_is_refused(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs)
    wrong_roots = grpc.ssl_channel_credentials(certs.read("other_ca"))
    with grpc.secure_channel(address, wrong_roots) as channel:
        assert refused(channel) == grpc.StatusCode.UNAVAILABLE


def test_a_plaintext_client_gets_no_answer_from_a_tls_server(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs)
    with grpc.insecure_channel(address) as channel:
        assert refused(channel) == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls_answers_a_client_certificate_signed_by_the_client_ca(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs, mutual=True)
    with grpc.secure_channel(address, credentials(certs, "client")) as channel:
        assert health(channel) == health_pb2.HealthCheckResponse.SERVING
        assert check_hand(channel).winning


def test_mutual_tls_refuses_a_client_without_a_certificate(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs, mutual=True)
    with grpc.secure_channel(address, credentials(certs)) as channel:
        assert refused(channel) == grpc.StatusCode.UNAVAILABLE


def test_mutual_tls_refuses_a_client_certificate_signed_by_another_ca(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    address = tls_server(make_server, certs, mutual=True)
    with grpc.secure_channel(address, credentials(certs, "stranger")) as channel:
        assert refused(channel) == grpc.StatusCode.UNAVAILABLE


def test_okey_server_flags_serve_mutual_tls_from_the_files(
    start_server_process: Callable[..., Any], certs: tls_certs.TlsFiles
) -> None:
    server = start_server_process(
        "--port", "0",
        "--tls-cert", str(certs.server_cert),
        "--tls-key", str(certs.server_key),
        "--tls-client-ca", str(certs.ca),
    )
    try:
        with grpc.secure_channel(server.address, credentials(certs, "client")) as channel:
            assert health(channel) == health_pb2.HealthCheckResponse.SERVING
            assert check_hand(channel).winning
        with grpc.secure_channel(server.address, credentials(certs)) as channel:
            assert refused(channel) == grpc.StatusCode.UNAVAILABLE
        with grpc.insecure_channel(server.address) as channel:
            assert refused(channel) == grpc.StatusCode.UNAVAILABLE
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0
    # Only the certified client's two calls reached a handler. (gRPC's own
    # handshake complaints share the log file but are not JSON lines.)
    lines = server.log_path.read_text().splitlines()
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    methods = [entry["method"] for entry in entries if entry.get("event") == "rpc"]
    assert methods == ["/grpc.health.v1.Health/Check", "/okey.v1.HandService/CheckHand"]
    # The startup line tells the operator how clients must connect.
    serving = [entry for entry in entries if entry.get("event") == "serving"]
    assert serving[0]["transport"] == "mutual-tls"
