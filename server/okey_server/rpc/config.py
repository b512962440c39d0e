"""Server configuration from command-line flags and OKEY_* environment variables."""

from __future__ import annotations

import argparse
import os
import re
import secrets
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_GRACE_S = 5.0
MAX_PROCESSES = 64
# Concurrent RPCs one process runs before it answers RESOURCE_EXHAUSTED: the
# handlers are short and CPU-bound on one event loop, so a deeper queue only
# holds memory and adds latency; other processes or instances take the load.
DEFAULT_MAX_CONCURRENT_RPCS = 256
# The largest request the server reads. The biggest real requests (a ScoreGame
# of many rounds given as states, a long Replay log) are tens of kilobytes;
# gRPC's own default of 4 MiB lets a burst of junk hold gigabytes.
DEFAULT_MAX_RECEIVE_BYTES = 256 * 1024
# Concurrent calls one client connection may have open (HTTP/2
# SETTINGS_MAX_CONCURRENT_STREAMS): an eighth of the process's RPC slots, so no
# one connection can hold them all, and enough for a client to keep a process
# busy (its calls take well under a millisecond each). A client's further calls
# wait in its own gRPC library until one of its streams ends.
DEFAULT_MAX_STREAMS_PER_CONNECTION = 32
# How long a call may take to deliver its request message. Real requests arrive
# in one round trip (the largest is tens of kilobytes); a client that sends its
# headers and then nothing would otherwise hold an RPC slot for as long as its
# connection lives.
DEFAULT_RECEIVE_TIMEOUT_S = 10.0
# Every connection is closed (GOAWAY, its calls in flight get a grace period)
# this long after it opened, give or take gRPC's 10% jitter: a restarted
# process, a new instance or a scaled-up pod gets its share of the clients back
# within a minute, and no stream (a health Watch) outlives it.
DEFAULT_MAX_CONNECTION_AGE_S = 30.0
SIGNING_KEY_BYTES = 32
# A configured key shorter than this (after hex decoding) is refused: a short
# secret can be guessed, and every state MAC and seed commitment rests on it.
MIN_SIGNING_KEY_BYTES = 16
# A secret of at least this many hex digits is read as hex, anything else as text.
_HEX_KEY = re.compile(r"(?:[0-9a-fA-F]{2}){16,}")


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the server needs to start; flags override the environment."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    log_level: str = "info"
    grace_s: float = DEFAULT_GRACE_S
    # The MAC and seed-commitment key. Kept out of repr so it never reaches a log.
    signing_key: bytes = field(default_factory=lambda: secrets.token_bytes(SIGNING_KEY_BYTES),
                               repr=False)
    # True when no key was configured and `signing_key` is a fresh random one.
    signing_key_generated: bool = True
    # Keys this server no longer seals with but whose tokens (states, deal ids)
    # it still opens: the keys being rotated out (docs/operations.md).
    previous_signing_keys: tuple[bytes, ...] = field(default=(), repr=False)
    # TLS: PEM certificate chain and private key; with a client CA, mutual TLS
    # (clients must present a certificate that CA signed). None = plaintext.
    tls_cert: bytes | None = field(default=None, repr=False)
    tls_key: bytes | None = field(default=None, repr=False)
    tls_client_ca: bytes | None = field(default=None, repr=False)
    # Server processes sharing the port (SO_REUSEPORT); 1 = this process only.
    processes: int = 1
    # Prometheus metrics over HTTP on this port (same host); None = off.
    metrics_port: int | None = None
    max_concurrent_rpcs: int = DEFAULT_MAX_CONCURRENT_RPCS
    max_receive_bytes: int = DEFAULT_MAX_RECEIVE_BYTES
    # grpc.health.v1 alone, plaintext, on this port of the same host (None =
    # off): a lane for probes that RPCs cannot crowd out.
    health_port: int | None = None
    max_streams_per_connection: int = DEFAULT_MAX_STREAMS_PER_CONNECTION
    receive_timeout_s: float = DEFAULT_RECEIVE_TIMEOUT_S
    max_connection_age_s: float = DEFAULT_MAX_CONNECTION_AGE_S
    # The okey.v1 services over HTTP (Connect, gRPC-Web) on this port of the same
    # host (None = off; 0 = any free port): okey_server.http.
    http_port: int | None = None
    # Browser origins the HTTP listener allows (CORS); empty: none.
    http_cors_origins: tuple[str, ...] = ()

    @property
    def tls(self) -> bool:
        return self.tls_cert is not None

    @property
    def mutual_tls(self) -> bool:
        return self.tls_client_ca is not None

    @property
    def transport(self) -> str:
        """How clients connect, as the startup line tells operators."""
        if self.mutual_tls:
            return "mutual-tls"
        return "tls" if self.tls else "plaintext"

    @property
    def address(self) -> str:
        """``host:port`` as grpc wants it (IPv6 literals in brackets)."""
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"


class _Settings(TypedDict):
    """The Config fields `load_config` passes by keyword, as their types."""

    tls_cert: bytes | None
    tls_key: bytes | None
    tls_client_ca: bytes | None
    processes: int
    metrics_port: int | None
    max_concurrent_rpcs: int
    max_receive_bytes: int
    health_port: int | None
    max_streams_per_connection: int
    receive_timeout_s: float
    max_connection_age_s: float
    http_port: int | None
    http_cors_origins: tuple[str, ...]


def parse_signing_key(text: str) -> bytes:
    """A hex secret (32+ hex digits, even count) decodes to bytes; any other text is UTF-8."""
    if _HEX_KEY.fullmatch(text):
        return bytes.fromhex(text)
    return text.encode()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="okey-server",
        description="Stateless gRPC rules backend for Okey and Okey 101.",
        epilog="Every flag can also be set by its OKEY_* environment variable; flags win.",
    )
    parser.add_argument("--host", help=f"address to bind (OKEY_HOST, default {DEFAULT_HOST})")
    parser.add_argument(
        "--port", help=f"port, 0 = any free port (OKEY_PORT, default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--log-level", help=f"one of {', '.join(LOG_LEVELS)} (OKEY_LOG_LEVEL, default info)"
    )
    parser.add_argument(
        "--grace",
        help=f"seconds in-flight RPCs get on SIGTERM (OKEY_GRACE, default {DEFAULT_GRACE_S:g})",
    )
    parser.add_argument(
        "--signing-key",
        help="secret the states and deal ids are sealed with, hex or text (OKEY_SIGNING_KEY; "
        f"prefer the variable: flags show in `ps`); at least {MIN_SIGNING_KEY_BYTES} bytes. "
        "Unset: a random key per start",
    )
    parser.add_argument(
        "--previous-signing-keys",
        help="keys being rotated out, comma-separated, each hex or text "
        "(OKEY_PREVIOUS_SIGNING_KEYS): states and deal ids sealed under them are still "
        "accepted, nothing new is sealed with them. Needs a signing key",
    )
    parser.add_argument("--tls-cert", help="PEM certificate chain file: serve TLS (OKEY_TLS_CERT)")
    parser.add_argument("--tls-key", help="PEM private key file for --tls-cert (OKEY_TLS_KEY)")
    parser.add_argument(
        "--tls-client-ca",
        help="PEM CA file: mutual TLS, clients must show a certificate it signed "
        "(OKEY_TLS_CLIENT_CA; needs --tls-cert)",
    )
    parser.add_argument(
        "--processes",
        help=f"server processes sharing the port, 1-{MAX_PROCESSES} (OKEY_PROCESSES, default 1)",
    )
    parser.add_argument(
        "--metrics-port",
        help="serve Prometheus metrics over HTTP on this port of --host (OKEY_METRICS_PORT; "
        "default off)",
    )
    parser.add_argument(
        "--max-concurrent-rpcs",
        help="RPCs a process runs at once before answering RESOURCE_EXHAUSTED "
        f"(OKEY_MAX_CONCURRENT_RPCS, default {DEFAULT_MAX_CONCURRENT_RPCS})",
    )
    parser.add_argument(
        "--max-receive-bytes",
        help="largest request accepted, in bytes "
        f"(OKEY_MAX_RECEIVE_BYTES, default {DEFAULT_MAX_RECEIVE_BYTES})",
    )
    parser.add_argument(
        "--health-port",
        help="also serve grpc.health.v1 alone, plaintext, on this port of --host: the lane "
        "for probes (OKEY_HEALTH_PORT; default off)",
    )
    parser.add_argument(
        "--max-streams-per-connection",
        help="calls one client connection may have open at once "
        f"(OKEY_MAX_STREAMS_PER_CONNECTION, default {DEFAULT_MAX_STREAMS_PER_CONNECTION})",
    )
    parser.add_argument(
        "--receive-timeout",
        help="seconds a call may take to send its request "
        f"(OKEY_RECEIVE_TIMEOUT, default {DEFAULT_RECEIVE_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--max-connection-age",
        help="seconds after which a client connection is closed with GOAWAY and reopened "
        f"(OKEY_MAX_CONNECTION_AGE, default {DEFAULT_MAX_CONNECTION_AGE_S:g})",
    )
    parser.add_argument(
        "--http-port",
        help="also serve the okey.v1 services over HTTP (Connect JSON and binary, gRPC-Web) "
        "on this port of --host, 0 = any free port (OKEY_HTTP_PORT; default off)",
    )
    parser.add_argument(
        "--http-cors-origin", action="append",
        help="a browser origin the HTTP listener allows (CORS), such as "
        "https://table.example; repeatable (OKEY_HTTP_CORS_ORIGINS, comma-separated; "
        "default none)",
    )
    return parser


def _pick(flag: str | None, env: Mapping[str, str], name: str) -> tuple[str | None, str]:
    """The flag value if given, else the environment's; also says where it came from."""
    if flag is not None:
        return flag, "--" + name.removeprefix("OKEY_").lower().replace("_", "-")
    return env.get(name), name


def _int(parser: argparse.ArgumentParser, value: tuple[str | None, str], default: int,
         low: int, high: int) -> int:
    text, source = value
    if text is None or text == "":
        return default
    try:
        number = int(text)
    except ValueError:
        parser.error(f"{source}: {text!r} is not a whole number")
    if not low <= number <= high:
        parser.error(f"{source}: {number} is outside {low}-{high}")
    return number


def _float(parser: argparse.ArgumentParser, value: tuple[str | None, str], default: float,
           bounds: tuple[float, float], unit: str) -> float:
    low, high = bounds
    text, source = value
    if text is None or text == "":
        return default
    try:
        number = float(text)
    except ValueError:
        parser.error(f"{source}: {text!r} is not a number of {unit}")
    if not low <= number <= high:  # also refuses nan
        parser.error(f"{source}: {number:g} is outside {low:g}-{high:g} {unit}")
    return number


def load_config(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Reads flags (`argv`, default sys.argv[1:]) over `env` (default os.environ).

    Bad values exit with status 2 and a one-line message naming the flag or variable.
    """
    env = os.environ if env is None else env
    parser = _parser()
    args = parser.parse_args(argv)

    host = _pick(args.host, env, "OKEY_HOST")[0] or DEFAULT_HOST
    port = _int(parser, _pick(args.port, env, "OKEY_PORT"), DEFAULT_PORT, 0, 65535)

    level_text, level_source = _pick(args.log_level, env, "OKEY_LOG_LEVEL")
    level = (level_text or "info").strip().lower()
    if level not in LOG_LEVELS:
        parser.error(f"{level_source}: {level_text!r} is not one of {', '.join(LOG_LEVELS)}")

    grace_text, grace_source = _pick(args.grace, env, "OKEY_GRACE")
    grace = DEFAULT_GRACE_S
    if grace_text:
        try:
            grace = float(grace_text)
        except ValueError:
            parser.error(f"{grace_source}: {grace_text!r} is not a number of seconds")
        if not 0 <= grace <= 3600:
            parser.error(f"{grace_source}: {grace:g} is outside 0-3600 seconds")

    cert, key_pem, client_ca = _tls_files(parser, args, env)
    processes = _int(parser, _pick(args.processes, env, "OKEY_PROCESSES"), 1, 1, MAX_PROCESSES)
    metrics_text = _pick(args.metrics_port, env, "OKEY_METRICS_PORT")
    metrics_port = None if not metrics_text[0] else _int(parser, metrics_text, 0, 1, 65535)
    if metrics_port is not None and metrics_port == port:
        parser.error(f"{metrics_text[1]}: {metrics_port} is the gRPC port")
    health_text = _pick(args.health_port, env, "OKEY_HEALTH_PORT")
    health_port = None if not health_text[0] else _int(parser, health_text, 0, 0, 65535)
    if health_port is not None and health_port != 0 and health_port in (port, metrics_port):
        what = "gRPC" if health_port == port else "metrics"
        parser.error(f"{health_text[1]}: {health_port} is the {what} port")
    http_text = _pick(args.http_port, env, "OKEY_HTTP_PORT")
    http_port = None if not http_text[0] else _int(parser, http_text, 0, 0, 65535)
    if http_port and http_port in (port, metrics_port, health_port):
        what = {port: "gRPC", metrics_port: "metrics", health_port: "health"}[http_port]
        parser.error(f"{http_text[1]}: {http_port} is the {what} port")
    extra: _Settings = {
        "tls_cert": cert,
        "tls_key": key_pem,
        "tls_client_ca": client_ca,
        "processes": processes,
        "metrics_port": metrics_port,
        "max_concurrent_rpcs": _int(
            parser, _pick(args.max_concurrent_rpcs, env, "OKEY_MAX_CONCURRENT_RPCS"),
            DEFAULT_MAX_CONCURRENT_RPCS, 1, 100_000,
        ),
        "max_receive_bytes": _int(
            parser, _pick(args.max_receive_bytes, env, "OKEY_MAX_RECEIVE_BYTES"),
            DEFAULT_MAX_RECEIVE_BYTES, 1024, 64 * 1024 * 1024,
        ),
        "health_port": health_port,
        "max_streams_per_connection": _int(
            parser,
            _pick(args.max_streams_per_connection, env, "OKEY_MAX_STREAMS_PER_CONNECTION"),
            DEFAULT_MAX_STREAMS_PER_CONNECTION, 1, 100_000,
        ),
        "receive_timeout_s": _float(
            parser, _pick(args.receive_timeout, env, "OKEY_RECEIVE_TIMEOUT"),
            DEFAULT_RECEIVE_TIMEOUT_S, (0.1, 3600), "seconds",
        ),
        "max_connection_age_s": _float(
            parser, _pick(args.max_connection_age, env, "OKEY_MAX_CONNECTION_AGE"),
            DEFAULT_MAX_CONNECTION_AGE_S, (1, 86_400), "seconds",
        ),
        "http_port": http_port,
        "http_cors_origins": _cors_origins(parser, args.http_cors_origin, env),
    }

    key_text, key_source = _pick(args.signing_key, env, "OKEY_SIGNING_KEY")
    previous_text, previous_source = _pick(
        args.previous_signing_keys, env, "OKEY_PREVIOUS_SIGNING_KEYS"
    )
    if key_text is None:
        if previous_text:
            parser.error(f"{previous_source} needs a signing key (OKEY_SIGNING_KEY) to rotate to")
        return Config(host, port, level, grace, **extra)
    key = _signing_key(parser, key_text, key_source)
    previous = tuple(
        _signing_key(parser, text.strip(), f"{previous_source} (key {index + 1})")
        for index, text in enumerate((previous_text or "").split(","))
        if text.strip()
    )
    return Config(host, port, level, grace, key, False, previous, **extra)


def _signing_key(parser: argparse.ArgumentParser, text: str, source: str) -> bytes:
    key = parse_signing_key(text)
    if len(key) < MIN_SIGNING_KEY_BYTES:
        # Said without the key itself: the message may end up in a log.
        got = "is empty" if not key else f"is {len(key)} bytes"
        parser.error(
            f"{source} {got}; a signing key needs at least {MIN_SIGNING_KEY_BYTES} bytes "
            f"(for example 64 hex digits), or leave it unset for a random key per start"
        )
    return key


def _read_pem(parser: argparse.ArgumentParser, value: tuple[str | None, str]) -> bytes | None:
    path, source = value
    if not path:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        parser.error(f"{source}: cannot read {path}: {exc.strerror or exc}")
    if b"-----BEGIN " not in data:
        parser.error(f"{source}: {path} is not a PEM file")
    return data


def _tls_files(
    parser: argparse.ArgumentParser, args: argparse.Namespace, env: Mapping[str, str]
) -> tuple[bytes | None, bytes | None, bytes | None]:
    """The PEM contents of the TLS files, read now so a bad path stops the start (exit 2)."""
    cert_from = _pick(args.tls_cert, env, "OKEY_TLS_CERT")
    key_from = _pick(args.tls_key, env, "OKEY_TLS_KEY")
    ca_from = _pick(args.tls_client_ca, env, "OKEY_TLS_CLIENT_CA")
    if bool(cert_from[0]) != bool(key_from[0]):
        missing = key_from if cert_from[0] else cert_from
        given = cert_from if cert_from[0] else key_from
        parser.error(f"{given[1]} needs {missing[1]} too")
    if ca_from[0] and not cert_from[0]:
        parser.error(f"{ca_from[1]} (mutual TLS) needs --tls-cert and --tls-key")
    cert = _read_pem(parser, cert_from)
    key_pem = _read_pem(parser, key_from)
    client_ca = _read_pem(parser, ca_from)
    if cert is not None:
        _check_certificates(parser, cert_from, cert)
        _check_key(parser, cert_from, key_from)
    if client_ca is not None:
        _check_certificates(parser, ca_from, client_ca)
    return cert, key_pem, client_ca


def _check_certificates(
    parser: argparse.ArgumentParser, value: tuple[str | None, str], data: bytes
) -> None:
    """Refuses a PEM file with no certificate a TLS library can read (a key given as the
    certificate, a damaged file): gRPC would only say it cannot bind the port."""
    try:
        # A str is read as PEM (bytes would be DER).
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_verify_locations(
            cadata=data.decode("ascii", "replace")
        )
    except ssl.SSLError:
        parser.error(f"{value[1]}: {value[0]} holds no readable PEM certificate")


def _check_key(
    parser: argparse.ArgumentParser,
    cert_from: tuple[str | None, str],
    key_from: tuple[str | None, str],
) -> None:
    """Refuses a key that is unreadable, encrypted or not the certificate's own."""
    try:
        # An empty password: an encrypted key fails here instead of prompting on a terminal.
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(
            str(cert_from[0]), str(key_from[0]), password=b""
        )
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            parser.error(f"{key_from[1]}: {key_from[0]} is not the key of {cert_from[1]}")
        parser.error(
            f"{key_from[1]}: {key_from[0]} holds no readable unencrypted PEM private key"
        )


# An origin as browsers send it: scheme://host[:port], nothing after.
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+")


def _cors_origins(
    parser: argparse.ArgumentParser, flags: list[str] | None, env: Mapping[str, str]
) -> tuple[str, ...]:
    """The allowed browser origins: every --http-cors-origin, else OKEY_HTTP_CORS_ORIGINS'
    comma list; ``*`` allows any origin. A value that is no origin stops the start."""
    if flags:
        given, source = list(flags), "--http-cors-origin"
    else:
        given, source = (env.get("OKEY_HTTP_CORS_ORIGINS") or "").split(","), \
            "OKEY_HTTP_CORS_ORIGINS"
    origins: list[str] = []
    for text in (item.strip() for item in given):
        if not text:
            continue
        origin = text.rstrip("/")
        if origin != "*" and not _ORIGIN.fullmatch(origin):
            parser.error(f"{source}: {text!r} is not an origin (scheme://host[:port], or *)")
        if origin not in origins:
            origins.append(origin)
    return tuple(origins)
