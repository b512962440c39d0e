"""Server reflection v1 beside v1alpha (issue 15 point 8): tools that ask
grpc.reflection.v1.ServerReflection (newer grpcurl, grpcui, Postman) get the same answers
as v1alpha clients.

The v1 requests here are written byte by byte from the field numbers of gRPC's v1
reflection.proto (list_services = 7, file_containing_symbol = 4; in the answer
file_descriptor_response = 4, list_services_response = 6), not with the server's own
message classes.
"""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2

pytestmark = pytest.mark.service

V1_METHOD = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
V1ALPHA_METHOD = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
CALL_TIMEOUT_S = 30.0


def _string_field(number: int, text: str) -> bytes:
    """A length-delimited proto field (wire type 2), for lengths under 128."""
    data = text.encode()
    assert len(data) < 128
    return bytes([number << 3 | 2, len(data)]) + data


LIST_SERVICES = _string_field(7, "")
HAND_SERVICE = _string_field(4, "okey.v1.HandService")
V1_SERVICE_ITSELF = _string_field(4, "grpc.reflection.v1.ServerReflection")


def _ask(channel: grpc.Channel, method: str, *requests: bytes) -> list[bytes]:
    """Sends raw requests on one reflection stream; the raw answers."""
    call = channel.stream_stream(method)  # no serializers: bytes in, bytes out
    return list(call(iter(requests), timeout=CALL_TIMEOUT_S))


def _services(answer: bytes) -> list[str]:
    parsed = reflection_pb2.ServerReflectionResponse.FromString(answer)
    assert parsed.WhichOneof("message_response") == "list_services_response"
    return [service.name for service in parsed.list_services_response.service]


def _files(answer: bytes) -> list[descriptor_pb2.FileDescriptorProto]:
    parsed = reflection_pb2.ServerReflectionResponse.FromString(answer)
    assert parsed.WhichOneof("message_response") == "file_descriptor_response"
    return [descriptor_pb2.FileDescriptorProto.FromString(data)
            for data in parsed.file_descriptor_response.file_descriptor_proto]


def test_v1_lists_every_service_both_reflections_included(channel: grpc.Channel) -> None:
    (answer,) = _ask(channel, V1_METHOD, LIST_SERVICES)
    services = _services(answer)
    for name in ("okey.v1.HandService", "okey.v1.DealService", "okey.v1.GameService",
                 "okey.v1.ScoringService", "grpc.health.v1.Health",
                 "grpc.reflection.v1.ServerReflection",
                 "grpc.reflection.v1alpha.ServerReflection"):
        assert name in services
    # v1alpha answers the same list.
    (alpha,) = _ask(channel, V1ALPHA_METHOD, LIST_SERVICES)
    assert _services(alpha) == services


def test_v1_gives_the_file_that_declares_hand_service(channel: grpc.Channel) -> None:
    answers = _ask(channel, V1_METHOD, HAND_SERVICE, LIST_SERVICES)
    assert len(answers) == 2  # one answer per request on the same stream
    files = _files(answers[0])
    declaring = [f for f in files if any(s.name == "HandService" for s in f.service)]
    assert len(declaring) == 1
    assert declaring[0].package == "okey.v1"
    methods = [m.name for m in declaring[0].service[0].method]
    assert methods == ["CheckHand", "BestOpening"]
    # The dependencies (tile.proto and the rest) come along, as grpcurl needs them.
    assert set(declaring[0].dependency) <= {f.name for f in files}


def test_v1_describes_itself_as_the_v1_protocol(channel: grpc.Channel) -> None:
    (answer,) = _ask(channel, V1_METHOD, V1_SERVICE_ITSELF)
    (file,) = [f for f in _files(answer) if f.package == "grpc.reflection.v1"]
    (service,) = file.service
    (method,) = service.method
    assert (service.name, method.name) == ("ServerReflection", "ServerReflectionInfo")
    assert method.client_streaming
    assert method.server_streaming
    assert method.input_type == ".grpc.reflection.v1.ServerReflectionRequest"
    assert method.output_type == ".grpc.reflection.v1.ServerReflectionResponse"
    request = next(m for m in file.message_type if m.name == "ServerReflectionRequest")
    numbers = {field.name: field.number for field in request.field}
    assert numbers["list_services"] == 7
    assert numbers["file_containing_symbol"] == 4


def test_v1alpha_still_answers_with_its_own_messages(channel: grpc.Channel) -> None:
    request = reflection_pb2.ServerReflectionRequest(file_containing_symbol="okey.v1.HandService")
    call = channel.stream_stream(
        V1ALPHA_METHOD,
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    (answer,) = list(call(iter([request]), timeout=CALL_TIMEOUT_S))
    assert answer.original_request.file_containing_symbol == "okey.v1.HandService"
    files = [descriptor_pb2.FileDescriptorProto.FromString(data)
             for data in answer.file_descriptor_response.file_descriptor_proto]
    assert any(s.name == "HandService" for f in files for s in f.service)


def test_v1_goes_through_the_rpc_wrapper_undecodable_bytes_are_invalid_argument(
    channel: grpc.Channel,
) -> None:
    """Like every method: bytes that do not decode are the caller's INVALID_ARGUMENT."""
    with pytest.raises(grpc.RpcError) as raised:
        _ask(channel, V1_METHOD, b"\xff\xff\xff")
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "does not decode" in raised.value.details()
