"""Server configuration from command-line flags and OKEY_* environment variables."""

from __future__ import annotations

import argparse
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

LOG_LEVELS = ("debug", "info", "warning", "error")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
# Handlers are CPU-bound Python: run on the event-loop thread they cost the
# least (bench/rpc_bench.py); threads only add GIL handoffs. Scale with
# processes instead (DESIGN.md).
DEFAULT_WORKERS = 1
DEFAULT_GRACE_S = 5.0
SIGNING_KEY_BYTES = 32
# A secret of at least this many hex digits is read as hex, anything else as text.
_HEX_KEY = re.compile(r"(?:[0-9a-fA-F]{2}){16,}")


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the server needs to start; flags override the environment."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    workers: int = DEFAULT_WORKERS
    log_level: str = "info"
    grace_s: float = DEFAULT_GRACE_S
    # The MAC and seed-commitment key. Kept out of repr so it never reaches a log.
    signing_key: bytes = field(default_factory=lambda: secrets.token_bytes(SIGNING_KEY_BYTES),
                               repr=False)
    # True when no key was configured and `signing_key` is a fresh random one.
    signing_key_generated: bool = True

    @property
    def address(self) -> str:
        """``host:port`` as grpc wants it (IPv6 literals in brackets)."""
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"


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
        "--workers",
        help="request handler threads; 1 runs handlers on the event-loop thread "
        f"(OKEY_WORKERS, default {DEFAULT_WORKERS})",
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
        help="secret for state MACs and seed commitments, hex or text (OKEY_SIGNING_KEY; "
        "prefer the variable: flags show in `ps`). Unset: a random key per start",
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


def load_config(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Reads flags (`argv`, default sys.argv[1:]) over `env` (default os.environ).

    Bad values exit with status 2 and a one-line message naming the flag or variable.
    """
    env = os.environ if env is None else env
    parser = _parser()
    args = parser.parse_args(argv)

    host = _pick(args.host, env, "OKEY_HOST")[0] or DEFAULT_HOST
    port = _int(parser, _pick(args.port, env, "OKEY_PORT"), DEFAULT_PORT, 0, 65535)
    workers = _int(parser, _pick(args.workers, env, "OKEY_WORKERS"), DEFAULT_WORKERS, 1, 1024)

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

    key_text = _pick(args.signing_key, env, "OKEY_SIGNING_KEY")[0]
    if key_text:
        return Config(host, port, workers, level, grace, parse_signing_key(key_text), False)
    return Config(host, port, workers, level, grace)
