"""`okey-server-probe`: exit 0 when an okey server's grpc.health.v1 Check answers SERVING.

For container health checks (the Dockerfile's HEALTHCHECK) and exec probes,
where the Go `grpc_health_probe` binary is not installed: this needs nothing
beyond the server's own Python packages. By default it asks the server's
health lane (OKEY_HEALTH_PORT) when there is one, else its RPC port. Exit 1 for anything but SERVING
(NOT_SERVING while draining, unreachable, timed out, unknown service), with one
line on stderr saying why; 2 for bad flags (argparse).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from okey_server.rpc.config import DEFAULT_PORT

DEFAULT_TIMEOUT_S = 3.0


def default_port(env: Mapping[str, str]) -> str:
    """The health lane's port when the server has one (--health-port), else its RPC port."""
    return env.get("OKEY_HEALTH_PORT") or env.get("OKEY_PORT") or str(DEFAULT_PORT)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="okey-server-probe",
        description="Exit 0 when the server's grpc.health.v1 Check answers SERVING, else 1.",
    )
    # The probe runs beside the server (same container or pod): loopback and
    # the server's own health lane (OKEY_HEALTH_PORT), else its RPC port, are
    # the right default.
    parser.add_argument(
        "--address",
        default=f"127.0.0.1:{default_port(os.environ)}",
        help="host:port of the server (default 127.0.0.1:$OKEY_HEALTH_PORT, else "
        "$OKEY_PORT, else %(default)s)",
    )
    parser.add_argument(
        "--service", default="", help="service name to check (default: the whole server)"
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds (default %(default)s)"
    )
    parser.add_argument("--tls-ca", type=Path, help="PEM CA that signed the server's certificate")
    parser.add_argument("--tls-cert", type=Path, help="PEM client certificate (mutual TLS)")
    parser.add_argument("--tls-key", type=Path, help="PEM client key (mutual TLS)")
    parser.add_argument(
        "--tls-server-name", help="name the server's certificate is checked against"
    )
    return parser


def _channel(args: argparse.Namespace) -> grpc.Channel:
    if args.tls_ca is None and args.tls_cert is None:
        return grpc.insecure_channel(args.address)
    credentials = grpc.ssl_channel_credentials(
        root_certificates=args.tls_ca.read_bytes() if args.tls_ca else None,
        private_key=args.tls_key.read_bytes() if args.tls_key else None,
        certificate_chain=args.tls_cert.read_bytes() if args.tls_cert else None,
    )
    options = []
    if args.tls_server_name:
        options.append(("grpc.ssl_target_name_override", args.tls_server_name))
    return grpc.secure_channel(args.address, credentials, options=options)


def check(args: argparse.Namespace) -> tuple[bool, str]:
    """(serving, what was seen) for one health Check against `args.address`."""
    with _channel(args) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            # types-grpcio-health-checking declares HealthStub without its methods.
            answer = stub.Check(  # type: ignore[attr-defined]  # see above
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout
            )
        except grpc.RpcError as exc:
            return False, f"{exc.code().name}: {exc.details()}"
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
    return answer.status == health_pb2.HealthCheckResponse.SERVING, status


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if (args.tls_cert is None) != (args.tls_key is None):
        print("okey-server-probe: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    try:
        serving, seen = check(args)
    except OSError as exc:  # a TLS file that cannot be read
        print(f"okey-server-probe: {exc}", file=sys.stderr)
        return 1
    if serving:
        return 0
    print(f"okey-server-probe: {args.address} is not serving: {seen}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
