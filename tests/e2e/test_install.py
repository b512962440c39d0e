"""The package installs from its tracked sources alone: a wheel built from a clean copy
carries the generated okey.v1 stubs, and its `okey-server` and `okey` work from a fresh venv.

How the fresh venv gets the dependencies: the wheel is installed with --no-deps and
the venv is pointed at .venv's site-packages (a .pth file), whose versions `make setup`
installed from the same pins; `pip check` then judges the wheel's own Requires-Dist
against them. This keeps the test offline and at a few seconds, where resolving
the dependencies from an index would take one and could fail with the network.
The wheel is built without build isolation from .venv (setuptools and grpcio-tools
are there through the dev extra); test_build_requirements_pin_the_stub_generator
checks that an isolated build gets the same generator.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PROTOS = sorted(p.stem for p in (ROOT / "proto" / "okey" / "v1").glob("*.proto"))
# Bounds for a subprocess to finish or come up, not timing assertions.
STEP_DEADLINE_S = 120
STARTUP_DEADLINE_S = 30.0
# A winning hand: runs and sets around the okey R5 (indicator R4).
WINNING_HAND = (
    "R1",
    "R2",
    "R3",
    "Y7",
    "B7",
    "K7",
    "R9",
    "R10",
    "R11",
    "R12",
    "B1",
    "Y1",
    "K1",
    "R5",
)


def _run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=STEP_DEADLINE_S,
        check=False,
    )
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result


def _source_files() -> list[str]:
    """Tracked files plus new ones not yet committed (never git-ignored ones: no local stubs)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: cannot tell the tracked sources from local files")
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    return [name for name in listed.stdout.split("\0") if name and (ROOT / name).is_file()]


def _copy_sources(dest: Path) -> None:
    for name in _source_files():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("install")
    source = base / "src"
    _copy_sources(source)
    assert not (source / "server" / "okey").exists(), "generated stubs leaked into the copy"
    wheelhouse = base / "wheelhouse"
    _run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-index",
        "--no-build-isolation",
        "--wheel-dir",
        wheelhouse,
        source,
    )
    (built,) = wheelhouse.glob("okey_rules-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path) -> Path:
    """A fresh venv with only the wheel installed; dependencies from .venv (see the module doc)."""
    path = wheel.parent.parent / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", path)
    python = path / "bin" / "python"
    # .venv's pip installs into the new venv (no ensurepip: seconds saved).
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--no-deps",
        "--no-index",
        wheel,
    )
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    dependencies = sysconfig.get_path("purelib")
    # Added after the install, so pip never saw .venv's own (editable) okey-rules.
    (Path(purelib.stdout.strip()) / "okey-test-dependencies.pth").write_text(dependencies + "\n")
    return path


def test_wheel_ships_the_generated_stubs_and_the_license(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for proto in PROTOS:
        assert f"okey/v1/{proto}_pb2.py" in names
        assert f"okey/v1/{proto}_pb2_grpc.py" in names
        assert f"okey/v1/{proto}_pb2.pyi" in names
    # The HTTP listener's Connect applications, one per service (protoc-gen-connectrpc).
    for service in ("hand", "deal", "game", "scoring", "analysis"):
        assert f"okey/v1/{service}_connect.py" in names
    assert {"okey/__init__.py", "okey/v1/__init__.py", "okey/py.typed"} <= names
    assert "okey_rules/py.typed" in names
    assert {"okey_server/main.py", "okey_cli/main.py", "okey_rules/play/game.py"} <= names
    # The generator's stamp for `make` is not package content.
    assert not any(name.endswith(".generated") for name in names)
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{dist_info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    # The stubs are built, not run-time generated: the tools stay out of the dependencies.
    for tool in ("grpcio-tools", "protoc-gen-connectrpc"):
        assert not any(
            line.startswith(f"Requires-Dist: {tool}") and "extra ==" not in line
            for line in metadata.splitlines()
        )


def test_build_requirements_pin_the_stub_generator():
    # An isolated build (pip install ., python -m build) gets grpcio-tools from
    # [build-system].requires: the same pin as grpcio, so the generated code
    # matches the grpcio it is installed with (its stubs check grpcio >= their version).
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    runtime = [d for d in config["project"]["dependencies"] if d.startswith("grpcio==")]
    assert len(runtime) == 1
    version = runtime[0].removeprefix("grpcio==")
    assert f"grpcio-tools=={version}" in config["build-system"]["requires"]
    assert f"grpcio-tools=={version}" in config["project"]["optional-dependencies"]["dev"]
    # The Connect generator: the same pin for isolated builds and for `make gen`, and the
    # runtime it writes for (connectrpc) at the same version.
    (connect,) = [d for d in config["build-system"]["requires"]
                  if d.startswith("protoc-gen-connectrpc==")]
    assert connect in config["project"]["optional-dependencies"]["dev"]
    runtime_version = connect.removeprefix("protoc-gen-connectrpc==")
    assert f"connectrpc=={runtime_version}" in config["project"]["dependencies"]


def test_installed_wheel_satisfies_its_own_requirements(venv):
    result = _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "check")
    assert "No broken requirements" in result.stdout


def test_installed_packages_load_from_the_venv_not_the_checkout(venv, tmp_path):
    code = "import okey.v1.hand_pb2 as h, okey_server.main as s; print(h.__file__, s.__file__)"
    result = _run(venv / "bin" / "python", "-c", code, cwd=tmp_path)
    for line in result.stdout.split():
        assert Path(line).is_relative_to(venv), line


@pytest.fixture
def server_address(venv: Path, tmp_path: Path) -> Iterator[str]:
    """The venv's okey-server on an ephemeral loopback port, killed at teardown."""
    log_path = tmp_path / "okey-server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [venv / "bin" / "okey-server", "--host", "127.0.0.1", "--port", "0"],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
        )
    try:
        yield f"127.0.0.1:{_serving_port(process, log_path)}"
    finally:
        process.kill()
        process.wait(timeout=STARTUP_DEADLINE_S)


def _serving_port(process: subprocess.Popen[bytes], log_path: Path) -> int:
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            entry = json.loads(line) if line.startswith("{") else {}
            if entry.get("event") == "serving":
                return int(entry["port"])
        if process.poll() is not None:
            raise AssertionError(f"okey-server exited early:\n{log_path.read_text()}")
        time.sleep(0.05)
    raise AssertionError(f"okey-server printed no startup line:\n{log_path.read_text()}")


def test_installed_okey_cli_judges_a_hand_on_the_installed_server(venv, server_address, tmp_path):
    result = subprocess.run(
        [
            venv / "bin" / "okey",
            "hand",
            "check",
            *WINNING_HAND,
            "--indicator",
            "R4",
            "--server",
            server_address,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=STEP_DEADLINE_S,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "winning: melds"
    assert "indicator R4, okey R5" in result.stdout
