"""Server basics (issue 2 point 5): health, reflection, request ids, binding, drain."""

from __future__ import annotations

import re

import grpc
import pytest
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server.rpc.config import Config
from okey_server.rpc.rpc_wrapper import Activity
from okey_server.rpc.server import ServerStartError, create_server, drain

pytestmark = pytest.mark.service

GOOD_REQUEST = hand_pb2.CheckHandRequest(
    hand_notation="R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 Y9", indicator_notation="K3"
)
BAD_REQUEST = hand_pb2.CheckHandRequest(hand_notation="R1 R2", indicator_notation="K3")


@pytest.mark.parametrize("service", ["", "okey.v1.HandService"])
def test_health_reports_serving_for_server_and_each_service(
    channel: grpc.Channel, service: str
) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    response = stub.Check(health_pb2.HealthCheckRequest(service=service))
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_health_of_an_unknown_service_is_not_found(channel: grpc.Channel) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as raised:
        stub.Check(health_pb2.HealthCheckRequest(service="okey.v1.NoSuchService"))
    assert raised.value.code() is grpc.StatusCode.NOT_FOUND


def test_reflection_lists_every_service(channel: grpc.Channel) -> None:
    services = set(ProtoReflectionDescriptorDatabase(channel).get_services())
    assert {
        "okey.v1.HandService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    } <= services


def test_reflection_describes_check_hand_so_grpcurl_can_call_it(channel: grpc.Channel) -> None:
    pool = DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
    method = pool.FindServiceByName("okey.v1.HandService").FindMethodByName("CheckHand")
    assert method.input_type.full_name == "okey.v1.CheckHandRequest"
    assert "hand_notation" in method.input_type.fields_by_name
    assert {"winning", "arrangement", "winning_discards"} <= set(method.output_type.fields_by_name)


@pytest.mark.parametrize("request_message", [GOOD_REQUEST, BAD_REQUEST], ids=["ok", "error"])
def test_client_request_id_is_echoed_in_trailing_metadata(
    channel: grpc.Channel, request_message: hand_pb2.CheckHandRequest
) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    metadata = (("x-request-id", "client-chosen-42"),)
    try:
        _, call = stub.CheckHand.with_call(request_message, metadata=metadata)
        trailing = call.trailing_metadata()
    except grpc.RpcError as error:
        trailing = error.trailing_metadata()
    assert ("x-request-id", "client-chosen-42") in [(m.key, m.value) for m in trailing]


@pytest.mark.parametrize(
    "sent",
    [None, "has spaces", "x" * 200, '{"json": "injection"}'],
    ids=["none", "spaces", "too-long", "json"],
)
def test_server_makes_a_request_id_when_none_or_an_unsafe_one_is_sent(
    channel: grpc.Channel, sent: str | None
) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    metadata = () if sent is None else (("x-request-id", sent),)
    _, call = stub.CheckHand.with_call(GOOD_REQUEST, metadata=metadata)
    ids = [m.value for m in call.trailing_metadata() if m.key == "x-request-id"]
    assert len(ids) == 1
    assert re.fullmatch(r"[0-9a-f]{32}", ids[0])


def test_generated_request_ids_differ_between_calls(channel: grpc.Channel) -> None:
    stub = hand_pb2_grpc.HandServiceStub(channel)
    ids = set()
    for _ in range(3):
        _, call = stub.CheckHand.with_call(GOOD_REQUEST)
        ids.update(m.value for m in call.trailing_metadata() if m.key == "x-request-id")
    assert len(ids) == 3


def test_unknown_method_is_unimplemented(channel: grpc.Channel) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary("/okey.v1.HandService/NoSuchMethod")(b"")
    assert raised.value.code() is grpc.StatusCode.UNIMPLEMENTED


def test_second_server_on_a_taken_port_fails_loudly(make_server, loop_thread) -> None:
    # With SO_REUSEPORT on, a second server would bind silently.
    _, port = make_server()
    config = Config(host="127.0.0.1", port=port)
    with pytest.raises(ServerStartError, match=str(port)):
        loop_thread.run(create_server(config.address, config))


def test_drain_turns_health_not_serving_and_stops_the_server(make_server, loop_thread) -> None:
    health_servicer = HealthServicer()
    activity = Activity()
    server, port = make_server(health_servicer=health_servicer, activity=activity)
    address = f"127.0.0.1:{port}"
    with grpc.insecure_channel(address, options=(("grpc.so_reuseport", 0),)) as opened:
        stub = health_pb2_grpc.HealthStub(opened)
        before = stub.Check(health_pb2.HealthCheckRequest()).status
        loop_thread.run(drain(server, health_servicer, activity, grace_s=1.0))
        after = loop_thread.run(health_servicer.Check(health_pb2.HealthCheckRequest(), None)).status
        with pytest.raises(grpc.RpcError) as raised:
            stub.Check(health_pb2.HealthCheckRequest(), timeout=5)
    assert before == health_pb2.HealthCheckResponse.SERVING
    assert after == health_pb2.HealthCheckResponse.NOT_SERVING
    assert raised.value.code() is grpc.StatusCode.UNAVAILABLE


def test_health_watch_streams_serving(channel: grpc.Channel) -> None:
    stub = health_pb2_grpc.HealthStub(channel)
    updates = stub.Watch(health_pb2.HealthCheckRequest(service="okey.v1.HandService"))
    assert next(updates).status == health_pb2.HealthCheckResponse.SERVING
    updates.cancel()


GARBAGE = b"\xff\xff\xff\xff"  # a field key with no end: no message decodes from it
SHAPES = {
    "unary": lambda ch, method: ch.unary_unary(method)(GARBAGE, timeout=10),
    "response-stream": lambda ch, method: next(ch.unary_stream(method)(GARBAGE, timeout=10)),
    "bidi-stream": lambda ch, method: next(ch.stream_stream(method)(iter([GARBAGE]), timeout=10)),
}


@pytest.mark.parametrize(
    ("method", "shape"),
    [
        ("/okey.v1.HandService/CheckHand", "unary"),
        ("/okey.v1.DealService/Deal", "unary"),
        ("/grpc.health.v1.Health/Check", "unary"),
        ("/grpc.health.v1.Health/Watch", "response-stream"),
        ("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", "bidi-stream"),
    ],
    ids=lambda value: str(value).rsplit("/", 1)[-1],
)
def test_undecodable_bytes_are_invalid_argument_on_every_rpc_shape(
    channel: grpc.Channel, method: str, shape: str
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        SHAPES[shape](channel, method)
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "does not decode" in raised.value.details()
