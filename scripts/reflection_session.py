"""Does what grpcurl does, through server reflection alone: lists services, calls an RPC with JSON.

    reflection_session.py --server 127.0.0.1:50051 list
    reflection_session.py --server 127.0.0.1:50051 list okey.v1.HandService
    reflection_session.py --server 127.0.0.1:50051 call okey.v1.HandService/CheckHand -d '{...}'
    reflection_session.py --server 127.0.0.1:50051 session   # the README's transcript

No generated stubs: the message classes come from the descriptors the server
reflects, so this works against any server that speaks okey.v1 and serves
reflection, as grpcurl would.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status

DEFAULT_SERVER = "127.0.0.1:50051"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
CALL_TIMEOUT_S = 30.0

# The README's example: four melds and no wild, the answer without its
# arrangement so that the transcript stays short.
SESSION_METHOD = "okey.v1.HandService/CheckHand"
SESSION_REQUEST = json.dumps(
    {
        "handNotation": "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13",
        "indicatorNotation": "R4",
        "omitArrangements": True,
    }
)


class ReflectionClient:
    """Services, methods and dynamic calls, all learnt from the server's reflection service."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self.database = ProtoReflectionDescriptorDatabase(channel)
        self.pool = descriptor_pool.DescriptorPool(self.database)

    def services(self) -> list[str]:
        """Every service the server reflects, sorted (grpcurl's `list`)."""
        return sorted(self.database.get_services())

    def methods(self, service: str) -> list[str]:
        """A service's methods as ``package.Service.Method`` (grpcurl's `list SERVICE`)."""
        descriptor = self.pool.FindServiceByName(service)
        return [m.full_name for m in descriptor.methods]

    def call(self, method: str, request_json: str) -> Message:
        """Calls ``package.Service/Method`` with a proto3 JSON request; returns the response."""
        service_name, _, method_name = method.replace("/", ".").rpartition(".")
        methods = self.pool.FindServiceByName(service_name).methods_by_name
        if method_name not in methods:
            raise KeyError(f"service {service_name} has no method {method_name}")
        descriptor = methods[method_name]
        request_class = message_factory.GetMessageClass(descriptor.input_type)
        response_class = message_factory.GetMessageClass(descriptor.output_type)
        request = json_format.Parse(request_json, request_class())
        stub = self.channel.unary_unary(
            f"/{service_name}/{method_name}",
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString,
        )
        response: Message = stub(request, timeout=CALL_TIMEOUT_S)
        return response


def to_json(message: Message) -> str:
    """proto3 JSON as grpcurl prints it: JSON names, two-space indent, defaults omitted."""
    return json_format.MessageToJson(message, indent=2)


def describe_error(error: grpc.RpcError) -> str:
    """A refused call: its code, message and google.rpc.BadRequest field violations."""
    call = error if isinstance(error, grpc.Call) else None
    code = call.code() if call else grpc.StatusCode.UNKNOWN
    lines = [
        "ERROR:",
        f"  Code: {code.name}",
        f"  Message: {call.details() if call else error}",
    ]
    status = rpc_status.from_call(call) if call else None
    for detail in status.details if status else []:
        bad_request = error_details_pb2.BadRequest()
        if detail.Unpack(bad_request):
            lines.extend(
                f"  Field violation: {v.field}: {v.description}"
                for v in bad_request.field_violations
            )
    return "\n".join(lines)


def session(client: ReflectionClient, address: str) -> str:
    """The README's grpcurl session, produced through reflection."""
    data = shlex.quote(SESSION_REQUEST)
    response = to_json(client.call(SESSION_METHOD, SESSION_REQUEST))
    return "\n".join([
        f"$ grpcurl -plaintext {address} list",
        *client.services(),
        f"$ grpcurl -plaintext -d {data} {address} {SESSION_METHOD}",
        response,
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default=DEFAULT_SERVER, help="host:port (plaintext)")
    commands = parser.add_subparsers(dest="command", required=True)
    list_command = commands.add_parser("list", help="list services, or one service's methods")
    list_command.add_argument("service", nargs="?")
    call_command = commands.add_parser("call", help="call package.Service/Method with JSON")
    call_command.add_argument("method")
    call_command.add_argument("-d", "--data", default="{}", help="the request as proto3 JSON")
    commands.add_parser("session", help="print the README's grpcurl session")
    args = parser.parse_args(argv)

    with grpc.insecure_channel(args.server, options=CHANNEL_OPTIONS) as channel:
        client = ReflectionClient(channel)
        try:
            if args.command == "list":
                names = client.methods(args.service) if args.service else client.services()
                print("\n".join(names))
            elif args.command == "call":
                print(to_json(client.call(args.method, args.data)))
            else:
                print(session(client, args.server))
        except grpc.RpcError as error:
            print(describe_error(error), file=sys.stderr)
            return 1
        except (KeyError, json_format.ParseError) as error:
            print(f"Error: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
