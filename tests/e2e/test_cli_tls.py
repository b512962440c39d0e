"""The `okey` CLI over TLS and mutual TLS: --tls, --tls-ca, --tls-cert, --tls-key,
--tls-server-name and their OKEY_TLS* variables, against in-process TLS servers."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
import tls_certs

pytestmark = pytest.mark.e2e

LOOPBACK = "127.0.0.1"

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
# A bound for a CLI run to finish, not a timing assertion.
RUN_DEADLINE_S = 60
HAND = ["R1", "R2", "R3", "Y7", "B7", "K7", "R9", "R10", "R11", "R12", "B1", "Y1", "K1", "R5"]
MakeServer = Callable[..., tuple[grpc.aio.Server, int]]


@pytest.fixture(scope="module")
def certs() -> tls_certs.TlsFiles:
    return tls_certs.certificates()


def okey(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs the CLI with no OKEY_* variable but those given."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    clean.update(env)
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
        env=clean, timeout=RUN_DEADLINE_S, check=False,
    )


def hand(server: str, *flags: str, **env: str) -> subprocess.CompletedProcess[str]:
    return okey("hand", "check", *HAND, "--indicator", "R4", "--server", server, *flags, **env)


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The CLI's own message (gRPC may log handshake failures to stderr before it)."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("okey: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def tls_server(make_server: MakeServer, certs: tls_certs.TlsFiles) -> str:
    _, port = make_server(tls_cert=certs.read("server_cert"), tls_key=certs.read("server_key"))
    return f"{LOOPBACK}:{port}"


@pytest.fixture
def mtls_server(make_server: MakeServer, certs: tls_certs.TlsFiles) -> str:
    _, port = make_server(
        tls_cert=certs.read("server_cert"),
        tls_key=certs.read("server_key"),
        tls_client_ca=certs.read("ca"),
    )
    return f"{LOOPBACK}:{port}"


# --- TLS ----------------------------------------------------------------------


def test_hand_check_over_tls_trusting_the_ca_from_the_flag(
    tls_server: str, certs: tls_certs.TlsFiles
) -> None:
    result = hand(tls_server, "--tls-ca", str(certs.ca))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("winning: melds\n")


def test_hand_check_over_tls_trusting_the_ca_from_the_environment(
    tls_server: str, certs: tls_certs.TlsFiles
) -> None:
    result = hand(tls_server, OKEY_TLS_CA=str(certs.ca))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("winning: melds\n")


def test_conformance_run_over_tls_goes_through_the_same_channel(
    tls_server: str, certs: tls_certs.TlsFiles
) -> None:
    result = okey(
        "conformance", "run", "--filter", "sets-ones-and-thirteens",
        "--server", tls_server, "--tls-ca", str(certs.ca),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_a_plaintext_cli_cannot_reach_a_tls_server(tls_server: str) -> None:
    result = hand(tls_server)
    assert result.returncode == 3
    assert error_line(result) == f"okey: cannot reach okey server at {tls_server}"


def test_tls_with_the_default_roots_refuses_the_test_ca_and_says_why(tls_server: str) -> None:
    result = hand(tls_server, "--tls")
    assert result.returncode == 3
    expected = f"okey: cannot reach okey server at {tls_server} over TLS: "
    assert error_line(result).startswith(expected)


def test_okey_tls_variable_turns_tls_on(tls_server: str) -> None:
    result = hand(tls_server, OKEY_TLS="1")
    assert result.returncode == 3
    assert " over TLS: " in error_line(result)


def test_tls_server_name_replaces_the_address_in_the_certificate_check(
    tls_server: str, certs: tls_certs.TlsFiles
) -> None:
    ca = ("--tls-ca", str(certs.ca))
    named = hand(tls_server, *ca, "--tls-server-name", tls_certs.SERVER_ALT_NAME)
    assert named.returncode == 0, named.stderr
    wrong = hand(tls_server, *ca, OKEY_TLS_SERVER_NAME="not-the-server.example")
    assert wrong.returncode == 3
    assert " over TLS: " in error_line(wrong)


def test_several_tls_addresses_are_checked_against_the_first_host(
    make_server: MakeServer, certs: tls_certs.TlsFiles
) -> None:
    ports = [
        make_server(tls_cert=certs.read("server_cert"), tls_key=certs.read("server_key"))[1]
        for _ in range(2)
    ]
    servers = ",".join(f"{LOOPBACK}:{port}" for port in ports)
    result = hand(servers, "--tls-ca", str(certs.ca))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("winning: melds\n")


# --- mutual TLS ---------------------------------------------------------------


def test_hand_check_over_mutual_tls_with_a_client_certificate(
    mtls_server: str, certs: tls_certs.TlsFiles
) -> None:
    flags = ("--tls-ca", str(certs.ca), "--tls-cert", str(certs.client_cert),
             "--tls-key", str(certs.client_key))
    result = hand(mtls_server, *flags)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("winning: melds\n")


def test_the_client_certificate_from_the_environment(
    mtls_server: str, certs: tls_certs.TlsFiles
) -> None:
    result = hand(
        mtls_server,
        OKEY_TLS_CA=str(certs.ca),
        OKEY_TLS_CLIENT_CERT=str(certs.client_cert),
        OKEY_TLS_CLIENT_KEY=str(certs.client_key),
    )
    assert result.returncode == 0, result.stderr


def test_mutual_tls_refuses_the_cli_without_a_certificate(
    mtls_server: str, certs: tls_certs.TlsFiles
) -> None:
    result = hand(mtls_server, "--tls-ca", str(certs.ca))
    assert result.returncode == 3
    assert " over TLS: " in error_line(result)


def test_mutual_tls_refuses_a_certificate_of_another_ca(
    mtls_server: str, certs: tls_certs.TlsFiles
) -> None:
    flags = ("--tls-ca", str(certs.ca), "--tls-cert", str(certs.stranger_cert),
             "--tls-key", str(certs.stranger_key))
    result = hand(mtls_server, *flags)
    assert result.returncode == 3
    assert " over TLS: " in error_line(result)


def test_the_server_certificate_variables_are_not_the_clients(
    mtls_server: str, certs: tls_certs.TlsFiles
) -> None:
    # OKEY_TLS_CERT/OKEY_TLS_KEY configure okey-server; the CLI must not present them.
    result = hand(
        mtls_server, "--tls-ca", str(certs.ca),
        OKEY_TLS_CERT=str(certs.client_cert), OKEY_TLS_KEY=str(certs.client_key),
    )
    assert result.returncode == 3


# --- bad TLS options ----------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "env", "message"),
    [
        pytest.param(("--tls-cert", "{client_cert}"), {}, "--tls-cert needs --tls-key too",
                     id="cert-without-key"),
        pytest.param(("--tls-key", "{client_key}"), {}, "--tls-key needs --tls-cert too",
                     id="key-without-cert"),
        pytest.param((), {"OKEY_TLS_CLIENT_KEY": "{client_key}"},
                     "OKEY_TLS_CLIENT_KEY needs OKEY_TLS_CLIENT_CERT too",
                     id="key-variable-without-cert"),
        pytest.param(("--tls-ca", "{directory}/absent.pem"), {},
                     "--tls-ca: cannot read {directory}/absent.pem: No such file or directory",
                     id="ca-missing"),
        pytest.param((), {"OKEY_TLS_CA": "{directory}/absent.pem"},
                     "OKEY_TLS_CA: cannot read {directory}/absent.pem: No such file or directory",
                     id="ca-variable-missing"),
        pytest.param(("--tls-ca", "{directory}/server.ext"), {},
                     "--tls-ca: {directory}/server.ext is not a PEM file", id="ca-not-pem"),
        pytest.param((), {"OKEY_TLS": "maybe"},
                     "OKEY_TLS: 'maybe' is not one of 1, true, 0, false", id="tls-not-a-switch"),
    ],
)
def test_bad_tls_options_exit_2_naming_the_flag_or_variable(
    certs: tls_certs.TlsFiles, flags: tuple[str, ...], env: dict[str, str], message: str
) -> None:
    paths = {
        "client_cert": certs.client_cert, "client_key": certs.client_key,
        "directory": certs.directory,
    }
    # Nothing listens here: a bad option must stop the command before any call.
    result = hand(
        f"{LOOPBACK}:1",
        *(flag.format(**paths) for flag in flags),
        **{key: value.format(**paths) for key, value in env.items()},
    )
    assert result.returncode == 2
    assert result.stderr == f"okey: {message.format(**paths)}\n"
