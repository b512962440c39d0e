"""The HTTP listener's options (issue 26): off by default; --http-port / OKEY_HTTP_PORT
(0 = any free port); CORS origins from repeated --http-cors-origin flags or a comma list in
OKEY_HTTP_CORS_ORIGINS; a bad value stops the start naming the flag or variable."""

from __future__ import annotations

import pytest
from okey_server.rpc.config import load_config


def test_off_by_default_with_no_origins() -> None:
    config = load_config([], env={})
    assert config.http_port is None
    assert config.http_cors_origins == ()


def test_port_from_flag_or_variable_flag_wins() -> None:
    assert load_config(["--http-port", "8080"], env={}).http_port == 8080
    assert load_config([], env={"OKEY_HTTP_PORT": "0"}).http_port == 0
    assert load_config(["--http-port", "8081"], env={"OKEY_HTTP_PORT": "8080"}).http_port == 8081


def test_origins_repeatable_or_comma_separated() -> None:
    flags = ["--http-cors-origin", "https://table.example/", "--http-cors-origin",
             "http://127.0.0.1:5173"]
    assert load_config(flags, env={}).http_cors_origins == (
        "https://table.example", "http://127.0.0.1:5173")
    env = {"OKEY_HTTP_CORS_ORIGINS": "https://a.example, *,"}
    assert load_config([], env=env).http_cors_origins == ("https://a.example", "*")
    # Flags win over the variable.
    assert load_config(["--http-cors-origin", "https://b.example"], env=env
                       ).http_cors_origins == ("https://b.example",)


@pytest.mark.parametrize(("argv", "env", "named"), [
    (["--http-port", "50051"], {}, "--http-port: 50051 is the gRPC port"),
    (["--http-port", "9100", "--metrics-port", "9100"], {}, "is the metrics port"),
    ([], {"OKEY_HTTP_PORT": "http"}, "OKEY_HTTP_PORT"),
    (["--http-port", "70000"], {}, "--http-port"),
    (["--http-cors-origin", "table.example"], {}, "--http-cors-origin"),
    ([], {"OKEY_HTTP_CORS_ORIGINS": "https://a.example/page"}, "OKEY_HTTP_CORS_ORIGINS"),
])
def test_bad_values_exit_2_naming_the_source(argv, env, named, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        load_config(argv, env=env)
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err
