"""Helpers for the `okey score` and whole-game `okey play` tests: running the CLI, reading
the score table it prints, and opening saved finished states with the tests' server key
(the CLI itself never opens them: they are sealed tokens)."""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import json_format
from okey.v1 import scoring_pb2, state_pb2
from okey_rules.dealing.deal_fairness import seeded_deal_id
from okey_rules.play.game_types import GameState
from okey_server.wire.convert_state import classic_state_from_token
from okey_server.wire.sealing import key_ring

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
# A bound for a CLI run to finish (a whole game of bot rounds included), not a timing
# assertion.
RUN_DEADLINE_S = 300
# The key of the tests' own servers, so that a test can open the states they seal.
KEY = b"cli score test key"
# One cell of a round row: the change, the new total, and `out` once the seat has left.
CELL = re.compile(r"([+-]\d+) (-?\d+)( out)?")
ROUND_ROW = re.compile(r"^round (\d+)\s+(.*)$")
SCORES_ROW = re.compile(r"^(start|before)\s+(-?\d+(?:\s+-?\d+)*)$")


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["NO_COLOR"] = "1"
    return env


def okey(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, input=stdin, env=clean_env(),
        timeout=RUN_DEADLINE_S, check=False,
    )


@dataclass(frozen=True)
class Row:
    """One round's row as printed: per seat (change, total, out of the game)."""

    number: int
    cells: tuple[tuple[int, int, bool], ...]

    @property
    def deltas(self) -> tuple[int, ...]:
        return tuple(cell[0] for cell in self.cells)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(cell[1] for cell in self.cells)

    @property
    def out(self) -> tuple[bool, ...]:
        return tuple(cell[2] for cell in self.cells)


def round_rows(text: str) -> list[Row]:
    """Every round row of a printed score table, in order."""
    rows = []
    for line in text.splitlines():
        match = ROUND_ROW.match(line)
        if match is None:
            continue
        cells = CELL.findall(match.group(2))
        assert cells, f"a round row without cells: {line!r}"
        rows.append(Row(int(match.group(1)),
                        tuple((int(d), int(t), bool(o)) for d, t, o in cells)))
    return rows


def scores_row(text: str, label: str) -> tuple[int, ...]:
    """The `start` or `before` row's scores."""
    for line in text.splitlines():
        match = SCORES_ROW.match(line)
        if match and match.group(1) == label:
            return tuple(int(word) for word in match.group(2).split())
    raise AssertionError(f"no {label!r} row in:\n{text}")


def rule_lines_after(text: str, number: int) -> list[str]:
    """The indented rule lines printed under round `number`'s row."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^round {number}\s", line))
    found = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        found.append(line.strip())
    return found


def read_saved_state(path: Path) -> tuple[bytes, state_pb2.RoundStatus]:
    """A state saved by `okey play --save-state`: the sealed token (base64 under "state")
    and the public RoundStatus saved beside it."""
    saved = json.loads(path.read_text())
    status = json_format.ParseDict(saved["status"], state_pb2.RoundStatus())
    return base64.b64decode(saved["state"]), status


def read_state(path: Path) -> tuple[bytes, GameState]:
    """A saved classic state: the token, and the state it seals opened with KEY."""
    token, _ = read_saved_state(path)
    return token, classic_state_from_token(token, KEY)


def read_game(path: Path) -> tuple[scoring_pb2.ScoreGameRequest, list[GameState]]:
    """A game saved by `okey play --save-game`, and each round's state opened with KEY."""
    request = json_format.Parse(path.read_text(), scoring_pb2.ScoreGameRequest())
    return request, [classic_state_from_token(entry.state, KEY) for entry in request.rounds]


def seeded_id(seed: str) -> str:
    """The keyed id the tests' servers (KEY) give a deal from `seed`: it names the seed
    without revealing it, and differs under another key."""
    return seeded_deal_id(key_ring(KEY).current.seeded_id_key, seed)
