"""scripts/pick_python: the interpreter `make` builds .venv with (README, top)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pick_python"


def _pick(path: str) -> str:
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        ["/bin/sh", str(SCRIPT)], env=env, capture_output=True, text=True, check=True, timeout=30
    ).stdout.strip()


def _version(python: str) -> tuple[int, int]:
    out = subprocess.run(
        [python, "-c", "import sys; print(*sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout.split()
    return int(out[0]), int(out[1])


def _usable(python: str) -> bool:
    """3.11 or newer, and able to make a venv with pip (ensurepip present)."""
    try:
        subprocess.run([python, "-c", "import venv, ensurepip"], check=True, timeout=30)
        return _version(python) >= (3, 11)
    except (OSError, subprocess.CalledProcessError):
        return False


def test_the_distribution_interpreter_comes_first_when_it_is_new_enough() -> None:
    picked = _pick(os.environ.get("PATH", ""))
    if _usable("/usr/bin/python3"):
        assert picked == "/usr/bin/python3"
    else:
        assert picked == "python3"


def test_the_picked_interpreter_is_3_11_or_newer() -> None:
    picked = _pick(os.environ.get("PATH", ""))
    assert _version(picked) >= (3, 11)
