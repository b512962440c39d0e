"""The Node client is a self-contained npm package: `npm pack` bundles the okey.v1 protos,
and the tarball installed into an empty folder calls a live okey-server with them.

The package is packed from a copy of the client, proto/ and LICENSE (the prepack
script copies the protos next to the sources, postpack removes them), so the
shared checkout is never written to. The install takes its dependencies from
npm's cache when it can (--prefer-offline) and from the registry otherwise.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_NAME = "okey-rules-client"
PROTOS = sorted(p.name for p in (ROOT / "proto" / "okey" / "v1").glob("*.proto"))
SERVICES = sorted(
    f"okey.v1.{name}"
    for proto in (ROOT / "proto" / "okey" / "v1").glob("*.proto")
    for name in re.findall(r"^service (\w+)", proto.read_text(), flags=re.MULTILINE)
)
# A bound for npm or node to finish (the install may reach the registry), not a timing assertion.
STEP_DEADLINE_S = 300

# Run from the folder the tarball was installed into: imports the package by
# name, says where its contract came from, judges a hand, and decodes a refusal
# (google.rpc details, read with the bundled proto-extra files).
CALLER = """
import { OkeyClient, OkeyError, DEFAULT_PROTO_DIR } from 'okey-rules-client';

const client = new OkeyClient(process.env.OKEY_SERVER);
const out = { protoDir: DEFAULT_PROTO_DIR, services: client.services() };
try {
  const verdict = await client.checkHand({
    handNotation: 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5',
    indicatorNotation: 'R4',
    omitArrangements: true,
  });
  out.winning = verdict.winning;
  out.kind = verdict.kind;
  out.okey = verdict.okey && `${verdict.okey.color} ${verdict.okey.number}`;
  try {
    await client.checkHand({ handNotation: 'R1 R2 Q9', indicatorNotation: 'R4' });
    out.refused = null;
  } catch (err) {
    if (!(err instanceof OkeyError)) throw err;
    const fields = err.fieldViolations.map((v) => v.field);
    out.refused = { code: err.codeName, reason: err.reason, fields };
  }
} finally {
  client.close();
}
console.log(JSON.stringify(out));
"""


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not on PATH (the Node client needs Node 20 and npm)")
    return found


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=STEP_DEADLINE_S,
        check=False,
    )
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the tarball, the copy of the repository it was packed from)."""
    npm = _tool("npm")
    _tool("node")
    base = tmp_path_factory.mktemp("node-package")
    repo = base / "repo"
    listed = _run(
        "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
        "clients/node", "proto", "LICENSE", cwd=ROOT,
    )  # fmt: skip
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    out = _run(npm, "pack", "--pack-destination", base, cwd=repo / "clients" / "node")
    return base / out.strip().splitlines()[-1], repo


@pytest.fixture(scope="module")
def app(packed: tuple[Path, Path]) -> Path:
    """An empty folder with the tarball installed."""
    tarball, _ = packed
    folder = tarball.parent / "app"
    folder.mkdir()
    _run(
        _tool("npm"), "install", "--prefer-offline", "--no-audit", "--no-fund", "--no-save",
        tarball, cwd=folder,
    )  # fmt: skip
    return folder


def test_tarball_bundles_every_okey_v1_proto_and_the_rpc_details(packed):
    tarball, _ = packed
    with tarfile.open(tarball) as archive:
        names = set(archive.getnames())
    for proto in PROTOS:
        assert f"package/proto/okey/v1/{proto}" in names
    assert "package/proto-extra/google/rpc/error_details.proto" in names
    assert "package/proto-extra/google/rpc/status.proto" in names
    assert {"package/LICENSE", "package/src/index.js", "package/src/index.d.ts"} <= names
    # Only what the client needs at run time: no tests, no build scripts.
    assert not any(name.startswith(("package/test/", "package/scripts/")) for name in names)


def test_packing_leaves_no_bundled_copy_in_the_source_tree(packed):
    # A copy left behind would shadow the repository's proto/ in the checkout.
    _, repo = packed
    assert not (repo / "clients" / "node" / "proto").exists()
    assert not (repo / "clients" / "node" / "LICENSE").exists()


def test_installed_package_calls_a_live_server_with_its_bundled_protos(app, start_server_process):
    server = start_server_process("--host", "127.0.0.1", "--port", "0")
    (app / "caller.mjs").write_text(CALLER)
    env = _clean_env() | {"OKEY_SERVER": server.address}
    answer = json.loads(_run(_tool("node"), "caller.mjs", cwd=app, env=env))
    bundled = app / "node_modules" / PACKAGE_NAME / "proto"
    assert Path(answer["protoDir"]).resolve() == bundled.resolve()
    assert answer["services"] == SERVICES
    assert answer["winning"] is True
    assert answer["kind"] == "WIN_KIND_MELDS"
    assert answer["okey"] == "COLOR_RED 5"
    assert answer["refused"] == {
        "code": "INVALID_ARGUMENT",
        "reason": "ERROR_REASON_INVALID_TILES",
        "fields": ["hand_notation"],
    }


def test_client_in_a_checkout_reads_the_repository_protos(packed, app):
    # No bundled copy next to the sources: the default falls back to proto/ of the repository.
    _, repo = packed
    client = repo / "clients" / "node"
    # The dependencies the installed package resolved serve the copy's sources too.
    (client / "node_modules").symlink_to(app / "node_modules", target_is_directory=True)
    script = "import('./src/contract.js').then((m) => console.log(m.DEFAULT_PROTO_DIR))"
    proto_dir = _run(_tool("node"), "-e", script, cwd=client).strip()
    assert Path(proto_dir).resolve() == (repo / "proto").resolve()
