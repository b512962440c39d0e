"""The message codecs of the HTTP listener: protobuf binary and proto3 JSON.

connectrpc's own codecs for Google's protobuf would do, but for three things:

- a servicer may answer already serialized bytes (CheckHand, see
  okey_server.services.hand_servicer); the adapter hands those over as
  `Serialized`, which the binary codec sends as they are and the JSON codec
  reads once into the method's response message;
- a body that does not decode is bad input like any other: INVALID_ARGUMENT on
  ``request`` with the same BadRequest and ErrorInfo as on the gRPC port, never
  the bare ``unmarshal message`` error;
- JSON is read strictly (a field the message does not have is refused, naming it:
  a typo must not pass silently as an empty field) and written with every field,
  defaults included, as ``okey --json`` prints it (docs/http.md, "JSON").
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, TypeVar

from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from okey_rules.errors import InvalidInputError

from okey_server.http.errors import connect_error
from okey_server.rpc.rpc_wrapper import undecodable

M = TypeVar("M", bound=Message)


class Serialized(NamedTuple):
    """A response a servicer wrote as bytes, with the message class they encode."""

    data: bytes
    message_class: type[Message]


def _bad_body(exc: Exception) -> Exception:
    return connect_error(InvalidInputError("request", undecodable(exc)))


class BinaryCodec:
    """``application/proto`` (Connect) and the gRPC-Web ``+proto`` framing."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: Message | Serialized) -> bytes:
        if isinstance(message, Serialized):
            return message.data
        return message.SerializeToString()

    def decode(self, data: bytes | bytearray, message_class: type[M]) -> M:
        try:
            return message_class.FromString(bytes(data))
        except (DecodeError, ValueError, RecursionError) as exc:
            raise _bad_body(exc) from None


class JsonCodec:
    """``application/json``: proto3 JSON (lowerCamelCase names or the proto names, enums by
    name or number, 64-bit integers as strings)."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message | Serialized) -> bytes:
        if isinstance(message, Serialized):
            message = message.message_class.FromString(message.data)
        document: dict[str, Any] = json_format.MessageToDict(
            message, always_print_fields_with_no_presence=True
        )
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()

    def decode(self, data: bytes | bytearray, message_class: type[M]) -> M:
        message = message_class()
        # An empty body is the empty message, as in binary.
        if not bytes(data).strip():
            return message
        try:
            document = json.loads(bytes(data))
        except (ValueError, RecursionError) as exc:  # not JSON, or not UTF-8
            raise _bad_body(exc) from None
        if not isinstance(document, dict):
            raise connect_error(InvalidInputError(
                "request", "the request body is not a JSON object")) from None
        try:
            json_format.ParseDict(document, message, ignore_unknown_fields=False)
        # protobuf's upb parser lets some wrong values through as other errors: a lone
        # surrogate as an enum name (SystemError), -Infinity for an integer
        # (OverflowError): bad input all the same (tests/service/test_http_fuzz_findings.py).
        except (json_format.ParseError, RecursionError, TypeError, ValueError,
                OverflowError, SystemError) as exc:
            raise _bad_body(exc) from None
        return message


BINARY = BinaryCodec()
JSON = JsonCodec()
CODECS = (BINARY, JSON)
