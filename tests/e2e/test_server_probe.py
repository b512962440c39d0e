"""`okey-server-probe` (the container health check): exit 0 only for a SERVING health Check."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest
from grpc_health.v1._async import HealthServicer
from okey_server import probe

pytestmark = pytest.mark.service

PROBE = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "okey-server-probe"
LOOPBACK = "127.0.0.1"
DEADLINE_S = 30.0  # an upper bound for a subprocess, not a timing assertion


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def test_probe_exits_0_for_a_serving_server(grpc_server: str) -> None:
    assert probe.main(["--address", grpc_server]) == 0


def test_probe_exits_1_for_a_draining_server(make_server, loop_thread, capsys) -> None:
    # A draining server answers NOT_SERVING: the container must turn unhealthy.
    health = HealthServicer()
    _server, port = make_server(health_servicer=health)
    address = f"{LOOPBACK}:{port}"
    assert probe.main(["--address", address]) == 0
    loop_thread.run(health.enter_graceful_shutdown())
    assert probe.main(["--address", address]) == 1
    assert "NOT_SERVING" in capsys.readouterr().err


def test_probe_exits_1_for_an_unknown_service(grpc_server: str, capsys) -> None:
    assert probe.main(["--address", grpc_server, "--service", "okey.v1.NoSuchService"]) == 1
    assert "NOT_FOUND" in capsys.readouterr().err


def test_probe_exits_1_when_nothing_listens(capsys) -> None:
    address = f"{LOOPBACK}:{_closed_port()}"
    assert probe.main(["--address", address, "--timeout", "1"]) == 1
    assert address in capsys.readouterr().err


def test_probe_refuses_a_client_certificate_without_its_key(grpc_server: str) -> None:
    assert probe.main(["--address", grpc_server, "--tls-cert", "cert.pem"]) == 2


def test_console_script_is_installed_and_reads_okey_port(grpc_server: str) -> None:
    # The Dockerfile's HEALTHCHECK runs the script bare: the port comes from OKEY_PORT.
    assert PROBE.exists(), "okey-server-probe missing from .venv/bin: `make setup` installs it"
    port = grpc_server.rsplit(":", 1)[1]
    done = subprocess.run(
        [str(PROBE)], env={"OKEY_PORT": port}, capture_output=True, timeout=DEADLINE_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    closed = subprocess.run(
        [str(PROBE), "--timeout", "1"], env={"OKEY_PORT": str(_closed_port())},
        capture_output=True, timeout=DEADLINE_S, check=False,
    )
    assert closed.returncode == 1


def test_the_probe_asks_the_health_lane_when_the_server_has_one() -> None:
    assert probe.default_port({"OKEY_HEALTH_PORT": "50052", "OKEY_PORT": "50051"}) == "50052"
    assert probe.default_port({"OKEY_PORT": "50051"}) == "50051"
    assert probe.default_port({"OKEY_HEALTH_PORT": "", "OKEY_PORT": ""}) == "50051"
