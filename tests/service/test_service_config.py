"""Server config: flags over OKEY_* variables over defaults; bad values exit naming the source."""

from __future__ import annotations

import pytest
from okey_server.rpc.config import (
    DEFAULT_PORT,
    MIN_SIGNING_KEY_BYTES,
    SIGNING_KEY_BYTES,
    Config,
    load_config,
    parse_signing_key,
)


def test_defaults_serve_loopback_50051_with_a_generated_key() -> None:
    config = load_config([], {})
    assert (config.host, config.port, config.log_level) == ("127.0.0.1", DEFAULT_PORT, "info")
    assert config.signing_key_generated
    assert len(config.signing_key) == SIGNING_KEY_BYTES


def test_generated_keys_differ_between_starts() -> None:
    assert load_config([], {}).signing_key != load_config([], {}).signing_key


def test_environment_sets_every_option() -> None:
    env = {
        "OKEY_HOST": "0.0.0.0",
        "OKEY_PORT": "6000",
        "OKEY_LOG_LEVEL": "DEBUG",
        "OKEY_GRACE": "1.5",
        "OKEY_SIGNING_KEY": "a text secret of some length",
    }
    config = load_config([], env)
    assert (config.host, config.port, config.log_level, config.grace_s) == (
        "0.0.0.0", 6000, "debug", 1.5
    )
    assert config.signing_key == b"a text secret of some length"
    assert not config.signing_key_generated


def test_flags_win_over_environment() -> None:
    env = {"OKEY_HOST": "0.0.0.0", "OKEY_PORT": "6000", "OKEY_LOG_LEVEL": "error"}
    config = load_config(["--host", "::1", "--port", "0", "--log-level", "warning"], env)
    assert (config.host, config.port, config.log_level) == ("::1", 0, "warning")
    assert config.address == "[::1]:0"


@pytest.mark.parametrize(
    ("argv", "env", "named"),
    [
        pytest.param(["--port", "http"], {}, "--port", id="port-not-a-number"),
        pytest.param([], {"OKEY_PORT": "70000"}, "OKEY_PORT", id="port-above-65535"),
        pytest.param([], {"OKEY_LOG_LEVEL": "loud"}, "OKEY_LOG_LEVEL", id="unknown-log-level"),
        pytest.param(["--grace", "-1"], {}, "--grace", id="negative-grace"),
    ],
)
def test_bad_value_exits_2_naming_the_flag_or_variable(
    capsys: pytest.CaptureFixture[str], argv: list[str], env: dict[str, str], named: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        load_config(argv, env)
    assert exited.value.code == 2
    assert named in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "key"),
    [
        pytest.param("00" * 16, bytes(16), id="32-hex-digits-are-16-bytes"),
        pytest.param("DeadBeef" * 8, bytes.fromhex("deadbeef" * 8), id="hex-any-case"),
        pytest.param("deadbeef" * 3, b"deadbeef" * 3, id="short-hex-looking-text-is-text"),
        pytest.param("0" * 33, b"0" * 33, id="odd-hex-digit-count-is-text"),
        pytest.param("correct horse battery staple", b"correct horse battery staple", id="text"),
    ],
)
def test_signing_key_is_hex_when_it_reads_as_32_or_more_hex_digits(text: str, key: bytes) -> None:
    assert parse_signing_key(text) == key


def test_signing_key_never_appears_in_repr() -> None:
    config = Config(signing_key=b"top-secret-key", signing_key_generated=False)
    assert "top-secret" not in repr(config)


@pytest.mark.parametrize(
    ("argv", "env", "named"),
    [
        pytest.param([], {"OKEY_SIGNING_KEY": ""}, "OKEY_SIGNING_KEY", id="empty-variable"),
        pytest.param(["--signing-key", ""], {}, "--signing-key", id="empty-flag"),
        pytest.param([], {"OKEY_SIGNING_KEY": "s" * 15}, "OKEY_SIGNING_KEY", id="15-bytes-text"),
        pytest.param(["--signing-key", "hunter2"], {"OKEY_SIGNING_KEY": "k" * 40}, "--signing-key",
                     id="short-flag-over-good-variable"),
    ],
)
def test_a_signing_key_shorter_than_16_bytes_or_empty_is_refused_at_start(
    capsys: pytest.CaptureFixture[str], argv: list[str], env: dict[str, str], named: str
) -> None:
    """A short secret is guessable, and every state MAC and seed commitment rests on it."""
    with pytest.raises(SystemExit) as exited:
        load_config(argv, env)
    assert exited.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert named in message
    assert str(MIN_SIGNING_KEY_BYTES) in message
    assert "hunter2" not in message  # the key itself is never printed


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("s" * MIN_SIGNING_KEY_BYTES, id="16-bytes-text"),
        pytest.param("00" * MIN_SIGNING_KEY_BYTES, id="32-hex-digits"),
    ],
)
def test_a_signing_key_of_16_bytes_is_accepted(text: str) -> None:
    config = load_config([], {"OKEY_SIGNING_KEY": text})
    assert len(config.signing_key) == MIN_SIGNING_KEY_BYTES
    assert not config.signing_key_generated
