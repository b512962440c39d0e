"""okey-server's TLS flags: files read at start, and every bad combination or file exits 2
naming the flag or variable at fault."""

from __future__ import annotations

from pathlib import Path

import pytest
import tls_certs
from okey_server.rpc.config import load_config


@pytest.fixture(scope="module")
def certs() -> tls_certs.TlsFiles:
    return tls_certs.certificates()


def test_no_tls_flag_is_plaintext() -> None:
    config = load_config([], {})
    assert (config.tls, config.mutual_tls, config.transport) == (False, False, "plaintext")
    assert config.tls_cert is config.tls_key is config.tls_client_ca is None


def test_cert_and_key_are_read_at_start_and_turn_tls_on(certs: tls_certs.TlsFiles) -> None:
    config = load_config(
        ["--tls-cert", str(certs.server_cert), "--tls-key", str(certs.server_key)], {}
    )
    assert (config.tls, config.mutual_tls, config.transport) == (True, False, "tls")
    assert config.tls_cert == certs.read("server_cert")
    assert config.tls_key == certs.read("server_key")


def test_client_ca_turns_mutual_tls_on_from_the_environment(certs: tls_certs.TlsFiles) -> None:
    env = {
        "OKEY_TLS_CERT": str(certs.server_cert),
        "OKEY_TLS_KEY": str(certs.server_key),
        "OKEY_TLS_CLIENT_CA": str(certs.ca),
    }
    config = load_config([], env)
    assert (config.tls, config.mutual_tls, config.transport) == (True, True, "mutual-tls")
    assert config.tls_client_ca == certs.read("ca")


def test_a_flag_wins_over_its_variable(certs: tls_certs.TlsFiles, tmp_path: Path) -> None:
    env = {"OKEY_TLS_CERT": str(tmp_path / "absent.pem"), "OKEY_TLS_KEY": str(certs.server_key)}
    config = load_config(["--tls-cert", str(certs.server_cert)], env)
    assert config.tls_cert == certs.read("server_cert")


def test_key_material_stays_out_of_the_repr(certs: tls_certs.TlsFiles) -> None:
    config = load_config(
        ["--tls-cert", str(certs.server_cert), "--tls-key", str(certs.server_key)], {}
    )
    assert "PRIVATE KEY" not in repr(config)
    assert "tls_key" not in repr(config)


def _exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], env: dict[str, str]) -> str:
    with pytest.raises(SystemExit) as exited:
        load_config(argv, env)
    assert exited.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "env", "named", "needs"),
    [
        pytest.param(["--tls-cert", "{server_cert}"], {}, "--tls-cert", "OKEY_TLS_KEY",
                     id="cert-without-key"),
        pytest.param(["--tls-key", "{server_key}"], {}, "--tls-key", "OKEY_TLS_CERT",
                     id="key-without-cert"),
        pytest.param([], {"OKEY_TLS_CERT": "{server_cert}"}, "OKEY_TLS_CERT", "OKEY_TLS_KEY",
                     id="cert-variable-without-key"),
        pytest.param(["--tls-client-ca", "{ca}"], {}, "--tls-client-ca", "--tls-cert",
                     id="client-ca-without-cert"),
        pytest.param([], {"OKEY_TLS_CLIENT_CA": "{ca}"}, "OKEY_TLS_CLIENT_CA", "--tls-cert",
                     id="client-ca-variable-without-cert"),
    ],
)
def test_an_incomplete_tls_setting_exits_2_naming_what_is_missing(
    capsys: pytest.CaptureFixture[str], certs: tls_certs.TlsFiles,
    argv: list[str], env: dict[str, str], named: str, needs: str,
) -> None:
    paths = {name: str(getattr(certs, name)) for name in ("server_cert", "server_key", "ca")}
    message = _exits_2(
        capsys,
        [arg.format(**paths) for arg in argv],
        {key: value.format(**paths) for key, value in env.items()},
    )
    assert message.startswith(f"okey-server: error: {named} ")
    assert needs in message


def _bad_files(certs: tls_certs.TlsFiles, directory: Path) -> dict[str, Path]:
    not_pem = directory / "not-pem.txt"
    not_pem.write_text("this is no certificate\n")
    damaged = directory / "damaged.pem"
    damaged.write_text("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
    unreadable = directory / "unreadable"
    unreadable.mkdir()  # reading a directory fails whoever runs the tests (root too)
    return {
        "missing": directory / "missing.pem",
        "unreadable": unreadable,
        "not-pem": not_pem,
        "damaged": damaged,
        "server_key": certs.server_key,
        "server_cert": certs.server_cert,
        "client_key": certs.client_key,
    }


@pytest.mark.parametrize(
    ("flag", "bad", "says"),
    [
        pytest.param("--tls-cert", "missing", "cannot read", id="cert-missing"),
        pytest.param("--tls-cert", "unreadable", "cannot read", id="cert-unreadable"),
        pytest.param("--tls-cert", "not-pem", "not a PEM file", id="cert-not-pem"),
        pytest.param("--tls-cert", "damaged", "no readable PEM certificate", id="cert-damaged"),
        pytest.param("--tls-cert", "server_key", "no readable PEM certificate",
                     id="cert-given-a-key"),
        pytest.param("--tls-key", "missing", "cannot read", id="key-missing"),
        pytest.param("--tls-key", "not-pem", "not a PEM file", id="key-not-pem"),
        pytest.param("--tls-key", "server_cert", "no readable unencrypted PEM private key",
                     id="key-given-a-certificate"),
        pytest.param("--tls-key", "client_key", "is not the key of --tls-cert",
                     id="key-of-another-certificate"),
        pytest.param("--tls-client-ca", "unreadable", "cannot read", id="client-ca-unreadable"),
        pytest.param("--tls-client-ca", "not-pem", "not a PEM file", id="client-ca-not-pem"),
        pytest.param("--tls-client-ca", "server_key", "no readable PEM certificate",
                     id="client-ca-given-a-key"),
    ],
)
def test_a_bad_tls_file_exits_2_naming_the_flag(
    capsys: pytest.CaptureFixture[str], certs: tls_certs.TlsFiles, tmp_path: Path,
    flag: str, bad: str, says: str,
) -> None:
    # A good, complete mutual-TLS setting with one file replaced by a bad one.
    files = {
        "--tls-cert": str(certs.server_cert),
        "--tls-key": str(certs.server_key),
        "--tls-client-ca": str(certs.ca),
    }
    files[flag] = str(_bad_files(certs, tmp_path)[bad])
    message = _exits_2(capsys, [arg for pair in files.items() for arg in pair], {})
    assert message.startswith(f"okey-server: error: {flag}: ")
    assert files[flag] in message
    assert says in message


def test_an_encrypted_key_exits_2_instead_of_asking_for_a_password(
    capsys: pytest.CaptureFixture[str], certs: tls_certs.TlsFiles, tmp_path: Path
) -> None:
    encrypted = tmp_path / "encrypted.key"
    tls_certs.encrypt_key(certs.server_key, encrypted, "a passphrase")
    message = _exits_2(
        capsys, ["--tls-cert", str(certs.server_cert), "--tls-key", str(encrypted)], {}
    )
    assert message == (
        f"okey-server: error: --tls-key: {encrypted} holds no readable unencrypted PEM private key"
    )
