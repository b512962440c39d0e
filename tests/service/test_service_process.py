"""`okey-server` as a process: startup line, config from flags and env, JSON logs, clean drain."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_rules import __version__

pytestmark = pytest.mark.service

CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
WINNING = "K13 Y12 B11 R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11"
THREE_R7 = "R7 R7 " + " ".join(WINNING.split()[2:])  # 14 tiles, one too many R7
# Tile notation (R7, Y13, B1, K12) as a whole word: none may appear in an info log.
TILE_WORD = re.compile(r"\b[RYBK](?:1[0-3]|[1-9])\b")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_server_prints_startup_line_and_drains_cleanly_on_signal(
    start_server_process, signum: int
) -> None:
    server = start_server_process("--port", "0")
    assert server.startup["host"] == "127.0.0.1"
    assert server.port > 0
    assert server.startup["version"] == __version__

    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
    assert status.status == health_pb2.HealthCheckResponse.SERVING

    assert server.stop(signum) == 0
    events = [line["event"] for line in server.log_lines()]
    assert events[-2:] == ["draining", "stopped"]


# Twenty different hands (no answer comes from a cache): WINNING's wild tile rotated.
CALLS_IN_FLIGHT = 20
GRACE_S = 5.0


def _requests_in_flight() -> list[hand_pb2.CheckHandRequest]:
    faces = [f"{color}{number}" for color in "RYBK" for number in range(1, 14)]
    return [
        hand_pb2.CheckHandRequest(hand_notation=WINNING, okey_notation=faces[index])
        for index in range(CALLS_IN_FLIGHT)
    ]


def test_sigterm_lets_every_call_sent_before_it_finish_within_the_grace(
    start_server_process,
) -> None:
    """Drain: calls a client sent before SIGTERM are answered, none CANCELLED.

    The server is paused (SIGSTOP) while the client sends 20 calls, then gets
    SIGTERM and resumes: every call is on its way before the signal, and the
    server sees the signal and the calls at once, the case in which grpc's own
    stop cancelled most of them.
    """
    server = start_server_process("--port", "0", "--grace", str(GRACE_S))
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        stub = hand_pb2_grpc.HandServiceStub(channel)
        stub.CheckHand(_requests_in_flight()[0])  # connected and warm
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            calls = [stub.CheckHand.future(r, timeout=30) for r in _requests_in_flight()]
            time.sleep(0.3)  # let the client put them all on the wire
            os.kill(server.process.pid, signal.SIGTERM)
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        codes = []
        for call in calls:
            try:
                call.result()
                codes.append("OK")
            except grpc.RpcError as error:
                codes.append(error.code().name)
    assert codes == ["OK"] * CALLS_IN_FLIGHT
    assert server.process.wait(timeout=GRACE_S + 25) == 0
    lines = server.log_lines()
    events = [line["event"] for line in lines]
    assert "draining" in events
    assert events[-1] == "stopped"
    assert [line["code"] for line in lines if line["event"] == "rpc"] == ["OK"] * (
        CALLS_IN_FLIGHT + 1
    )


def test_a_second_signal_stops_at_once(start_server_process) -> None:
    """Draining, a second SIGTERM/SIGINT cuts the grace short; the exit is still clean."""
    server = start_server_process("--port", "0", "--grace", "600")
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        watch = health.Watch(health_pb2.HealthCheckRequest())  # open for as long as it watches
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        server.process.send_signal(signal.SIGTERM)
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        assert server.stop(signal.SIGINT) == 0
    events = [line["event"] for line in server.log_lines() if line["event"] != "rpc"]
    assert events[-3:] == ["draining", "stopping now", "stopped"]


def test_environment_configures_the_server_and_flags_win(start_server_process) -> None:
    env = {
        "OKEY_PORT": "1",
        "OKEY_GRACE": "2",
        "OKEY_SIGNING_KEY": "k" * 40,
        "OKEY_LOG_LEVEL": "error",  # the startup line prints at any level
    }
    server = start_server_process("--port", "0", env=env)
    assert server.port > 1  # the flag beat OKEY_PORT=1 (a port no test may bind)
    events = [line["event"] for line in server.log_lines()]
    assert "signing key generated" not in events
    assert server.stop() == 0


def test_without_signing_key_the_server_warns_states_will_not_survive_restart(
    start_server_process,
) -> None:
    server = start_server_process(env={"OKEY_PORT": "0"})
    warnings = [line for line in server.log_lines() if line["level"] == "warning"]
    assert any("restart" in str(line.get("detail")) for line in warnings)
    assert server.stop() == 0


def test_one_json_log_line_per_rpc_without_tiles(start_server_process) -> None:
    server = start_server_process("--port", "0", "--log-level", "info")
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        hand = hand_pb2_grpc.HandServiceStub(channel)
        hand.CheckHand(
            hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="K12"),
            metadata=(("x-request-id", "log-test-ok"),),
        )
        with pytest.raises(grpc.RpcError):
            hand.CheckHand(  # a bad request whose error text names tiles
                hand_pb2.CheckHandRequest(hand_notation=THREE_R7, okey_notation="K13"),
                metadata=(("x-request-id", "log-test-bad"),),
            )
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
    assert server.stop() == 0

    lines = server.log_lines()  # every line parses as JSON
    rpcs = [line for line in lines if line["event"] == "rpc"]
    assert [(line["method"], line["code"]) for line in rpcs] == [
        ("/okey.v1.HandService/CheckHand", "OK"),
        ("/okey.v1.HandService/CheckHand", "INVALID_ARGUMENT"),
        ("/grpc.health.v1.Health/Check", "OK"),
    ]
    assert [line["request_id"] for line in rpcs[:2]] == ["log-test-ok", "log-test-bad"]
    assert re.fullmatch(r"[0-9a-f]{32}", str(rpcs[2]["request_id"]))
    for line in rpcs:
        assert isinstance(line["duration_ms"], float)
        assert line["duration_ms"] >= 0
        assert line["level"] == "info"
        assert str(line["peer"]).startswith("ipv4:127.0.0.1:")
    assert rpcs[1]["invalid_field"] == "hand_notation"  # the field name, never its content
    log_text = server.log_path.read_text()
    assert TILE_WORD.findall(log_text) == []


def test_second_process_on_a_taken_port_exits_1_with_an_error_line(start_server_process) -> None:
    first = start_server_process()
    second = subprocess.run(
        [*first.command, "--port", str(first.port)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert second.returncode == 1
    # gRPC's C core adds its own plain-text line about the bind; ours are JSON.
    errors = [json.loads(line) for line in second.stderr.splitlines() if line.startswith("{")]
    assert [e["event"] for e in errors if e["level"] == "error"] == ["cannot start"]
    assert first.stop() == 0


@pytest.mark.parametrize("key", ["", "short key"], ids=["empty", "9-bytes"])
def test_a_short_or_empty_signing_key_stops_the_server_at_start_with_exit_2(
    start_server_process, key: str
) -> None:
    """The process refuses it before serving, naming the variable, never printing the key."""
    command = start_server_process().command  # how to run okey-server here
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["OKEY_SIGNING_KEY"] = key
    result = subprocess.run(
        [*command, "--port", "0"], capture_output=True, text=True, timeout=60, env=env,
        check=False,
    )
    assert result.returncode == 2
    assert "OKEY_SIGNING_KEY" in result.stderr.splitlines()[-1]
    assert "serving" not in result.stderr
    if key:
        assert key not in result.stderr
