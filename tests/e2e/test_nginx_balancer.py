"""Many instances behind a real gRPC load balancer: nginx (deploy/nginx/okey.conf) in front
of okey-server processes on loopback ports.

What it pins (docs/deploy.md): with one OKEY_SIGNING_KEY, a round dealt by one
instance is played through the balancer across all of them and its seed is
revealed by another; with different keys each instance refuses the others'
sealed states as INVALID_ARGUMENT on `state` (ERROR_REASON_UNKNOWN_KEY). Also
the config's own promises: a request just over the server's 256 KiB limit is
the server's RESOURCE_EXHAUSTED, a stopped instance's calls go to the others,
and with none left the balancer answers UNAVAILABLE as a gRPC status.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from okey.v1 import (
    deal_pb2,
    deal_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    hand_pb2,
    hand_pb2_grpc,
    ruleset_pb2,
    state_pb2,
)
from okey_rules.dealing.deal_fairness import CommittedInputs, commitment_for
from okey_rules.play.round_types import Phase
from okey_rules.tiles import Tile
from okey_server.wire.convert_state import classic_state_from_token
from okey_server.wire.convert_tile import tile_to_proto

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "deploy" / "nginx" / "okey.conf"
LOOPBACK = "127.0.0.1"
DEADLINE_S = 30.0  # upper bound for a process to come up or stop, not a timing assertion
CALL_TIMEOUT_S = 10.0
# The template's example lines the test replaces (and checks it found).
UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+\S+:\d+(\s[^;]*)?;\s*$", re.MULTILINE)
LISTEN = re.compile(r"^(\s*)listen\s+\d+\s+http2;\s*$", re.MULTILINE)
WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"  # with indicator R4
MAX_RECEIVE_BYTES = 256 * 1024  # okey-server's default --max-receive-bytes
# The players' client seeds, one per seat in seat order: CommitSeed binds their hashes.
CLIENT_SEEDS = ["north", "east", "south", "west"]


def commit_request() -> deal_pb2.CommitSeedRequest:
    return deal_pb2.CommitSeedRequest(
        client_seed_hashes=[hashlib.sha256(seed.encode()).hexdigest() for seed in CLIENT_SEEDS]
    )


def nginx_binary() -> str:
    """nginx's path; a loud skip only where `make test` could not have installed it."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK)
                                      else None)
    if found:
        return found
    could_install = os.geteuid() == 0 or (
        shutil.which("sudo") is not None
        and subprocess.run(["sudo", "-n", "true"], capture_output=True, check=False).returncode == 0
    )
    if could_install and shutil.which("apt-get"):
        pytest.fail("nginx is not installed although this user can install it: "
                    "`make nginx-for-tests` (run by `make test`) installs Debian's nginx")
    pytest.skip("NGINX LOAD-BALANCER TEST NOT RUN: nginx is not installed and this user cannot "
                "install it (not root, no passwordless sudo, or no apt-get); install Debian's "
                "nginx package to run it")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def render(template: str, upstream_ports: list[int], listen_port: int) -> str:
    """The template with its `server` lines pointing at the local instances, and a loopback
    listener; every other line as shipped."""
    servers = UPSTREAM_SERVER.findall(template)
    assert len(servers) >= 2, "the template's upstream lost its example server lines"
    indent, parameters = servers[0]
    lines = "\n".join(f"{indent}server {LOOPBACK}:{port}{parameters};" for port in upstream_ports)
    rendered = UPSTREAM_SERVER.sub("", template)
    opening = "upstream okey_upstream {"
    rendered = rendered.replace(opening, f"{opening}\n{lines}", 1)
    rendered, listens = LISTEN.subn(rf"\g<1>listen {LOOPBACK}:{listen_port} http2;", rendered)
    assert listens == 1, "the template should have exactly one plaintext http2 listen line"
    return rendered


def main_config(prefix: Path, site: Path) -> str:
    """A whole nginx.conf around the site file: everything under `prefix`, nothing system-wide."""
    temp_paths = "\n".join(
        f"    {name}_temp_path {prefix / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root the workers would switch to nginx's compiled-in user, which cannot
    # enter pytest's private temp directory; as any other user the directive
    # does not apply (and nginx warns about it).
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {prefix / 'access.log'};\n"
        f"{temp_paths}\n"
        f"    include {site};\n"
        "}\n"
    )


@dataclass
class Balancer:
    address: str
    process: subprocess.Popen[bytes]
    error_log: Path


@pytest.fixture
def start_nginx(tmp_path: Path) -> Iterator[Callable[[list[int]], Balancer]]:
    """Starts nginx in front of the given instance ports; stopped at teardown."""
    binary = nginx_binary()
    started: list[subprocess.Popen[bytes]] = []

    def start(upstream_ports: list[int]) -> Balancer:
        port = free_port()
        prefix = tmp_path / "nginx"
        prefix.mkdir()
        site = prefix / "okey.conf"
        site.write_text(render(TEMPLATE.read_text(), upstream_ports, port))
        process, error_log = run_nginx(binary, prefix, site, port)
        started.append(process)
        return Balancer(f"{LOOPBACK}:{port}", process, error_log)

    yield start
    stop_nginx(started)


def run_nginx(binary: str, prefix: Path, site: Path, port: int
              ) -> tuple[subprocess.Popen[bytes], Path]:
    """nginx in the foreground with `site` (under `prefix`), once it listens on `port`;
    its error log's path. The test fails if it exits or does not listen in time."""
    config = prefix / "nginx.conf"
    config.write_text(main_config(prefix, site))
    error_log = prefix / "error.log"
    directives = f"daemon off; pid {prefix / 'nginx.pid'}; error_log {error_log} info;"
    process = subprocess.Popen(
        [binary, "-p", str(prefix), "-c", str(config), "-e", str(error_log), "-g", directives],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            log = error_log.read_text() if error_log.exists() else ""
            pytest.fail(f"nginx exited ({process.returncode}):\n{stderr}\n{log}")
        with socket.socket() as probe:
            if probe.connect_ex((LOOPBACK, port)) == 0:
                return process, error_log
        time.sleep(0.05)
    process.kill()
    pytest.fail("nginx did not start listening")


def stop_nginx(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # nginx's fast shutdown
            try:
                process.wait(timeout=DEADLINE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=DEADLINE_S)


def start_instances(start_server_process, keys: list[str]) -> list:
    # A short grace: the test stops instances and need not wait out a long drain.
    return [start_server_process("--port", "0", "--grace", "1", env={"OKEY_SIGNING_KEY": key})
            for key in keys]


def rpc_counts(instance, method: str) -> int:
    """How many `method` calls the instance logged (one info line per RPC)."""
    return sum(
        1 for line in instance.log_lines()
        if line.get("event") == "rpc" and str(line.get("method", "")).endswith(f"/{method}")
    )


def logged_calls(instances: list, method: str, before: dict[int, int], total: int) -> Counter[int]:
    """Each instance's `method` calls since `before`, once their log lines add up to `total`.

    The server writes its log lines from a writer thread, so the last call's
    line may land just after its answer: wait (bounded) for all of them.
    """
    deadline = time.monotonic() + DEADLINE_S
    while True:
        served = Counter({i: rpc_counts(instance, method) - before[i]
                          for i, instance in enumerate(instances)})
        if sum(served.values()) >= total or time.monotonic() > deadline:
            assert sum(served.values()) == total, f"{total} calls, logged {dict(served)}"
            return served
        time.sleep(0.05)


def next_move(state: bytes, key: bytes) -> game_pb2.Move:
    """A legal move that ends the round within the wall: draw and throw back the newest
    tile; with the wall empty, end the round drawn (docs/game.md). The test holds the
    instances' key, so it opens the token to pick the move (a client never can)."""
    decoded = classic_state_from_token(state, key)
    seat = decoded.turn
    if decoded.phase is Phase.DRAW:
        kind = game_pb2.MOVE_KIND_DRAW_FROM_WALL if decoded.wall else game_pb2.MOVE_KIND_END_ROUND
        return game_pb2.Move(kind=kind, seat=seat)
    newest = Tile.from_code(decoded.seats[seat].rack[-1])
    return game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=seat, tile=tile_to_proto(newest))


def play_out(channel: grpc.Channel, opening: deal_pb2.DealResponse, key: bytes) -> tuple[
        bytes, int]:
    """The round played to its end through `channel`; (finished state, ApplyMove calls)."""
    game = game_pb2_grpc.GameServiceStub(channel)
    state, status = opening.state, opening.status
    # A 4-seat round has a 48-tile wall: about 100 moves; the bound only stops a runaway.
    for calls in range(400):
        if status.round_over:  # the answer's public facts say so, not the token
            return state, calls
        answer = game.ApplyMove(
            game_pb2.ApplyMoveRequest(state=state, move=next_move(state, key)),
            timeout=CALL_TIMEOUT_S,
        )
        assert answer.legal, answer.message
        state, status = answer.state, answer.status
    pytest.fail("the round did not end within 400 moves")


def bad_request_fields(error: grpc.RpcError) -> list[str]:
    status = rpc_status.from_call(error)
    assert status is not None, "no google.rpc.Status details on the error"
    fields = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [violation.field for violation in bad.field_violations]
    return fields


def error_reason(error: grpc.RpcError) -> str:
    status = rpc_status.from_call(error)
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def assert_refused_as_foreign_state(error: grpc.RpcError) -> None:
    """A token sealed under a key the instance does not hold: refused on `state`, naming the
    reason (the operator's fix is one key for every instance)."""
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    assert bad_request_fields(error) == ["state"]
    assert error_reason(error) == "ERROR_REASON_UNKNOWN_KEY"


def revealed_commitment(revealed: deal_pb2.RevealSeedResponse) -> str:
    """The commitment recomputed from what RevealSeed gives back, as a player would."""
    inputs = revealed.inputs
    return commitment_for(revealed.seed, CommittedInputs(
        game="classic" if inputs.game == ruleset_pb2.GAME_CLASSIC else "101",
        player_count=inputs.player_count,
        dealer=inputs.dealer_seat,
        method="formal" if inputs.method == deal_pb2.DEAL_METHOD_FORMAL else "informal",
        round=inputs.round,
        client_seed_count=inputs.client_seed_count,
        client_seed_hashes=tuple(bytes.fromhex(h) for h in inputs.client_seed_hashes),
    ))


def test_a_round_dealt_by_one_instance_is_played_across_all_and_revealed_by_another(
    start_server_process, start_nginx
) -> None:
    key_hex = secrets.token_hex(32)
    key = bytes.fromhex(key_hex)
    instances = start_instances(start_server_process, [key_hex] * 3)
    balancer = start_nginx([instance.port for instance in instances])
    first, second = instances[0], instances[1]

    with grpc.insecure_channel(balancer.address) as through_nginx, \
            grpc.insecure_channel(first.address) as to_first, \
            grpc.insecure_channel(second.address) as to_second:
        health = health_pb2_grpc.HealthStub(through_nginx).Check(
            health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S)
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        checked = hand_pb2_grpc.HandServiceStub(through_nginx).CheckHand(
            hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4",
                                      omit_arrangements=True), timeout=CALL_TIMEOUT_S)
        assert checked.winning

        # Commit and deal on the first instance only.
        on_first = deal_pb2_grpc.DealServiceStub(to_first)
        committed = on_first.CommitSeed(commit_request(), timeout=CALL_TIMEOUT_S)
        dealt = on_first.Deal(
            deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=CLIENT_SEEDS),
            timeout=CALL_TIMEOUT_S)
        assert dealt.commitment == committed.commitment
        assert dealt.status.deal_kind == state_pb2.DEAL_KIND_COMMITTED
        assert not dealt.seed

        # Played move by move through nginx: one client channel, every instance.
        before = {i: rpc_counts(instance, "ApplyMove") for i, instance in enumerate(instances)}
        finished, moves = play_out(through_nginx, dealt, key)
        served = logged_calls(instances, "ApplyMove", before, moves)
        assert all(served[i] > 0 for i in range(len(instances))), (
            f"nginx did not spread the {moves} moves over every instance: {dict(served)}")

        # Revealed by the second instance, which never saw the deal.
        revealed = deal_pb2_grpc.DealServiceStub(to_second).RevealSeed(
            deal_pb2.RevealSeedRequest(deal_id=committed.deal_id, state=finished),
            timeout=CALL_TIMEOUT_S)
        assert revealed.commitment == committed.commitment
        assert revealed_commitment(revealed) == committed.commitment
        # The revealed seed with the client seeds deals exactly what was played (dealt again
        # through nginx).
        again = deal_pb2_grpc.DealServiceStub(through_nginx).Deal(
            deal_pb2.DealRequest(seed=revealed.seed, client_seeds=CLIENT_SEEDS),
            timeout=CALL_TIMEOUT_S)
        assert [list(rack.tiles) for rack in again.racks] == \
            [list(rack.tiles) for rack in dealt.racks]
        assert list(again.wall) == list(dealt.wall)

        # nginx's body limit sits just above the server's: a request just over
        # 256 KiB reaches an instance and is refused by it, as gRPC expects.
        hand = hand_pb2_grpc.HandServiceStub(through_nginx)
        with pytest.raises(grpc.RpcError) as too_big:
            hand.CheckHand(hand_pb2.CheckHandRequest(hand_notation="R" * (MAX_RECEIVE_BYTES + 16)),
                           timeout=CALL_TIMEOUT_S)
        assert too_big.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, too_big.value.details()

        # A stopped instance: its share of the calls goes to the others.
        assert instances[2].stop() == 0
        for _ in range(6):
            assert hand.CheckHand(hand_pb2.CheckHandRequest(
                hand_notation=WINNING, indicator_notation="R4", omit_arrangements=True),
                timeout=CALL_TIMEOUT_S).winning


def test_instances_with_different_keys_refuse_each_others_states(
    start_server_process, start_nginx
) -> None:
    keys = [secrets.token_hex(32), secrets.token_hex(32)]
    first, second = start_instances(start_server_process, keys)
    balancer = start_nginx([first.port, second.port])

    with grpc.insecure_channel(balancer.address) as through_nginx, \
            grpc.insecure_channel(first.address) as to_first, \
            grpc.insecure_channel(second.address) as to_second:
        on_first = deal_pb2_grpc.DealServiceStub(to_first)
        committed = on_first.CommitSeed(commit_request(), timeout=CALL_TIMEOUT_S)
        dealt = on_first.Deal(
            deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=CLIENT_SEEDS),
            timeout=CALL_TIMEOUT_S)
        first_key = bytes.fromhex(keys[0])

        # Directly: the second instance refuses the first one's opening state.
        with pytest.raises(grpc.RpcError) as refused:
            game_pb2_grpc.GameServiceStub(to_second).ApplyMove(game_pb2.ApplyMoveRequest(
                state=dealt.state, move=next_move(dealt.state, first_key)),
                timeout=CALL_TIMEOUT_S)
        assert_refused_as_foreign_state(refused.value)

        # Through nginx: round robin sends the next move to the other instance
        # within two calls, and the chain breaks there, clearly.
        game = game_pb2_grpc.GameServiceStub(through_nginx)
        state, broken = dealt.state, None
        for _ in range(4):
            try:
                state = game.ApplyMove(game_pb2.ApplyMoveRequest(
                    state=state, move=next_move(state, first_key)), timeout=CALL_TIMEOUT_S).state
            except grpc.RpcError as error:
                broken = error
                break
        assert broken is not None, "four calls through nginx and none reached the second instance"
        assert_refused_as_foreign_state(broken)

        # The second instance neither reveals the seed of a round played on the
        # first nor deals by the first's deal id: that id is sealed under the first
        # key, so both are refused naming deal_id.
        finished, _ = play_out(to_first, dealt, first_key)
        on_second = deal_pb2_grpc.DealServiceStub(to_second)
        for call, request in (
            (on_second.RevealSeed,
             deal_pb2.RevealSeedRequest(deal_id=committed.deal_id, state=finished)),
            (on_second.Deal,
             deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=CLIENT_SEEDS)),
        ):
            with pytest.raises(grpc.RpcError) as refused:
                call(request, timeout=CALL_TIMEOUT_S)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert bad_request_fields(refused.value) == ["deal_id"]
            assert error_reason(refused.value) == "ERROR_REASON_UNKNOWN_KEY"
            assert "signing key" in (refused.value.details() or "")

    # No instance left: the balancer answers a gRPC UNAVAILABLE, not a bare HTTP 502.
    assert first.stop() == 0
    assert second.stop() == 0
    with grpc.insecure_channel(balancer.address) as through_nginx, \
            pytest.raises(grpc.RpcError) as unavailable:
        health_pb2_grpc.HealthStub(through_nginx).Check(
            health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S)
    assert unavailable.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "no okey-server instance reachable" in (unavailable.value.details() or "")
