"""The TypeScript client (clients/ts): generated code current, typed end to end, every
conformance vector through it over gRPC and over the HTTP listener, and packable."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from okey_cli import conformance

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TS_CLIENT = ROOT / "clients" / "ts"
TYPING = TS_CLIENT / "test" / "typing"
# Bounds for npm and tsc to finish, not timing assertions: `npm ci` may hit the registry.
INSTALL_DEADLINE_S = 600
STEP_DEADLINE_S = 180
# A bad file's first line names the one error tsc must report for it.
EXPECTED_ERROR = re.compile(r"^// Must fail tsc with (TS\d+) ")
TSC_ERROR = re.compile(r"^(?P<file>[^(\s]+)\(\d+,\d+\): error (?P<code>TS\d+):", re.MULTILINE)
README_BLOCK = re.compile(r"^```ts\n(.*?)^```", re.MULTILINE | re.DOTALL)
SUMMARY = re.compile(
    r"^conformance \(ts client, ([^)]*)\): (\d+) passed, (\d+) failed$", re.MULTILINE
)
TOTAL = re.compile(r"^(\d+) passed, (\d+) failed$", re.MULTILINE)


def _run(command: list[str], timeout: float = STEP_DEADLINE_S, **kwargs: object):
    return subprocess.run(
        command,
        cwd=TS_CLIENT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        check=False,
        **kwargs,
    )


def _installed() -> bool:
    """node_modules matches package-lock.json (npm writes its own copy on install)."""
    installed_lock = TS_CLIENT / "node_modules" / ".package-lock.json"
    lock = TS_CLIENT / "package-lock.json"
    return installed_lock.exists() and installed_lock.stat().st_mtime >= lock.stat().st_mtime


@pytest.fixture(scope="module")
def node() -> str:
    """node, after `npm ci` when node_modules is missing or older than the lock file."""
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node or npm is not on PATH (the TypeScript client needs Node 20 and npm)")
    if not _installed():
        result = _run([npm, "ci", "--no-audit", "--no-fund"], timeout=INSTALL_DEADLINE_S)
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return node


@pytest.fixture(scope="module")
def tsc(node: str) -> list[str]:
    return [node, str(TS_CLIENT / "node_modules" / "typescript" / "bin" / "tsc")]


@pytest.fixture(scope="module")
def built(tsc: list[str]) -> Path:
    """clients/ts/dist, compiled from src/ by the package's own build (tsc -p tsconfig.json)."""
    result = _run([*tsc, "-p", "tsconfig.json"])
    assert result.returncode == 0, f"tsc build failed:\n{result.stdout}\n{result.stderr}"
    return TS_CLIENT / "dist"


def _typing_config(directory: Path, files: list[Path]) -> Path:
    """A tsconfig for `files` with the typing test's settings (the package's names
    resolved to src/), wherever the files are."""
    config = directory / "tsconfig.json"
    config.write_text(json.dumps({
        "extends": str(TS_CLIENT / "tsconfig.typing.json"),
        "compilerOptions": {
            "rootDir": "/",
            "typeRoots": [str(TS_CLIENT / "node_modules" / "@types")],
        },
        "include": [],
        "files": [str(f) for f in files],
    }))
    return config


def _tsc_errors(output: str) -> dict[str, list[str]]:
    """tsc's error codes by the file name they were reported in."""
    errors: dict[str, list[str]] = {}
    for match in TSC_ERROR.finditer(output):
        errors.setdefault(Path(match["file"]).name, []).append(match["code"])
    return errors


def test_committed_generated_code_is_what_the_protos_generate(node, tmp_path):
    """src/gen/ is committed so the package builds without protoc: it must be what
    `npm run generate` writes from proto/okey/v1 now, byte for byte."""
    fresh = tmp_path / "gen"
    result = _run(
        [node, "scripts/generate.mjs", "--out", str(fresh)], env={"OKEY_PYTHON": sys.executable}
    )
    assert result.returncode == 0, f"generate failed:\n{result.stdout}\n{result.stderr}"
    committed = TS_CLIENT / "src" / "gen"
    files = sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    regenerated = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    assert files == regenerated, "run `npm run generate` in clients/ts (the set of files differs)"
    _, mismatch, errors = filecmp.cmpfiles(committed, fresh, [str(f) for f in files], shallow=False)
    assert not mismatch, f"run `npm run generate` in clients/ts: {mismatch}"
    assert not errors, errors


def test_typed_usage_and_every_readme_example_type_check(tsc, tmp_path):
    """test/typing/good.ts and each ```ts block of clients/ts/README.md compile with
    strict tsc against the package's entry points, so the docs cannot drift."""
    blocks = README_BLOCK.findall((TS_CLIENT / "README.md").read_text())
    assert len(blocks) >= 4, "the README's TypeScript examples went missing"
    files = [TYPING / "good.ts"]
    for index, block in enumerate(blocks):
        # .mts: each block is an ES module (top-level await), as in a bundler or Node ESM.
        path = tmp_path / f"readme-{index}.mts"
        path.write_text(block)
        files.append(path)
    result = _run([*tsc, "-p", str(_typing_config(tmp_path, files)), "--pretty", "false"])
    assert result.returncode == 0, f"tsc refused code that must compile:\n{result.stdout}"


def test_unknown_fields_and_enum_values_fail_tsc(tsc, tmp_path):
    """Each test/typing/bad-*.ts (an unknown request field, MOVE_KIND_DISCARDX as an
    enum member and in proto3 JSON, a string for an enum, an unknown oneof member, an
    unknown response field) fails tsc with exactly the error its first line names."""
    bad = sorted(TYPING.glob("bad-*.ts"))
    assert len(bad) >= 5
    expected = {}
    for path in bad:
        match = EXPECTED_ERROR.match(path.read_text())
        assert match, f"{path.name}: the first line must name the error it expects"
        expected[path.name] = [match[1]]
    result = _run([*tsc, "-p", str(_typing_config(tmp_path, bad)), "--pretty", "false"])
    assert result.returncode != 0
    assert _tsc_errors(result.stdout) == expected, result.stdout


@pytest.fixture
def server_with_http(start_server_process):
    """okey-server with its gRPC port and HTTP listener on free ports (`--http-port 0`;
    the startup line names the port bound); (server, the listener's base URL)."""
    server = start_server_process("--host", "127.0.0.1", "--port", "0", "--http-port", "0")
    http_port = server.startup.get("http_port")
    assert isinstance(http_port, int), server.startup
    assert http_port > 0
    return server, f"http://127.0.0.1:{http_port}"


def test_conformance_runner_passes_every_vector_over_grpc_and_connect(
    node, built, server_with_http
):
    """The TypeScript runner sends every case of tests/conformance through the generated
    clients: over gRPC to the gRPC port, and over Connect (JSON and binary) and gRPC-Web
    to the HTTP listener, through Node's transports and through the browser entry
    point's (fetch); every case passes on every transport."""
    server, http = server_with_http
    result = _run([
        node, str(built / "conformance" / "cli.js"),
        "--grpc", server.address, "--connect", http, "--connect-binary", http, "--grpc-web", http,
        "--web-connect", http, "--web-grpc-web", http,
    ])
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    cases = len(conformance.load_dir(ROOT / "tests" / "conformance"))
    summaries = {label: (int(ok), int(bad)) for label, ok, bad in SUMMARY.findall(output)}
    assert summaries == {
        "grpc": (cases, 0), "connect json": (cases, 0), "connect binary": (cases, 0),
        "grpc-web": (cases, 0), "web connect json": (cases, 0), "web grpc-web": (cases, 0),
    }, output[-3000:]
    assert TOTAL.findall(output)[-1] == (str(6 * cases), "0")
    assert server.stop(signal.SIGTERM) == 0


def test_conformance_runner_reports_a_wrong_expectation(
    node, built, start_server_process, tmp_path
):
    """A vector whose expectation the server does not meet fails, with the field that
    differs, and the runner exits 1: the runner can fail."""
    vectors = json.loads((ROOT / "tests" / "conformance" / "hand_runs.json").read_text())
    case = vectors["cases"][0]
    assert case["expect"]["response"]["winning"] is True
    case["expect"] = {"response": {"winning": False}}
    vectors["cases"] = [case]
    (tmp_path / "hand_runs.json").write_text(json.dumps(vectors))
    server = start_server_process("--host", "127.0.0.1", "--port", "0")
    result = _run([
        node, str(built / "conformance" / "cli.js"),
        "--grpc", server.address, "--dir", str(tmp_path),
    ])
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"FAIL {case['name']}" in result.stdout
    assert "winning: expected false, got true" in result.stdout
    assert TOTAL.findall(result.stdout)[-1] == ("0", "1")


def test_npm_pack_ships_the_build_and_its_types(node, built):
    """One npm package: the tarball holds dist/ with the .d.ts of every entry point the
    package.json exports."""
    npm = shutil.which("npm")
    assert npm is not None
    # --ignore-scripts: `built` has just compiled dist/ (prepack would compile it again).
    result = _run([npm, "pack", "--dry-run", "--json", "--ignore-scripts"])
    assert result.returncode == 0, result.stderr
    packed = {entry["path"] for entry in json.loads(result.stdout)[0]["files"]}
    manifest = json.loads((TS_CLIENT / "package.json").read_text())
    for entry in manifest["exports"].values():
        if isinstance(entry, dict):
            for target in entry.values():
                assert target.removeprefix("./") in packed, target
    assert manifest["bin"]["okey-ts-conformance"].removeprefix("./") in packed
    assert "README.md" in packed


IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"', re.MULTILINE)


def test_the_browser_entry_point_imports_nothing_of_node(built):
    """What "@okey-rules/client/web" pulls into a page: its own modules and connect-web,
    never a node: module or @connectrpc/connect-node (a bundler could not serve them)."""
    seen: set[Path] = set()
    pending = [built / "web.js"]
    packages: set[str] = set()
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        for specifier in IMPORT.findall(module.read_text()):
            if specifier.startswith("."):
                pending.append((module.parent / specifier).resolve())
            else:
                packages.add(specifier)
    assert built / "client.js" in seen
    assert "@connectrpc/connect-web" in packages
    node_only = {p for p in packages if p.startswith("node:") or p.endswith("connect-node")}
    assert not node_only, packages
