"""Talking to the server: the --server/--timeout options, the channel, errors made readable."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from okey_cli.errors import (
    EXIT_BAD_INPUT,
    EXIT_SERVER_ERROR,
    EXIT_UNREACHABLE,
    CliError,
)

DEFAULT_SERVER = "127.0.0.1:50051"
SERVER_ENV = "OKEY_SERVER"
DEFAULT_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class Violation:
    """One google.rpc.BadRequest field violation."""

    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.field else self.description


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """Adds --server and --timeout to a command that calls the server."""
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        default=None,
        help=f"the okey server (default: ${SERVER_ENV} or {DEFAULT_SERVER})",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_positive_float,
        default=DEFAULT_TIMEOUT_S,
        help=f"deadline of each call (default {DEFAULT_TIMEOUT_S:g})",
    )


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return value


def server_address(args: argparse.Namespace) -> str:
    """--server, else $OKEY_SERVER, else the default address."""
    return str(args.server or os.environ.get(SERVER_ENV) or DEFAULT_SERVER)


def open_channel(address: str) -> grpc.Channel:
    return grpc.insecure_channel(address)


def violations(error: grpc.RpcError) -> list[Violation]:
    """The BadRequest field violations an error status carries (none if it carries none)."""
    try:
        status = rpc_status.from_call(error)
    except ValueError:
        # A status whose rich details disagree with its code: show the plain details only.
        return []
    if status is None:
        return []
    found: list[Violation] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            detail.Unpack(bad_request)
            found.extend(Violation(v.field, v.description) for v in bad_request.field_violations)
    return found


def status_code(error: grpc.RpcError) -> grpc.StatusCode:
    code = error.code()
    return code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN


def status_details(error: grpc.RpcError) -> str:
    return str(error.details() or "")


def unreachable(address: str) -> CliError:
    return CliError(f"cannot reach okey server at {address}", EXIT_UNREACHABLE)


def explain(error: grpc.RpcError, address: str) -> CliError:
    """Turns a failed call into the one-line message and exit code of the CLI."""
    code = status_code(error)
    if code is grpc.StatusCode.UNAVAILABLE:
        return unreachable(address)
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        return CliError(
            f"okey server at {address} did not answer before the deadline", EXIT_UNREACHABLE
        )
    if code is grpc.StatusCode.INVALID_ARGUMENT:
        found = violations(error)
        what = "; ".join(str(v) for v in found) if found else status_details(error)
        return CliError(f"invalid input: {what}", EXIT_BAD_INPUT)
    return CliError(
        f"okey server at {address} answered {code.name}: {status_details(error)}",
        EXIT_SERVER_ERROR,
    )


def call(rpc: Callable[..., Any], request: Any, address: str, timeout: float) -> Any:
    """Calls a unary RPC with a deadline; a failure becomes a `CliError`."""
    try:
        return rpc(request, timeout=timeout)
    except grpc.RpcError as error:
        raise explain(error, address) from None


def unary(
    address: str,
    timeout: float,
    stub_class: Callable[[grpc.Channel], Any],
    method: str,
    request: Any,
) -> Any:
    """Opens a channel, calls one unary RPC of a stub (by method name) and closes the channel."""
    with open_channel(address) as channel:
        return call(getattr(stub_class(channel), method), request, address, timeout)


def print_answer(response: Any, as_json: bool, text: Callable[[], str]) -> None:
    """Prints the response as protobuf JSON (`--json`) or as the command's readable text."""
    if not as_json:
        print(text())
        return
    # Every field, defaults included (winning: false, seat 0), so that a reader
    # need not know which values proto3 JSON leaves out.
    print(
        json_format.MessageToJson(
            response, always_print_fields_with_no_presence=True, ensure_ascii=False
        )
    )
