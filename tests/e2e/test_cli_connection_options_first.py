"""The okey CLI takes its connection options (--server, --timeout, --tls...) before the
command as well as after it (issue 24, point 8): `okey --server ADDR hand check ...`."""

from __future__ import annotations

import pytest
from okey_cli.main import CONNECTION_DEFAULTS, parse_args
from okey_cli.rpc import DEFAULT_TIMEOUT_S
from test_cli_deal import okey

pytestmark = pytest.mark.e2e

HAND = ["R1", "R2", "R3", "Y7", "B7", "K7", "R9", "R10", "R11", "R12", "B1", "Y1", "K1", "R5"]
UNREACHABLE = "127.0.0.1:1"


def test_server_before_the_command_is_used(grpc_server):
    done = okey("--server", grpc_server, "hand", "check", *HAND, "--indicator", "R4")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("winning: melds")


def test_server_before_a_subcommand_of_deal_is_used(grpc_server):
    done = okey("--server", grpc_server, "--timeout", "5", "deal", "commit", "--no-client-seeds")
    assert done.returncode == 0, done.stderr


def test_the_option_after_the_command_wins(grpc_server):
    done = okey("--server", UNREACHABLE, "hand", "check", *HAND, "--indicator", "R4",
                "--server", grpc_server)
    assert done.returncode == 0, done.stderr
    done = okey("--server", grpc_server, "hand", "check", *HAND, "--indicator", "R4",
                "--server", UNREACHABLE)
    assert done.returncode == 3
    assert f"cannot reach okey server at {UNREACHABLE}" in done.stderr


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["hand", "check", "R1", "--indicator", "R4"], {}),
        (["--server", "a:1", "hand", "check", "R1", "--indicator", "R4"], {"server": "a:1"}),
        (["--timeout", "2.5", "--tls", "--tls-ca", "ca.pem", "score", "game", "g.json"],
         {"timeout": 2.5, "tls": True, "tls_ca": "ca.pem"}),
        (["--timeout", "2", "deal", "reveal", "ID", "--state", "s.json", "--timeout", "3"],
         {"timeout": 3.0}),
        (["--tls-cert", "c.pem", "--tls-key", "k.pem", "conformance", "run"],
         {"tls_cert": "c.pem", "tls_key": "k.pem"}),
    ],
)
def test_connection_options_parse_at_either_level(argv, expected):
    args = vars(parse_args(argv))
    assert CONNECTION_DEFAULTS["timeout"] == DEFAULT_TIMEOUT_S
    assert {dest: args[dest] for dest in CONNECTION_DEFAULTS} == CONNECTION_DEFAULTS | expected


def test_a_connection_option_before_a_command_that_talks_to_no_server_is_refused():
    """`okey --server X deal hash-seed` is a mistake to say, not to drop without a word."""
    done = okey("--server", UNREACHABLE, "deal", "hash-seed", "alice")
    assert done.returncode == 2
    assert "--server does not apply to `okey deal hash-seed`" in done.stderr
    assert okey("deal", "hash-seed", "alice").returncode == 0
