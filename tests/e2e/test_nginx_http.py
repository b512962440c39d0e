"""TLS in front of the HTTP listener of several instances: nginx with deploy/nginx/okey-http.conf
(only its `server`, `listen` and certificate lines changed) before two okey-server processes
started with --http-port.

What it pins (docs/deploy.md, "The HTTP listener behind TLS"): Connect JSON over HTTPS
through nginx reaches both instances; gRPC-Web and HTTP/2 pass; CORS is okey-server's
(its allow list answers the preflight through nginx); a body just over the server's
256 KiB limit gets the server's `resource_exhausted`, a larger one nginx's in the same
form; a stopped instance's calls go to the other; with none left nginx answers Connect's
error JSON (`unavailable`, HTTP 503) or, to gRPC-Web, `grpc-status: 14`.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import ssl
import struct
import subprocess
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import tls_certs
from okey.v1 import hand_pb2
from okey_server.http.listener import KEEP_ALIVE_S
from test_nginx_balancer import (
    LOOPBACK,
    MAX_RECEIVE_BYTES,
    WINNING,
    free_port,
    logged_calls,
    nginx_binary,
    rpc_counts,
    run_nginx,
    stop_nginx,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "okey-http.conf"
UPSTREAM_OPENING = "upstream okey_http_upstream {"
# The template's example lines the test replaces (and checks it found).
UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+\S+:\d+(\s[^;]*)?;\s*$", re.MULTILINE)
LISTEN = re.compile(r"^(\s*)listen\s+443\s+ssl\s+http2;\s*$", re.MULTILINE)
CERTIFICATE = re.compile(r"^(\s*)ssl_certificate\s+\S+;\s*$", re.MULTILINE)
CERTIFICATE_KEY = re.compile(r"^(\s*)ssl_certificate_key\s+\S+;\s*$", re.MULTILINE)
CALL_TIMEOUT_S = 10.0
CHECK_HAND = "/okey.v1.HandService/CheckHand"
HAND = {"handNotation": WINNING, "indicatorNotation": "R4", "omitArrangements": True}
ALLOWED_ORIGIN = "https://table.example"
JSON_TYPE = {"Content-Type": "application/json"}
GRPC_WEB_TYPE = {"Content-Type": "application/grpc-web+proto"}
SPREAD_CALLS = 8


def render(template: str, upstream_ports: list[int], listen_port: int,
           certs: tls_certs.TlsFiles) -> str:
    """The template with its `server` lines pointing at the local instances' HTTP ports, a
    loopback listener and the test certificate; every other line as shipped."""
    servers = UPSTREAM_SERVER.findall(template)
    assert len(servers) >= 2, "the template's upstream lost its example server lines"
    indent, parameters = servers[0]
    lines = "\n".join(f"{indent}server {LOOPBACK}:{port}{parameters};" for port in upstream_ports)
    rendered = UPSTREAM_SERVER.sub("", template)
    assert UPSTREAM_OPENING in rendered
    rendered = rendered.replace(UPSTREAM_OPENING, f"{UPSTREAM_OPENING}\n{lines}", 1)
    for pattern, replacement in (
        (LISTEN, rf"\g<1>listen {LOOPBACK}:{listen_port} ssl http2;"),
        (CERTIFICATE, rf"\g<1>ssl_certificate {certs.server_cert};"),
        (CERTIFICATE_KEY, rf"\g<1>ssl_certificate_key {certs.server_key};"),
    ):
        rendered, count = pattern.subn(replacement, rendered)
        assert count == 1, f"the template should have exactly one line matching {pattern.pattern}"
    return rendered


@dataclass
class Balancer:
    url: str
    port: int
    process: subprocess.Popen[bytes]


@pytest.fixture
def start_nginx(tmp_path: Path) -> Iterator[Callable[[list[int]], Balancer]]:
    """Starts nginx with okey-http.conf in front of the given HTTP ports; stopped at teardown."""
    binary = nginx_binary()
    certs = tls_certs.certificates()
    started: list[subprocess.Popen[bytes]] = []

    def start(upstream_ports: list[int]) -> Balancer:
        port = free_port()
        prefix = tmp_path / "nginx"
        prefix.mkdir()
        site = prefix / "okey-http.conf"
        site.write_text(render(TEMPLATE.read_text(), upstream_ports, port, certs))
        process, _error_log = run_nginx(binary, prefix, site, port)
        started.append(process)
        # By name: the certificate is for 127.0.0.1 and localhost.
        return Balancer(f"https://localhost:{port}", port, process)

    yield start
    stop_nginx(started)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    def json(self) -> dict[str, object]:
        assert self.headers.get("content-type", "").startswith("application/json"), self.headers
        document = json.loads(self.body)
        assert isinstance(document, dict)
        return document


def https(url: str, body: bytes, headers: dict[str, str], method: str = "POST") -> Answer:
    """One request with urllib, trusting only the test CA; an HTTP error status is an Answer."""
    trusting = ssl.create_default_context(cafile=str(tls_certs.certificates().ca))
    request = urllib.request.Request(url, data=body if method == "POST" else None,
                                     headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, context=trusting, timeout=CALL_TIMEOUT_S) as got:
            return Answer(got.status, {k.lower(): v for k, v in got.getheaders()}, got.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


def check_hand(balancer: Balancer, hand: dict[str, object] = HAND,
               extra: dict[str, str] | None = None) -> Answer:
    headers = {**JSON_TYPE, **(extra or {})}
    return https(balancer.url + CHECK_HAND, json.dumps(hand).encode(), headers)


def grpc_web_frames(body: bytes) -> tuple[list[bytes], dict[str, str]]:
    """A gRPC-Web answer's messages and its trailer frame's fields."""
    messages: list[bytes] = []
    trailers: dict[str, str] = {}
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        payload, body = body[5:5 + length], body[5 + length:]
        if flags & 0x80:
            for line in payload.decode().split("\r\n"):
                if line:
                    name, _, value = line.partition(":")
                    trailers[name.strip().lower()] = value.strip()
        else:
            messages.append(payload)
    return messages, trailers


def grpc_web_check_hand(balancer: Balancer) -> Answer:
    message = hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4",
                                        omit_arrangements=True).SerializeToString()
    framed = struct.pack(">BI", 0, len(message)) + message
    return https(balancer.url + CHECK_HAND, framed, GRPC_WEB_TYPE)


def start_instances(start_server_process, count: int) -> list:
    key = secrets.token_hex(32)
    # A short grace: the test stops instances and need not wait out a long drain.
    return [start_server_process("--port", "0", "--http-port", "0", "--grace", "1",
                                 "--http-cors-origin", ALLOWED_ORIGIN,
                                 env={"OKEY_SIGNING_KEY": key})
            for _ in range(count)]


def http_port(instance) -> int:
    return int(instance.startup["http_port"])


def test_connect_and_grpc_web_over_https_through_nginx_reach_every_instance(
    start_server_process, start_nginx
) -> None:
    instances = start_instances(start_server_process, 2)
    balancer = start_nginx([http_port(instance) for instance in instances])

    before = {i: rpc_counts(instance, "CheckHand") for i, instance in enumerate(instances)}
    for _ in range(SPREAD_CALLS):
        answer = check_hand(balancer)
        assert answer.status == 200, answer
        assert answer.json()["winning"] is True
    served = logged_calls(instances, "CheckHand", before, SPREAD_CALLS)
    assert all(served[i] > 0 for i in range(len(instances))), (
        f"nginx did not spread {SPREAD_CALLS} calls over both instances: {dict(served)}")

    # gRPC-Web passes too: the answer's message, then a trailer frame with status 0.
    answer = grpc_web_check_hand(balancer)
    assert answer.status == 200
    messages, trailers = grpc_web_frames(answer.body)
    assert trailers["grpc-status"] == "0"
    assert hand_pb2.CheckHandResponse.FromString(messages[0]).winning

    # Bad input is the instance's answer, details and all, untouched by nginx.
    refused = check_hand(balancer, {"handNotation": "R1 X2", "indicatorNotation": "R4"})
    assert refused.status == 400
    assert refused.json()["code"] == "invalid_argument"
    assert {detail["type"] for detail in refused.json()["details"]} == {  # type: ignore[union-attr]
        "google.rpc.BadRequest", "google.rpc.ErrorInfo"}


def test_browsers_get_http2_and_okey_servers_cors_through_nginx(
    start_server_process, start_nginx
) -> None:
    instances = start_instances(start_server_process, 2)
    balancer = start_nginx([http_port(instance) for instance in instances])

    # HTTP/2 by ALPN, as browsers negotiate it (curl, which the docs' examples use too).
    curl = shutil.which("curl")
    assert curl, "curl is needed (Debian package curl)"
    done = subprocess.run(
        [curl, "--silent", "--show-error", "--http2", "--cacert", str(tls_certs.certificates().ca),
         "-H", "Content-Type: application/json", "--data", json.dumps(HAND),
         "--write-out", "\n%{http_version} %{http_code}", balancer.url + CHECK_HAND],
        capture_output=True, text=True, timeout=CALL_TIMEOUT_S * 3, check=False,
    )
    assert done.returncode == 0, done.stderr
    body, _, versions = done.stdout.rpartition("\n")
    assert versions == "2 200"
    assert json.loads(body)["winning"] is True

    # The preflight is okey-server's: its allow list, its headers; nginx adds none.
    preflight = {"Origin": ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type,connect-protocol-version"}
    allowed = https(balancer.url + CHECK_HAND, b"", preflight, method="OPTIONS")
    assert allowed.status == 204
    assert allowed.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    stranger = https(balancer.url + CHECK_HAND, b"",
                     {**preflight, "Origin": "https://elsewhere.example"}, method="OPTIONS")
    assert stranger.status == 403
    assert "access-control-allow-origin" not in stranger.headers
    call = check_hand(balancer, extra={"Origin": ALLOWED_ORIGIN})
    assert call.status == 200
    assert call.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "access-control-allow-origin" not in check_hand(
        balancer, extra={"Origin": "https://elsewhere.example"}).headers


def test_body_limits_failover_and_the_connect_error_with_no_instance(
    start_server_process, start_nginx
) -> None:
    instances = start_instances(start_server_process, 2)
    balancer = start_nginx([http_port(instance) for instance in instances])

    # Just over the server's 256 KiB: under nginx's limit, so the instance answers.
    over_server = check_hand(balancer, {"handNotation": "R" * (MAX_RECEIVE_BYTES + 16)})
    assert over_server.status == 429
    assert over_server.json()["code"] == "resource_exhausted"
    assert "client_max_body_size" not in str(over_server.json()["message"])
    # Over nginx's own limit: refused there, in the same form.
    over_nginx = check_hand(balancer, {"handNotation": "R" * (MAX_RECEIVE_BYTES + 8 * 1024)})
    assert over_nginx.status == 429
    assert over_nginx.json()["code"] == "resource_exhausted"
    assert "client_max_body_size" in str(over_nginx.json()["message"])

    # One instance stopped: its share of the calls is retried on the other.
    assert instances[1].stop() == 0
    for _ in range(6):
        answer = check_hand(balancer)
        assert answer.status == 200, answer

    # None left: Connect's error JSON with Connect's status for `unavailable`, readable by
    # the page that sent it; gRPC-Web's status in headers.
    assert instances[0].stop() == 0
    unavailable = check_hand(balancer, extra={"Origin": ALLOWED_ORIGIN})
    assert unavailable.status == 503
    assert unavailable.json() == {
        "code": "unavailable",
        "message": "no okey-server instance reachable behind the balancer"}
    assert unavailable.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    grpc_web = grpc_web_check_hand(balancer)
    assert grpc_web.status == 200
    assert grpc_web.headers["grpc-status"] == "14"
    assert "no okey-server instance reachable" in grpc_web.headers["grpc-message"]


def test_nginx_drops_idle_upstream_connections_before_the_instances_do() -> None:
    """The upstream keepalive_timeout is under okey-server's idle close: nginx never reuses
    a connection the instance is closing (that call would fail or need a retry)."""
    found = re.search(r"^\s*keepalive_timeout\s+(\d+)s;", TEMPLATE.read_text(), re.MULTILINE)
    assert found, "okey-http.conf should set the upstream keepalive_timeout in seconds"
    assert int(found.group(1)) < KEEP_ALIVE_S
