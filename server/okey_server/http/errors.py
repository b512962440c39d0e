"""Errors on the HTTP listener: the gRPC port's statuses in the Connect and gRPC-Web forms.

The status is the one okey_server.rpc.errors builds for the gRPC port (the code, the
message, and for bad input a google.rpc.BadRequest and an ErrorInfo); here it becomes a
ConnectError carrying the same two detail messages, which connectrpc writes as
Connect's error JSON (``code``, ``message``, ``details[].type``/``value``) or as
gRPC-Web's ``grpc-status``, ``grpc-message`` and ``grpc-status-details-bin``.
"""

from __future__ import annotations

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from google.rpc import status_pb2
from okey_rules.errors import InvalidInputError
from protobuf.wkt import Any as AnyDetail

from okey_server.rpc import errors

DETAILS_KEY = "grpc-status-details-bin"
_CODE_NAMES = {grpc.StatusCode.CANCELLED: Code.CANCELED}


def connect_code(code: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status code (the same names, lower case; one spelling
    differs: CANCELLED is ``canceled``)."""
    return _CODE_NAMES.get(code) or Code(code.name.lower())


def grpc_code(code: Code) -> grpc.StatusCode:
    """The gRPC status code of a Connect code (for the call log and the metrics)."""
    if code is Code.CANCELED:
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode[code.name]


class InvalidInputConnectError(ConnectError):
    """INVALID_ARGUMENT for bad input, with the field at fault (for the call log)."""

    def __init__(self, field: str, message: str, details: list[ErrorDetail]) -> None:
        super().__init__(Code.INVALID_ARGUMENT, message, details)
        self.field = field


def connect_error(exc: Exception) -> ConnectError:
    """The ConnectError `exc` deserves: errors.status_for's code, message and details."""
    if isinstance(exc, ConnectError):
        return exc
    status = errors.status_for(exc)
    details: list[ErrorDetail] = []
    for key, value in status.trailing_metadata:
        if key == DETAILS_KEY and isinstance(value, bytes):
            for packed in status_pb2.Status.FromString(value).details:
                details.append(ErrorDetail(AnyDetail(type_url=packed.type_url,
                                                     value=packed.value)))
    if isinstance(exc, InvalidInputError):
        return InvalidInputConnectError(errors.bounded_field(exc.field), status.details, details)
    return ConnectError(connect_code(status.code), status.details, details)


def unavailable(message: str) -> ConnectError:
    return ConnectError(Code.UNAVAILABLE, message)


def resource_exhausted(message: str) -> ConnectError:
    return ConnectError(Code.RESOURCE_EXHAUSTED, message)
