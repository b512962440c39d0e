"""`okey hand analyze` through a subprocess against a real server (docs/analysis.md)."""

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
# Okey B6: R1-R3, Y7 B7 K7, R9-R12 and K11-K13 with the okey win (as K10).
WINS = ["R1", "R2", "R3", "Y7", "B7", "K7", "R9", "R10", "R11", "R12", "K11", "K12", "K13", "B6"]
# One tile short: K11 K12 with Y4 beside; 15 tiles with Y1.
NEAR = ["R1", "R2", "R3", "Y7", "B7", "K7", "R9", "R10", "R11", "R12", "K11", "K12", "Y4", "B6",
        "Y1"]


@pytest.fixture
def analyze(grpc_server: str):
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        env["NO_COLOR"] = "1"
        return subprocess.run(
            [*COMMAND, "hand", "analyze", *args, "--server", grpc_server],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env,
            timeout=RUN_DEADLINE_S, check=False,
        )

    return run


def test_a_winning_hand_is_said_to_win(analyze):
    result = analyze(*WINS, "--okey", "B6")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "okey B6 (indicator B5), unseen copies counted from the hand alone",
        "wins (melds 0, seven pairs 6)",  # one pair: the okey with any tile
    ]


def test_fifteen_tiles_show_the_best_discard_first_with_its_useful_draws(analyze):
    result = analyze(*NEAR, "--indicator", "B5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].startswith("discard ")
    assert "(best): 1 tile from a win (melds 1, " in lines[1]
    assert lines[2].startswith("  useful draws (")
    answer = json.loads(analyze(*NEAR, "--indicator", "B5", "--json").stdout)
    best = answer["discards"][answer["bestDiscard"]]
    assert best["distance"]["best"] == min(d["distance"]["best"] for d in answer["discards"])


def test_seen_tiles_change_the_unseen_counts(analyze):
    alone = json.loads(analyze(*NEAR, "--indicator", "B5", "--json").stdout)
    seen = json.loads(analyze(*NEAR, "--indicator", "B5", "--seen", "K10 K13", "--json").stdout)
    assert seen["fromView"] is True
    assert sum(d["usefulUnseen"] for d in seen["discards"]) < sum(
        d["usefulUnseen"] for d in alone["discards"])


def test_a_hand_without_its_wild_is_refused(analyze):
    result = analyze(*WINS)
    assert result.returncode == 2
    assert "--indicator or --okey" in result.stderr


@pytest.fixture
def play(grpc_server: str):
    def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        env["NO_COLOR"] = "1"
        return subprocess.run(
            [*COMMAND, "play", *args, "--server", grpc_server],
            capture_output=True, text=True, input=stdin, env=env,
            timeout=RUN_DEADLINE_S, check=False,
        )

    return run


@pytest.mark.parametrize("game", ["classic", "101"])
def test_okey_play_hint_shows_the_bots_move_and_the_analysis(play, game):
    """docs/play.md: `hint` asks SuggestMove (level 3) and AnalyzeHand for the seat."""
    result = play("--game", game, "--seed", "hint", "--rounds", "1", stdin="hint\nquit\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("hint: "))
    assert lines[at + 1].startswith("your hand: " if game == "classic" else "your rack: melds ")


def test_okey_play_bots_at_a_level_play_the_round_to_its_end(play):
    """--bot-level 3: the other seats play SuggestMove's level-3 bot."""
    human = "draw\ndiscard\n" * 60
    result = play("--seed", "bot level", "--rounds", "1", "--bot-level", "3", stdin=human)
    assert result.returncode == 0, result.stderr
    assert any(line.startswith("round over at move ") for line in result.stdout.splitlines())
