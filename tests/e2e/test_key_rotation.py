"""Rotating the signing key (docs/operations.md, "Rotating the signing key"), with real
`okey-server` processes: tokens and deal ids made under a listed previous key still work,
new ones are sealed with the current key, and the documented order of steps never fails a
call while instances disagree on their current key."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import grpc
import pytest
from okey.v1 import deal_pb2, deal_pb2_grpc, game_pb2, game_pb2_grpc
from okey_server.rpc.config import load_config

OLD_KEY = "11" * 32
NEW_KEY = "22" * 32
SEEDS = ["north", "east", "south", "west"]


class Stubs:
    def __init__(self, channel: grpc.Channel) -> None:
        self.deals = deal_pb2_grpc.DealServiceStub(channel)
        self.game = game_pb2_grpc.GameServiceStub(channel)


@pytest.fixture
def connect() -> Iterator:
    channels: list[grpc.Channel] = []

    def open_stubs(address: str) -> Stubs:
        channel = grpc.insecure_channel(address)
        channels.append(channel)
        return Stubs(channel)

    yield open_stubs
    for channel in channels:
        channel.close()


def _discard(stubs: Stubs, state: bytes, status) -> game_pb2.ApplyMoveResponse:  # type: ignore[no-untyped-def]
    seat = status.turn_seat
    rack = stubs.game.PlayerView(game_pb2.PlayerViewRequest(state=state, seat=seat)).rack
    return stubs.game.ApplyMove(game_pb2.ApplyMoveRequest(
        state=state, move=game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=seat, tile=rack[0])
    ))


def test_rotation_in_the_documented_order_fails_no_call(start_server_process, connect):
    # Before: every instance seals with the old key.
    old = connect(start_server_process("--port", "0", env={"OKEY_SIGNING_KEY": OLD_KEY}).address)
    committed = old.deals.CommitSeed(deal_pb2.CommitSeedRequest(
        client_seed_hashes=[hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]))
    dealt = old.deals.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=SEEDS))

    # Step 1: every instance learns the new key as a previous key, still sealing with the old.
    step_1 = connect(start_server_process("--port", "0", env={
        "OKEY_SIGNING_KEY": OLD_KEY, "OKEY_PREVIOUS_SIGNING_KEYS": NEW_KEY}).address)
    # Step 2: instances switch one by one to seal with the new key, the old one listed.
    step_2 = connect(start_server_process(
        "--port", "0", "--previous-signing-keys", OLD_KEY,
        env={"OKEY_SIGNING_KEY": NEW_KEY}).address)

    # Mid-rotation a table's calls land on either instance: each opens the other's tokens.
    moved = _discard(step_2, dealt.state, dealt.status)  # an old-key token, opened by step 2
    assert moved.legal
    assert moved.state[1:5] != dealt.state[1:5]  # sealed under the new key (another key id)
    view = step_1.game.PlayerView(game_pb2.PlayerViewRequest(state=moved.state, seat=0))
    assert view.move_number == 1  # a new-key token, opened by a step-1 instance
    again = step_2.deals.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=SEEDS))
    assert [r.tiles for r in again.racks] == [r.tiles for r in dealt.racks]

    # Step 3, once no table holds an old token: the old key is dropped.
    after = connect(start_server_process("--port", "0", env={"OKEY_SIGNING_KEY": NEW_KEY}).address)
    assert after.game.PlayerView(game_pb2.PlayerViewRequest(state=moved.state, seat=1)).seat == 1
    with pytest.raises(grpc.RpcError) as refused:
        after.game.PlayerView(game_pb2.PlayerViewRequest(state=dealt.state, seat=1))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "key this server does not hold" in (refused.value.details() or "")


def test_skipping_step_1_is_what_fails(start_server_process, connect):
    """Why the order matters: an instance that does not know the new key yet refuses a
    token another instance already sealed with it."""
    new = connect(start_server_process("--port", "0", env={"OKEY_SIGNING_KEY": NEW_KEY}).address)
    old = connect(start_server_process("--port", "0", env={"OKEY_SIGNING_KEY": OLD_KEY}).address)
    dealt = new.deals.Deal(deal_pb2.DealRequest(seed="rotation"))
    with pytest.raises(grpc.RpcError) as refused:
        old.game.PlayerView(game_pb2.PlayerViewRequest(state=dealt.state, seat=0))
    assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT


def test_previous_keys_are_read_from_the_flag_or_variable_and_checked():
    config = load_config([], {"OKEY_SIGNING_KEY": NEW_KEY,
                              "OKEY_PREVIOUS_SIGNING_KEYS": f"{OLD_KEY}, a text key of 20 bytes"})
    assert config.previous_signing_keys == (bytes.fromhex(OLD_KEY), b"a text key of 20 bytes")
    assert OLD_KEY not in repr(config)
    for argv, env in (
        ([], {"OKEY_PREVIOUS_SIGNING_KEYS": OLD_KEY}),  # nothing to rotate to
        (["--previous-signing-keys", "short"], {"OKEY_SIGNING_KEY": NEW_KEY}),
    ):
        with pytest.raises(SystemExit) as exited:
            load_config(argv, env)
        assert exited.value.code == 2
