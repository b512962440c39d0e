"""Throwaway certificates for the TLS tests, made with the `openssl` command once per session.

`certificates()` returns the same set every time it is called in a process:
a CA, a server certificate it signed for 127.0.0.1, localhost and
SERVER_ALT_NAME, a client certificate it signed, and a client certificate
signed by a second, unrelated CA. Keys are P-256 (fast to make) and
unencrypted; everything is valid for two days and deleted at exit.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# A name only the server certificate carries: a client that connects by IP
# and checks this name proves that the server-name override is used.
SERVER_ALT_NAME = "okey.test"
# A bound for openssl, not a timing assertion.
OPENSSL_DEADLINE_S = 30.0
_CURVE = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """Paths of the PEM files; `*_key` are the private keys of the same-named certificate."""

    directory: Path
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    # Signed by `other_ca`, which the server does not trust.
    stranger_cert: Path
    stranger_key: Path
    other_ca: Path

    def read(self, name: str) -> bytes:
        """The bytes of one of the files above, by field name (``"server_cert"``)."""
        path: Path = getattr(self, name)
        return path.read_bytes()


def _openssl(*args: str, cwd: Path) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("the TLS tests need the openssl command (Debian: package openssl)")
    result = subprocess.run(
        [openssl, *args], cwd=cwd, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=OPENSSL_DEADLINE_S, check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args)} failed:\n{result.stderr}")


def _ca(directory: Path, name: str) -> None:
    _openssl(
        "req", "-x509", *_CURVE, "-keyout", f"{name}.key", "-out", f"{name}.pem",
        "-days", "2", "-subj", f"/CN=okey-rules test {name}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=directory,
    )


def _leaf(directory: Path, name: str, ca: str, serial: int, extensions: str) -> None:
    """A key and a certificate `ca` signed, with `extensions` (openssl x509v3 config lines)."""
    (directory / f"{name}.ext").write_text(extensions)
    _openssl(
        "req", "-new", *_CURVE, "-keyout", f"{name}.key", "-out", f"{name}.csr",
        "-subj", f"/CN=okey-rules test {name}", cwd=directory,
    )
    _openssl(
        "x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
        "-set_serial", str(serial), "-days", "2",
        "-extfile", f"{name}.ext", "-out", f"{name}.pem",
        cwd=directory,
    )


def make_certificates(directory: Path) -> TlsFiles:
    """Writes a fresh set of certificates into `directory` (which must exist)."""
    _ca(directory, "ca")
    _ca(directory, "other-ca")
    leaf = "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
    _leaf(
        directory, "server", "ca", 1,
        leaf + "extendedKeyUsage=serverAuth\n"
        f"subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:{SERVER_ALT_NAME}\n",
    )
    _leaf(directory, "client", "ca", 2, leaf + "extendedKeyUsage=clientAuth\n")
    _leaf(directory, "stranger", "other-ca", 1, leaf + "extendedKeyUsage=clientAuth\n")
    return TlsFiles(
        directory=directory,
        ca=directory / "ca.pem",
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
        stranger_cert=directory / "stranger.pem",
        stranger_key=directory / "stranger.key",
        other_ca=directory / "other-ca.pem",
    )


def encrypt_key(key: Path, out: Path, passphrase: str) -> None:
    """Writes `key` to `out` encrypted with `passphrase` (AES-128)."""
    _openssl(
        "pkey", "-in", str(key), "-out", str(out), "-aes128", "-passout", f"pass:{passphrase}",
        cwd=out.parent,
    )


@functools.cache
def certificates() -> TlsFiles:
    """The session's one set of certificates, made on first use."""
    directory = Path(tempfile.mkdtemp(prefix="okey-tls-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return make_certificates(directory)
