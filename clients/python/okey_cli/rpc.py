"""Talking to the server: --server, --timeout and --tls* options, the channel, readable errors."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
from collections.abc import Callable, Mapping
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
# The client's TLS variables. The client certificate has its own names
# (not OKEY_TLS_CERT/OKEY_TLS_KEY, which are the server's certificate), so a
# shell that starts both never hands the server's key to the CLI.
TLS_ENV = "OKEY_TLS"
TLS_CA_ENV = "OKEY_TLS_CA"
TLS_CERT_ENV = "OKEY_TLS_CLIENT_CERT"
TLS_KEY_ENV = "OKEY_TLS_CLIENT_KEY"
TLS_SERVER_NAME_ENV = "OKEY_TLS_SERVER_NAME"
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})
# Several addresses are balanced call by call over one channel.
ROUND_ROBIN_OPTIONS: tuple[tuple[str, Any], ...] = (("grpc.lb_policy_name", "round_robin"),)
# Retried by gRPC itself, with back-off (every okey call is free of side
# effects on the server): UNAVAILABLE (the server is draining, restarting or
# out of reach, or refused a stream) and RESOURCE_EXHAUSTED (its limit of open
# calls was reached; an over-size request gets it too, and fails again each
# try). Every other code is final. The server's docs/operations.md ("What a
# client should retry") says why.
RETRIED_SERVICES = (
    "okey.v1.HandService", "okey.v1.DealService", "okey.v1.GameService",
    "okey.v1.ScoringService",
)
RETRY_POLICY: dict[str, Any] = {
    "maxAttempts": 4,
    "initialBackoff": "0.1s",
    "maxBackoff": "1s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"],
}
# The health Check too, as the Node client does: a refused stream fails it as well.
RETRIED_METHODS: tuple[dict[str, str], ...] = (
    *({"service": name} for name in RETRIED_SERVICES),
    {"service": "grpc.health.v1.Health", "method": "Check"},
)
# Retries stop while more than half of the recent calls failed (each failure
# takes a token, each success gives one back; none below half of maxTokens): a
# struggling server is not sent four times the calls. 100 tokens, so that the
# calls a lost connection had in flight (up to 16 each, see docs/operations.md)
# are all retried; with gRPC's example of 10 and 0.1, retries stopped after 5
# failures in a row and whenever more than about 1 call in 11 failed.
RETRY_THROTTLING: dict[str, Any] = {"maxTokens": 100, "tokenRatio": 1}
SERVICE_CONFIG = json.dumps({
    "methodConfig": [{
        "name": list(RETRIED_METHODS),
        "retryPolicy": RETRY_POLICY,
    }],
    "retryThrottling": RETRY_THROTTLING,
})
RETRY_OPTIONS: tuple[tuple[str, Any], ...] = (("grpc.service_config", SERVICE_CONFIG),)


@dataclass(frozen=True, slots=True)
class Violation:
    """One google.rpc.BadRequest field violation."""

    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.field else self.description


@dataclass(frozen=True, slots=True)
class TlsSettings:
    """How to talk TLS to the server: PEM bytes read from the files the options name."""

    # The CA certificates to trust; None: gRPC's default roots.
    root_certificates: bytes | None = None
    # The client certificate and its key, for servers that ask for one (mutual TLS).
    certificate_chain: bytes | None = None
    private_key: bytes | None = None
    # The name the server certificate must carry; None: the host of the address.
    server_name: str | None = None


class ServerAddress(str):
    """The --server value as the user gave it, carrying how to connect to it.

    A str, so that every message and signature that names the server keeps
    working; `open_channel` reads the TLS settings from it.
    """

    tls: TlsSettings | None

    def __new__(cls, text: str, tls: TlsSettings | None = None) -> ServerAddress:
        made = super().__new__(cls, text)
        made.tls = tls
        return made


def add_server_options(parser: argparse.ArgumentParser) -> None:
    """Adds --server, --timeout and the TLS options to a command that calls the server."""
    parser.add_argument(
        "--server",
        metavar="HOST:PORT[,HOST:PORT...]",
        default=None,
        help=f"the okey server (default: ${SERVER_ENV} or {DEFAULT_SERVER}); several "
        "comma-separated IP:PORT addresses share the calls round-robin",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_positive_float,
        default=DEFAULT_TIMEOUT_S,
        help=f"deadline of each call (default {DEFAULT_TIMEOUT_S:g})",
    )
    tls = parser.add_argument_group("TLS (each --tls-* option turns TLS on)")
    tls.add_argument(
        "--tls",
        action="store_true",
        default=None,
        help=f"talk TLS, trusting gRPC's default roots unless --tls-ca (${TLS_ENV}=1)",
    )
    tls.add_argument(
        "--tls-ca", metavar="FILE", help=f"PEM CA certificates to trust (${TLS_CA_ENV})"
    )
    tls.add_argument(
        "--tls-cert",
        metavar="FILE",
        help=f"PEM client certificate, for a server that requires one (${TLS_CERT_ENV})",
    )
    tls.add_argument(
        "--tls-key", metavar="FILE", help=f"PEM private key of --tls-cert (${TLS_KEY_ENV})"
    )
    tls.add_argument(
        "--tls-server-name",
        metavar="NAME",
        help="the name the server certificate must carry, when the address does not "
        f"(${TLS_SERVER_NAME_ENV})",
    )


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be greater than 0")
    return value


def server_address(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> str:
    """--server, else $OKEY_SERVER, else the default address; with its TLS settings.

    The TLS files are read here, so a missing or unreadable one stops the
    command (exit 2) before any call. Returns a `ServerAddress`.
    """
    env = os.environ if env is None else env
    text = str(args.server or env.get(SERVER_ENV) or DEFAULT_SERVER)
    return ServerAddress(text, tls_settings(args, env))


def tls_settings(args: argparse.Namespace, env: Mapping[str, str]) -> TlsSettings | None:
    """The TLS options (flags over variables), or None for plaintext."""

    def pick(attribute: str, variable: str) -> tuple[str | None, str]:
        flag = getattr(args, attribute, None)
        if flag is not None:
            return flag, "--" + attribute.replace("_", "-")
        return env.get(variable) or None, variable

    on_text, on_source = pick("tls", TLS_ENV)
    if isinstance(on_text, bool):
        wanted = on_text
    elif on_text is None or on_text.strip().lower() in _FALSE:
        wanted = False
    elif on_text.strip().lower() in _TRUE:
        wanted = True
    else:
        raise CliError(f"{on_source}: {on_text!r} is not one of 1, true, 0, false", EXIT_BAD_INPUT)
    ca = pick("tls_ca", TLS_CA_ENV)
    cert = pick("tls_cert", TLS_CERT_ENV)
    key = pick("tls_key", TLS_KEY_ENV)
    name = pick("tls_server_name", TLS_SERVER_NAME_ENV)
    if bool(cert[0]) != bool(key[0]):
        given, missing = (cert, key) if cert[0] else (key, cert)
        # Named in the form the user chose for the one they gave.
        other = {"--tls-cert": "--tls-key", "--tls-key": "--tls-cert"}.get(given[1], missing[1])
        raise CliError(f"{given[1]} needs {other} too", EXIT_BAD_INPUT)
    if not (wanted or ca[0] or cert[0] or name[0]):
        return None
    return TlsSettings(
        root_certificates=_read_pem(ca),
        certificate_chain=_read_pem(cert),
        private_key=_read_pem(key),
        server_name=name[0],
    )


def _read_pem(option: tuple[str | None, str]) -> bytes | None:
    path, source = option
    if not path:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        reason = exc.strerror or exc
        raise CliError(f"{source}: cannot read {path}: {reason}", EXIT_BAD_INPUT) from None
    if b"-----BEGIN " not in data:
        raise CliError(f"{source}: {path} is not a PEM file", EXIT_BAD_INPUT)
    return data


def split_addresses(text: str) -> list[str]:
    """The comma-separated addresses of a --server value (one for a single server)."""
    return [part.strip() for part in text.split(",") if part.strip()]


def _ip_literal(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP of ``ip:port`` or ``[ipv6]:port``, or None when the host is a name."""
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return None
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]"))
    except ValueError:
        return None


def channel_target(address: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """The gRPC target and channel options for a --server value.

    One address is used as it is (a name is resolved by gRPC's DNS resolver).
    Several must be IP:PORT literals of one family: they become an ``ipv4:``
    or ``ipv6:`` target balanced round-robin, each call to the next server.
    A ``dns:///name:port`` target is balanced round-robin over every address
    the name resolves to.
    """
    parts = split_addresses(address)
    if len(parts) <= 1:
        target = parts[0] if parts else address
        return target, ROUND_ROBIN_OPTIONS if target.startswith("dns:") else ()
    ips = [_ip_literal(part) for part in parts]
    if any(ip is None for ip in ips):
        raise CliError(
            f"--server: {address}: several addresses must each be IP:PORT "
            "(for a name, use dns:///NAME:PORT, which spreads over every address it resolves to)",
            EXIT_BAD_INPUT,
        )
    versions = {ip.version for ip in ips if ip is not None}
    if len(versions) > 1:
        raise CliError(f"--server: {address}: mixes IPv4 and IPv6 addresses", EXIT_BAD_INPUT)
    scheme = "ipv4" if versions == {4} else "ipv6"
    return f"{scheme}:{','.join(parts)}", ROUND_ROBIN_OPTIONS


def _default_server_name(address: str) -> str | None:
    """The host a multi-address target's certificates are checked against: the first one's.

    (gRPC would check the whole ``ipv4:a,b`` target text, which no certificate carries.)
    """
    parts = split_addresses(address)
    if len(parts) <= 1:
        return None
    host = parts[0].rpartition(":")[0]
    return host.removeprefix("[").removesuffix("]")


def open_channel(address: str) -> grpc.Channel:
    """A channel to `address` (a `server_address`): TLS when its settings say so."""
    target, options = channel_target(address)
    options = (*options, *RETRY_OPTIONS)
    tls = address.tls if isinstance(address, ServerAddress) else None
    if tls is None:
        return grpc.insecure_channel(target, options=options)
    server_name = tls.server_name or _default_server_name(address)
    if server_name:
        options = (*options, ("grpc.ssl_target_name_override", server_name))
    credentials = grpc.ssl_channel_credentials(
        root_certificates=tls.root_certificates,
        private_key=tls.private_key,
        certificate_chain=tls.certificate_chain,
    )
    return grpc.secure_channel(target, credentials, options=options)


def violations(error: grpc.RpcError) -> list[Violation]:
    """The BadRequest field violations an error status carries (none if it carries none)."""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]  # an RpcError is its grpc.Call
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


def unreachable(address: str, details: str = "") -> CliError:
    """Nothing answered at `address`; over TLS gRPC's reason is added (a refused
    certificate or a name mismatch looks like an absent server otherwise)."""
    if isinstance(address, ServerAddress) and address.tls is not None:
        reason = f": {details}" if details else ""
        return CliError(f"cannot reach okey server at {address} over TLS{reason}", EXIT_UNREACHABLE)
    return CliError(f"cannot reach okey server at {address}", EXIT_UNREACHABLE)


def explain(error: grpc.RpcError, address: str) -> CliError:
    """Turns a failed call into the one-line message and exit code of the CLI."""
    code = status_code(error)
    if code is grpc.StatusCode.UNAVAILABLE:
        return unreachable(address, status_details(error))
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
