"""The limits' flags (issue 23): each has its OKEY_* variable, flags win, and a bad value
stops the start with exit 2 and a message naming the flag or variable."""

from __future__ import annotations

import pytest
from okey_server.rpc.config import (
    DEFAULT_MAX_CONNECTION_AGE_S,
    DEFAULT_MAX_STREAMS_PER_CONNECTION,
    DEFAULT_RECEIVE_TIMEOUT_S,
    load_config,
)

FLAGS = (
    ("--health-port", "OKEY_HEALTH_PORT", "50052", "health_port", 50052),
    ("--max-streams-per-connection", "OKEY_MAX_STREAMS_PER_CONNECTION", "8",
     "max_streams_per_connection", 8),
    ("--receive-timeout", "OKEY_RECEIVE_TIMEOUT", "2.5", "receive_timeout_s", 2.5),
    ("--max-connection-age", "OKEY_MAX_CONNECTION_AGE", "120", "max_connection_age_s", 120.0),
)


def test_defaults() -> None:
    config = load_config([], env={})
    assert config.health_port is None
    assert config.max_streams_per_connection == DEFAULT_MAX_STREAMS_PER_CONNECTION == 32
    assert config.receive_timeout_s == DEFAULT_RECEIVE_TIMEOUT_S == 10.0
    assert config.max_connection_age_s == DEFAULT_MAX_CONNECTION_AGE_S == 30.0


@pytest.mark.parametrize(("flag", "variable", "text", "field", "value"), FLAGS)
def test_flag_and_variable(flag: str, variable: str, text: str, field: str, value: object) -> None:
    assert getattr(load_config([flag, text], env={}), field) == value
    assert getattr(load_config([], env={variable: text}), field) == value
    # The flag wins over the variable.
    assert getattr(load_config([flag, text], env={variable: "3"}), field) == value


@pytest.mark.parametrize(
    ("argv", "env", "named"),
    [
        (["--health-port", "x"], {}, "--health-port: 'x' is not a whole number"),
        ([], {"OKEY_HEALTH_PORT": "70000"}, "OKEY_HEALTH_PORT: 70000 is outside 0-65535"),
        (["--port", "5000", "--health-port", "5000"], {}, "--health-port: 5000 is the gRPC port"),
        (["--metrics-port", "5001", "--health-port", "5001"], {},
         "--health-port: 5001 is the metrics port"),
        (["--max-streams-per-connection", "0"], {}, "--max-streams-per-connection: 0 is outside"),
        (["--receive-timeout", "soon"], {}, "--receive-timeout: 'soon' is not a number of seconds"),
        ([], {"OKEY_RECEIVE_TIMEOUT": "nan"}, "OKEY_RECEIVE_TIMEOUT: nan is outside 0.1-3600"),
        (["--max-connection-age", "0.5"], {}, "--max-connection-age: 0.5 is outside 1-86400"),
    ],
)
def test_bad_values_name_the_flag(argv, env, named, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        load_config(argv, env=env)
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err
