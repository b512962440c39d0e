"""docs/dealing.md's committed deal, step by step, run as written: each `okey` line of the
block is run in order against a live server; the placeholders the prose explains (the
hashes H0-H3 that `okey deal hash-seed` printed, the deal id ID from commit.json) are
filled in from the lines before, and finished.json is the round played to its end."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from test_cli_deal import finished_state_file, okey

DEALING = Path(__file__).resolve().parents[2] / "docs" / "dealing.md"
INTRO = "A committed deal, step by step"


def _block() -> list[list[str]]:
    """The commands of the first sh block after INTRO, continuation lines joined, comments
    dropped."""
    text = DEALING.read_text(encoding="utf-8")
    assert INTRO in text, f"docs/dealing.md lacks {INTRO!r}"
    block = re.search(r"```sh\n(.*?)```", text[text.index(INTRO):], re.S)
    assert block is not None
    joined = block.group(1).replace("\\\n", " ")
    return [shlex.split(line, comments=True) for line in joined.splitlines() if line.strip()]


def test_the_committed_deal_block_runs_as_documented(grpc_server, tmp_path):
    commands = _block()
    assert [c[:3] for c in commands] == [
        ["okey", "deal", "hash-seed"], ["okey", "deal", "commit"], ["okey", "deal", "--deal-id"],
        ["okey", "deal", "reveal"], ["okey", "deal", "verify"],
    ]
    values: dict[str, str] = {}
    for command in commands:
        redirect = command.index(">") if ">" in command else None
        args = command[1:redirect]
        args = [values.get(arg, arg) for arg in args]
        args = [str(tmp_path / a) if a.endswith(".json") else a for a in args]
        if args[:2] == ["deal", "reveal"]:
            finished_state_file(grpc_server, (tmp_path / "deal.json").read_text(),
                                tmp_path / "finished.json")
        # hash-seed is local: it takes no --server.
        server = [] if args[:2] == ["deal", "hash-seed"] else ["--server", grpc_server]
        done = okey(*args, *server)
        assert done.returncode == 0, f"{shlex.join(command)}\n{done.stdout}{done.stderr}"
        if redirect is not None:
            (tmp_path / command[redirect + 1]).write_text(done.stdout)
        if args[:2] == ["deal", "hash-seed"]:
            values |= {f"H{seat}": h for seat, h in enumerate(done.stdout.split())}
        if args[:2] == ["deal", "commit"]:
            values["ID"] = json.loads(done.stdout)["dealId"]
    assert "gives the commitment" in done.stdout
