"""The CLI's channel (okey_cli.rpc.open_channel): several --server addresses share the calls
round-robin over one channel, in plaintext and over mutual TLS; one address works as before."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import grpc
import pytest
import tls_certs
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_cli import rpc
from okey_cli.errors import EXIT_BAD_INPUT, CliError
from okey_server.rpc.rpc_wrapper import Activity

pytestmark = pytest.mark.service

LOOPBACK = "127.0.0.1"

CALL_TIMEOUT_S = 10.0
# Calls until both servers have answered once: a bound, round-robin needs two or three.
WARM_UP_CALLS = 50
REQUEST = hand_pb2.CheckHandRequest(
    hand_notation="R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5",
    indicator_notation="R4",
    omit_arrangements=True,
)
MakeServer = Callable[..., tuple[grpc.aio.Server, int]]


class CountingActivity(Activity):
    """Counts the unary RPCs a server has started (each raises `in_flight` by one)."""

    __slots__ = ("_running", "started")

    def __init__(self) -> None:
        self.started = 0
        self._running = 0
        super().__init__()

    @property  # type: ignore[override]
    def in_flight(self) -> int:
        return self._running

    @in_flight.setter
    def in_flight(self, value: int) -> None:
        if value > self._running:
            self.started += 1
        self._running = value


def start_counted(make_server: MakeServer, **config: object) -> tuple[str, CountingActivity]:
    activity = CountingActivity()
    _, port = make_server(activity=activity, **config)
    return f"{LOOPBACK}:{port}", activity


def address_of(text: str, *flags: str) -> str:
    """What the CLI makes of ``--server TEXT *flags`` (with no OKEY_* variables)."""
    parser = argparse.ArgumentParser()
    rpc.add_server_options(parser)
    return rpc.server_address(parser.parse_args(["--server", text, *flags]), env={})


def call(channel: grpc.Channel) -> None:
    assert hand_pb2_grpc.HandServiceStub(channel).CheckHand(REQUEST, timeout=CALL_TIMEOUT_S).winning


def spread(address: str, counters: list[CountingActivity], calls: int) -> list[int]:
    """Makes calls over one channel until every server has had one (bounded), then `calls`
    more; returns how many of those each server started."""
    with rpc.open_channel(address) as channel:
        for _ in range(WARM_UP_CALLS):
            if all(counter.started for counter in counters):
                break
            call(channel)
        assert all(counter.started for counter in counters), [c.started for c in counters]
        before = [counter.started for counter in counters]
        for _ in range(calls):
            call(channel)
    return [counter.started - start for counter, start in zip(counters, before, strict=True)]


def test_two_addresses_share_the_calls_of_one_channel_in_turn(make_server: MakeServer) -> None:
    first, first_count = start_counted(make_server)
    second, second_count = start_counted(make_server)
    # Once both are connected, round-robin alternates strictly.
    assert spread(address_of(f"{first},{second}"), [first_count, second_count], 20) == [10, 10]


def test_two_addresses_share_the_calls_over_mutual_tls(make_server: MakeServer) -> None:
    certs = tls_certs.certificates()
    tls = {
        "tls_cert": certs.read("server_cert"),
        "tls_key": certs.read("server_key"),
        "tls_client_ca": certs.read("ca"),
    }
    first, first_count = start_counted(make_server, **tls)
    second, second_count = start_counted(make_server, **tls)
    # No --tls-server-name: each certificate is checked against the first address's host.
    address = address_of(
        f"{first},{second}",
        "--tls-ca", str(certs.ca),
        "--tls-cert", str(certs.client_cert),
        "--tls-key", str(certs.client_key),
    )
    assert spread(address, [first_count, second_count], 10) == [5, 5]


def test_one_address_sends_every_call_to_that_server(make_server: MakeServer) -> None:
    only, only_count = start_counted(make_server)
    _, idle_count = start_counted(make_server)
    with rpc.open_channel(address_of(only)) as channel:
        for _ in range(5):
            call(channel)
    assert (only_count.started, idle_count.started) == (5, 0)


def test_a_dns_target_is_dialled_through_the_resolver(make_server: MakeServer) -> None:
    address, count = start_counted(make_server)
    port = address.rpartition(":")[2]
    # localhost resolves to 127.0.0.1 (and maybe ::1, where nothing listens: skipped).
    with rpc.open_channel(address_of(f"dns:///localhost:{port}")) as channel:
        call(channel)
    assert count.started == 1


@pytest.mark.parametrize(
    ("text", "target"),
    [
        pytest.param("127.0.0.1:1", "127.0.0.1:1", id="one-address-as-given"),
        pytest.param("okey.internal:50051", "okey.internal:50051", id="one-name-as-given"),
        pytest.param("10.0.0.1:1, 10.0.0.2:2", "ipv4:10.0.0.1:1,10.0.0.2:2", id="ipv4-list"),
        pytest.param("[::1]:1,[fe80::1]:2", "ipv6:[::1]:1,[fe80::1]:2", id="ipv6-list"),
    ],
)
def test_server_values_become_grpc_targets(text: str, target: str) -> None:
    assert rpc.channel_target(text)[0] == target


def test_several_addresses_and_dns_targets_ask_for_round_robin() -> None:
    assert rpc.channel_target("127.0.0.1:1")[1] == ()
    for text in ("127.0.0.1:1,127.0.0.1:2", "dns:///okey.internal:50051"):
        assert ("grpc.lb_policy_name", "round_robin") in rpc.channel_target(text)[1]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("okey-a:1,okey-b:2", "must each be IP:PORT", id="names"),
        pytest.param("127.0.0.1,127.0.0.2:2", "must each be IP:PORT", id="no-port"),
        pytest.param("127.0.0.1:1,[::1]:2", "mixes IPv4 and IPv6", id="mixed-families"),
    ],
)
def test_an_address_list_grpc_cannot_balance_is_bad_input(text: str, says: str) -> None:
    with pytest.raises(CliError) as raised:
        rpc.channel_target(text)
    assert raised.value.exit_code == EXIT_BAD_INPUT
    assert raised.value.message.startswith(f"--server: {text}: ")
    assert says in raised.value.message
