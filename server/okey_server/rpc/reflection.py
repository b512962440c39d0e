"""Server reflection as both `grpc.reflection.v1` and `grpc.reflection.v1alpha`.

grpcio-reflection (1.85.1, the newest release) serves only v1alpha, while
newer tools ask for v1 first. The two protocols' messages are the same on
the wire: the same fields with the same numbers and types, only the package
differs. So one servicer answers both: v1 is the library's asyncio v1alpha
servicer registered a second time under the v1 service name, reading and
writing its v1alpha messages.

For v1 to describe itself too (``grpcurl describe grpc.reflection.v1...``),
its file, ``grpc/reflection/v1/reflection.proto``, is added to the default
descriptor pool, derived from the v1alpha file by renaming the package.
"""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_reflection.v1alpha._async import ReflectionServicer
from grpc_reflection.v1alpha.reflection import SERVICE_NAME as V1ALPHA_SERVICE

V1_PACKAGE = "grpc.reflection.v1"
V1_SERVICE = f"{V1_PACKAGE}.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"
METHOD = "ServerReflectionInfo"
SERVICE_NAMES = (V1_SERVICE, V1ALPHA_SERVICE)


def v1_file() -> descriptor_pb2.FileDescriptorProto:
    """The v1 reflection file: v1alpha's messages and service under the v1 package."""
    alpha = reflection_pb2.DESCRIPTOR
    proto = descriptor_pb2.FileDescriptorProto()
    alpha.CopyToProto(proto)
    proto.name = V1_FILE
    proto.package = V1_PACKAGE
    proto.ClearField("options")  # v1alpha's Java and Go package names

    def renamed(type_name: str) -> str:
        return type_name.replace(f".{alpha.package}.", f".{V1_PACKAGE}.", 1)

    for message in proto.message_type:
        for field in message.field:
            if field.type_name:
                field.type_name = renamed(field.type_name)
    for service in proto.service:
        for method in service.method:
            method.input_type = renamed(method.input_type)
            method.output_type = renamed(method.output_type)
    return proto


def _add_v1_file(pool: descriptor_pool.DescriptorPool) -> None:
    try:
        pool.FindFileByName(V1_FILE)
    except KeyError:
        pool.Add(v1_file())


def enable_reflection(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Serves reflection v1 and v1alpha on `server`, listing `service_names` and both
    reflection services."""
    _add_v1_file(descriptor_pool.Default())
    servicer = ReflectionServicer((*service_names, *SERVICE_NAMES))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1_handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(V1_SERVICE, {METHOD: v1_handler}),)
    )
