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
DEFAULT_GRACE_S = 5.0
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
        "--log-level", help=f"one of {', '.join(LOG_LEVELS)} (OKEY_LOG_LEVEL, default info)"
    )
    parser.add_argument(
        "--grace",
        help=f"seconds in-flight RPCs get on SIGTERM (OKEY_GRACE, default {DEFAULT_GRACE_S:g})",
    )
    parser.add_argument(
        "--signing-key",
        help="secret for state MACs and seed commitments, hex or text (OKEY_SIGNING_KEY; "
        f"prefer the variable: flags show in `ps`); at least {MIN_SIGNING_KEY_BYTES} bytes. "
        "Unset: a random key per start",
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

    key_text, key_source = _pick(args.signing_key, env, "OKEY_SIGNING_KEY")
    if key_text is None:
        return Config(host, port, level, grace)
    key = parse_signing_key(key_text)
    if len(key) < MIN_SIGNING_KEY_BYTES:
        # Said without the key itself: the message may end up in a log.
        got = "is empty" if not key else f"is {len(key)} bytes"
        parser.error(
            f"{key_source} {got}; a signing key needs at least {MIN_SIGNING_KEY_BYTES} bytes "
            f"(for example 64 hex digits), or leave it unset for a random key per start"
        )
    return Config(host, port, level, grace, key, False)
