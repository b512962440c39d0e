"""`okey hand opening` through a subprocess against a real server (docs/okey101.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
# A bound for a CLI run to finish, not a timing assertion.
RUN_DEADLINE_S = 60

# Okey Y5 (indicator Y4): R4 Y4 B4 K4, the okey as R11 before R12 R13, R13 Y13 B13
# K13, K10 K11 K12: 137 points; R1 R1 R7 Y2 B9 K6 F left; pairs R1, R4 with the okey, R13.
RACK_TEXT = "R12 R13 Y5 K10 K11 K12 K13 Y13 B13 R4 Y4 B4 K4 R1 R1 R13 R7 Y2 B9 K6 F"
RACK = RACK_TEXT.split()


@pytest.fixture
def opening(grpc_server: str):
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        env["NO_COLOR"] = "1"
        return subprocess.run(
            [*COMMAND, "hand", "opening", *args, "--server", grpc_server],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=RUN_DEADLINE_S,
            check=False,
        )

    return run


def test_opening_prints_the_melds_their_value_and_the_pairs(opening):
    result = opening(*RACK, "--indicator", "Y4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "melds: 137 points, 1 okey used: opens (101 needed)",
        "indicator Y4, okey Y5",
        "  set  R4 Y4 B4 K4",
        "  run  OK=R11 R12 R13",
        "  set  R13 Y13 B13 K13",
        "  run  K10 K11 K12",
        "left on the rack: R1 R1 R7 Y2 B9 K6 F",
        "pairs: 3: does not open (5 needed)",
        "  pair R1 R1",
        "  pair R4 OK=R4",
        "  pair R13 R13",
    ]


def test_opening_json_is_the_best_opening_response(opening):
    result = opening(*RACK, "--okey", "Y5", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["value"] == 137
    assert answer["opens"] is True
    assert answer["okeysUsed"] == 1
    assert answer["arrangement"]["notation"] == (
        "R4 Y4 B4 K4 | OK=R11 R12 R13 | R13 Y13 B13 K13 | K10 K11 K12"
    )
    assert answer["pairs"]["count"] == 3
    assert answer["pairs"]["opens"] is False
    assert answer["indicator"] == {"color": "COLOR_YELLOW", "number": 4, "falseJoker": False,
                                   "copy": 0}
    assert answer["summary"] == "melds: 137 points in 4 melds (opens); pairs: 3 (short of 5)"


def test_101_runs_never_pass_13_unless_the_option_says_so(opening):
    rack = ["R12 R13 R1, K4 K4 B1"]  # one quoted word with a comma works too
    plain = opening(*rack, "--indicator", "Y4")
    wrapped = opening(*rack, "--indicator", "Y4", "--runs-13-to-1")
    assert plain.stdout.splitlines()[0] == "melds: 0 points: does not open (101 needed)"
    assert wrapped.stdout.splitlines()[0] == "melds: 26 points: does not open (101 needed)"
    assert "  run  R12 R13 R1" in wrapped.stdout.splitlines()


def test_five_pairs_open(opening):
    result = opening("R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 Y9", "--okey", "B8")
    assert result.returncode == 0, result.stderr
    assert "pairs: 5: opens (5 needed)" in result.stdout.splitlines()
    without = opening("R3 R3 B8 B8", "--okey", "B8", "--no-wild-pairs")
    assert "pairs: 1: does not open (5 needed)" in without.stdout.splitlines()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*RACK, "R2", "R3", "--indicator", "Y4"], "hand_notation: a rack has 1 to 22 tiles"),
        (["R1", "R1", "R1", "--indicator", "Y4"], "hand_notation: tile 3: more than two"),
        (["R1", "R2", "R3", "--indicator", "Y4", "--preset", "classic"],
         "preset: openings are a rule of Okey 101"),
        (["R1", "R14", "--indicator", "Y4"], "hand_notation: tile 2"),
    ],
    ids=["23-tiles", "three-copies", "classic-preset", "bad-tile"],
)
def test_bad_input_exits_2_naming_the_field(opening, args, message):
    result = opening(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"okey: invalid input: {message}"), result.stderr
