"""The Node.js client's suite (`npm test`), with the conformance vectors, against okey-server."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
import tls_certs
from okey_cli import conformance

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NODE_CLIENT = ROOT / "clients" / "node"
# Bounds for npm to finish, not timing assertions: `npm ci` may hit the registry.
INSTALL_DEADLINE_S = 600
TEST_DEADLINE_S = 300
SUMMARY = re.compile(r"conformance \(node client, [^)]*\): (\d+) passed, (\d+) failed")
# node --test's closing count of skipped tests.
SKIPPED = re.compile(r"^# skipped (\d+)$", re.MULTILINE)


def _npm() -> str:
    if shutil.which("node") is None:
        pytest.skip("node is not on PATH (the Node client needs Node 20 and npm)")
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not on PATH (the Node client needs Node 20 and npm)")
    return npm


def _installed() -> bool:
    """node_modules matches package-lock.json (npm writes its own copy on install)."""
    installed_lock = NODE_CLIENT / "node_modules" / ".package-lock.json"
    lock = NODE_CLIENT / "package-lock.json"
    return installed_lock.exists() and installed_lock.stat().st_mtime >= lock.stat().st_mtime


@pytest.fixture(scope="module")
def npm() -> str:
    npm = _npm()
    if not _installed():
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=NODE_CLIENT,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=INSTALL_DEADLINE_S,
            check=False,
        )
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return npm


def test_node_client_suite_passes_every_vector_against_okey_server(npm, start_server_process):
    server = start_server_process("--host", "127.0.0.1", "--port", "0")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["OKEY_SERVER"] = server.address
    result = subprocess.run(
        [npm, "test"],
        cwd=NODE_CLIENT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=TEST_DEADLINE_S,
        check=False,
    )
    output = result.stdout + result.stderr
    failures = [line for line in output.splitlines() if line.lstrip().startswith("not ok")]
    report = "\n".join([*failures, output[-6000:]])
    assert result.returncode == 0, f"npm test failed:\n{report}"
    summary = SUMMARY.search(output)
    assert summary, f"the conformance suite did not run:\n{output[-3000:]}"
    passed, failed = int(summary.group(1)), int(summary.group(2))
    # Every case of every vector file ran, the GameService ones (given_state) included.
    assert passed == len(conformance.load_dir(ROOT / "tests" / "conformance"))
    assert failed == 0
    # The live tests run against this server, which serves every service: none may skip.
    skipped = SKIPPED.search(output)
    assert skipped, f"no closing count of skipped tests:\n{output[-3000:]}"
    assert skipped.group(1) == "0"
    # The server drains and exits cleanly on SIGTERM after serving the client.
    assert server.stop(signal.SIGTERM) == 0


# node --test's result line of one test: "ok 4 - TLS: ..." or "not ok 4 - ...".
RESULT = re.compile(r"^(not ok|ok) \d+ - (.*)$", re.MULTILINE)


def test_node_client_over_tls_and_mutual_tls_against_okey_server(npm, start_server_process):
    """test/tls.test.js against okey-server with the test certificates (tests/tls_certs.py):
    one server with TLS, one with mutual TLS; the paths and addresses go by variables."""
    certs = tls_certs.certificates()
    served = ("--host", "127.0.0.1", "--port", "0",
              "--tls-cert", str(certs.server_cert), "--tls-key", str(certs.server_key))
    tls_server = start_server_process(*served)
    mtls_server = start_server_process(*served, "--tls-client-ca", str(certs.ca))
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env.update({
        "OKEY_TEST_TLS_DIR": str(certs.directory),
        "OKEY_TEST_TLS_SERVER": tls_server.address,
        "OKEY_TEST_MTLS_SERVER": mtls_server.address,
        "OKEY_TEST_TLS_SERVER_NAME": tls_certs.SERVER_ALT_NAME,
    })
    node = shutil.which("node")
    assert node is not None  # the npm fixture skips without it
    result = subprocess.run(
        [node, "--test", "test/tls.test.js"],
        cwd=NODE_CLIENT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=TEST_DEADLINE_S,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"node --test test/tls.test.js failed:\n{output[-6000:]}"
    results = RESULT.findall(output)
    assert all(verdict == "ok" for verdict, _ in results), output[-6000:]
    # The live tests were defined (the variables reached them), not only the offline ones.
    names = [name for _, name in results]
    assert any(name.startswith("TLS: ") for name in names), names
    assert any(name.startswith("mutual TLS: ") for name in names), names
    skipped = SKIPPED.search(output)
    assert skipped, output[-3000:]
    assert skipped.group(1) == "0"
    for server in (tls_server, mtls_server):
        assert server.stop(signal.SIGTERM) == 0
