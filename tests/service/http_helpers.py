"""Helpers for the HTTP listener's tests: an in-process server (gRPC and HTTP over the same
servicers), and calls made with http.client alone, framing gRPC-Web by hand."""

from __future__ import annotations

import base64
import http.client
import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1._async import HealthServicer
from okey_server.http.app import HttpApp
from okey_server.http.call_log import HttpMetrics
from okey_server.http.listener import HttpListener
from okey_server.rpc.config import Config
from okey_server.rpc.logging_setup import configure_logging
from okey_server.rpc.metrics import RpcMetrics
from okey_server.rpc.rpc_wrapper import Activity
from okey_server.rpc.server import create_server, make_servicers

# Not imported from tests/conftest.py: `import conftest` finds tests/unit's when both
# directories are collected.
LOOPBACK = "127.0.0.1"
SIGNING_KEY = b"okey-rules HTTP listener test key"
GRPC_OPTIONS = (("grpc.so_reuseport", 0),)
JSON = "application/json"
PROTO = "application/proto"
GRPC_WEB = "application/grpc-web+proto"
ALLOWED_ORIGIN = "http://table.example:5173"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class HttpServer:
    """A gRPC server and an HTTP listener serving the same servicer objects."""

    port: int
    grpc_address: str
    activity: Activity
    metrics: RpcMetrics
    app: HttpApp
    servicers: dict[str, object]
    stops: list[Any] = field(default_factory=list)

    def call(self, path: str, body: bytes, content_type: str = JSON,
             headers: dict[str, str] | None = None, method: str = "POST") -> Answer:
        connection = http.client.HTTPConnection(LOOPBACK, self.port, timeout=10)
        try:
            sent = {"Content-Type": content_type, **(headers or {})}
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            return Answer(response.status,
                          {key.lower(): value for key, value in response.getheaders()},
                          response.read())
        finally:
            connection.close()

    def json_call(self, path: str, request: dict[str, Any], **options: Any) -> Answer:
        return self.call(path, json.dumps(request).encode(), JSON, **options)

    def ok(self, path: str, request: dict[str, Any]) -> dict[str, Any]:
        """A call over Connect JSON that must succeed; its answer."""
        answer = self.json_call(path, request)
        assert answer.status == 200, answer.body
        assert answer.headers["content-type"] == JSON
        return answer.json()  # type: ignore[no-any-return]


def loopback_config(**overrides: Any) -> Config:
    """A Config for an in-process server: loopback, ephemeral ports, a fixed key."""
    settings: dict[str, Any] = {"host": LOOPBACK, "port": 0, "log_level": "warning",
                                "signing_key": SIGNING_KEY, "signing_key_generated": False}
    return Config(**{**settings, **overrides})


def start_http_server(loop_thread: Any, **overrides: Any) -> HttpServer:
    given = overrides.pop("servicers", None)
    config = loopback_config(http_port=0, **overrides)
    # Quiet, as the session's gRPC server: per-call info lines would clutter failures.
    configure_logging(config.log_level)
    servicers = given or make_servicers(config)
    activity = Activity()
    health = HealthServicer()
    metrics = RpcMetrics()
    server, grpc_port = loop_thread.run(create_server(
        config.address, config, health, activity, servicers=servicers))
    loop_thread.run(server.start())

    async def listen() -> tuple[HttpApp, HttpListener]:
        app = HttpApp(config, servicers, health, activity, HttpMetrics(metrics))
        listener = HttpListener(app, config)
        listener.start()
        return app, listener

    app, listener = loop_thread.run(listen())
    made = HttpServer(listener.port, f"{LOOPBACK}:{grpc_port}", activity, metrics, app,
                      servicers)
    made.stops = [listener, server]
    return made


def stop_http_server(loop_thread: Any, server: HttpServer) -> None:
    listener, grpc_server = server.stops
    loop_thread.run(listener.stop(0))
    loop_thread.run(grpc_server.stop(None))


def grpc_web_frame(message: bytes) -> bytes:
    return b"\x00" + struct.pack(">I", len(message)) + message


def grpc_web_frames(body: bytes) -> Iterator[tuple[int, bytes]]:
    """(flags, payload) of each frame of a gRPC-Web answer."""
    at = 0
    while at < len(body):
        flags, size = body[at], struct.unpack(">I", body[at + 1:at + 5])[0]
        yield flags, body[at + 5:at + 5 + size]
        at += 5 + size


def grpc_web_answer(answer: Answer) -> tuple[list[bytes], dict[str, str]]:
    """The messages and the trailers of a gRPC-Web answer (a trailers-only answer carries
    them in its headers)."""
    messages: list[bytes] = []
    trailers: dict[str, str] = {}
    for flags, payload in grpc_web_frames(answer.body):
        if flags & 0x80:
            for line in payload.decode().split("\r\n"):
                if line:
                    key, _, value = line.partition(":")
                    trailers[key.strip().lower()] = value.strip()
        else:
            messages.append(payload)
    if not trailers and "grpc-status" in answer.headers:
        trailers = {key: value for key, value in answer.headers.items()
                    if key.startswith("grpc-")}
    return messages, trailers


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    fields: tuple[str, ...]
    reason: str


def _unpacked(details: list[tuple[str, bytes]]) -> tuple[tuple[str, ...], str]:
    fields: tuple[str, ...] = ()
    reason = ""
    for type_name, value in details:
        if type_name == "google.rpc.BadRequest":
            bad = error_details_pb2.BadRequest.FromString(value)
            fields = tuple(violation.field for violation in bad.field_violations)
        elif type_name == "google.rpc.ErrorInfo":
            reason = error_details_pb2.ErrorInfo.FromString(value).reason
    return fields, reason


def unpadded_b64(text: str) -> bytes:
    """Base64 as Connect and gRPC-Web write it, without padding."""
    return base64.b64decode(text + "=" * (-len(text) % 4))


def connect_refusal(answer: Answer) -> Refusal:
    """Connect's error JSON, its details decoded as a client would."""
    error = answer.json()
    details = [(detail["type"], unpadded_b64(detail["value"]))
               for detail in error.get("details", ())]
    fields, reason = _unpacked(details)
    return Refusal(error["code"], error["message"], fields, reason)


def grpc_web_refusal(trailers: dict[str, str]) -> tuple[grpc.StatusCode, Refusal]:
    """gRPC-Web's status trailers, grpc-status-details-bin decoded."""
    code = next(c for c in grpc.StatusCode if c.value[0] == int(trailers["grpc-status"]))
    packed = trailers.get("grpc-status-details-bin", "")
    status = status_pb2.Status.FromString(unpadded_b64(packed))
    details = [(detail.type_url.rpartition("/")[2], detail.value) for detail in status.details]
    fields, reason = _unpacked(details)
    return code, Refusal(code.name.lower(), status.message, fields, reason)
