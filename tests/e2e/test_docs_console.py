"""Every console example of README.md and docs/*.md runs against a live server (issue 24,
point 8: docs cannot drift).

The examples are found, not listed: each ```console block's `$ ` lines and each ```sh
block's lines (continuations joined, comments dropped) are commands. An `okey` command is
run as written, in a directory holding the files the docs name (below), with `--server`
pointed at the test server (added when the doc gives none, its address replaced when it
gives one; `okey deal hash-seed` is local and takes none). The lines a ```console block
shows after a command are that command's output (stdout, then stderr), compared line for
line; a line `...` stands for any run of lines. An error is shown as its `okey:` line and
the command must fail; any other command must exit 0.

Nothing is skipped silently: a command that is not `okey` (make, pip, okey-server,
grpcurl, docker...), a block run by another test, and a ```console block with no `$ `
line (an excerpt of an interactive `okey play` session) are listed below with the reason,
and a listed entry the docs no longer hold fails the test, as does a block found in
neither list.

The files the docs name: game.json (the ScoreGameRequest docs/play.md prints),
bad-game.json (the same with seat 9 winning its second round), final.json (a round
saved with its finished state, as `okey play --save-state` saves it: seed 42's deal
played out), position.json (a StackedDeal), tests/conformance and path/to/vectors (the
repository's vectors).

A `curl` command to ``http://127.0.0.1:8080/`` (the HTTP listener, docs/http.md) is run
too, against an okey-server started with ``--http-port``, and its stdout compared the same
way; other `curl` commands are listed below.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_cli_deal import COMMAND, RUN_DEADLINE_S, finished_state_file, stacked_position
from test_reflection_session import matches_with_elisions

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
VECTORS = ROOT / "tests" / "conformance"
PLAY = ROOT / "docs" / "play.md"

# Commands that are not run here, by their first word, and why.
NOT_OKEY = {
    "make": "builds the venv or runs the suite itself; `make serve` is the server this "
            "test starts in-process",
    "pip": "installs into the environment: tests/e2e/test_install.py builds and installs "
           "the wheel",
    "okey-server": "starts a server: this test runs its own (tests/e2e/test_processes.py, "
                   "test_cli_tls.py and the metrics tests start okey-server with these flags)",
    "grpcurl": "README's session is replayed and compared by tests/e2e/"
               "test_reflection_session.py (scripts/reflection_session.py); grpcurl itself "
               "is not installed here",
    "curl": "scrapes the metrics port: tests/metrics_scrape.py and the metrics tests do "
            "(curl to the HTTP listener, :8080, is run: test_the_http_example_runs_...)",
    "cd": "a step of the Node or Go set-up (tests/e2e/test_node_package.py packs the client)",
    "npm": "the Node client's packaging: tests/e2e/test_node_package.py",
    "buf": "Go stubs: buf is not run by the suite beyond buf lint/breaking "
           "(tests/unit/test_proto_hygiene.py)",
    "go": "Go stubs: no Go toolchain in the suite",
    "apt-get": "installs nginx system-wide: tests/e2e/test_nginx_balancer.py runs nginx "
               "with deploy/nginx/okey.conf",
    "cp": "installs nginx's configuration system-wide (see apt-get)",
    "nginx": "reloads a system nginx (see apt-get)",
    "docker": "builds and runs the image: tests/e2e/test_deploy_files.py checks deploy/",
    "kubectl": "needs a cluster: tests/e2e/test_deploy_files.py checks the manifests",
    "python": "scripts/derive_vectors.py rewrites the vector files: tests/unit/"
              "test_game_vectors_wellformed.py, test_game101_vectors_wellformed.py, "
              "test_scoring_vectors_wellformed.py, test_deal_vectors_wellformed.py and "
              "test_opening_vectors_wellformed.py derive every case again and compare",
}

# okey commands that are not run here (matched on the start of the command as written).
NOT_RUN_OKEY = {
    "okey hand check R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5 --indicator R4 "
    "--server rules.internal:50051 --tls-ca": "needs a mutual-TLS server and its "
    "certificates: tests/e2e/test_cli_tls.py runs --tls-ca, --tls-cert and --tls-key",
    "okey hand check ... --server 127.0.0.1:50051 --tls-ca": "TLS against a plaintext "
    "server (the message ends with gRPC's own words, which vary): "
    "tests/e2e/test_cli_tls.py pins the line's start",
}

# Whole blocks run by another test, by their document and first line.
RUN_ELSEWHERE = {
    ("docs/dealing.md", "okey deal hash-seed s0 s1 s2 s3"):
        "the committed deal step by step: its placeholders (H0-H3, ID) come from the lines "
        "before; tests/e2e/test_docs_committed_deal.py runs it in order",
}

# ```console blocks without a `$ ` line: excerpts of interactive sessions.
EXCERPTS = {
    ("docs/play.md", "-- move 5: your turn: draw from the wall (d) or take the previous "
                     "discard (t)"): "part of a classic turn's screen in `okey play`",
    ("docs/play.md", "seat 0> x R7"): "moves typed at `okey play`'s prompt and the answers",
    ("docs/play.md", "== round 4"): "a round's header in `okey play` (the deal id is keyed "
                                    "by the server's signing key)",
    ("docs/play.md", "scores after round 3:"): "the scores `okey play` prints after a "
                                               "round; its rule lines are checked below",
    ("docs/play.md", "== final table"): "the table `okey play` prints at a game's end; its "
                                        "rule lines are checked below",
    ("docs/play.md", "classic Okey, 2 players (table seats 1 and 2), dealer seat 2, seat 1 "
                     "opens; you have left the game: the bots play on; untimed"):
        "a round's header under --elimination, once your seat has left",
    ("docs/play.md", "-- move 8: your turn: draw from the bank (d) or take the previous "
                     "discard (t)"): "part of an Okey 101 turn's screen in `okey play`",
    ("docs/play.md", "seat 1> layoff R5 0"): "an Okey 101 move typed at the prompt",
}


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    command: str
    shown: tuple[str, ...]  # the output a ```console block shows after the command

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    language: str
    lines: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str]:
        """The document and the block's first line (its comment dropped)."""
        return (self.doc, self.lines[0].split(" #", 1)[0].strip() if self.lines else "")


def blocks() -> list[Block]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^```(console|sh)\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, match.start()) + 2
            body = match.group(2).replace("\\\n", " ").rstrip("\n").split("\n")
            found.append(Block(str(path.relative_to(ROOT)), line, match.group(1), tuple(body)))
    return found


def examples_of(block: Block) -> list[Example]:
    """The commands of a block, each with the output shown after it (console only)."""
    found: list[Example] = []
    for offset, text in enumerate(block.lines):
        if block.language == "sh":
            command = " ".join(text.split(" #", 1)[0].split())
            if command and not command.startswith("#"):
                found.append(Example(block.doc, block.line + offset, command, ()))
        elif text.startswith("$ "):
            found.append(Example(block.doc, block.line + offset, text[2:].strip(), ()))
        elif found:
            last = found[-1]
            found[-1] = Example(last.doc, last.line, last.command, (*last.shown, text))
    return found


def _is_okey(example: Example) -> bool:
    return example.command.split()[0] == "okey"


HTTP_EXAMPLE = "http://127.0.0.1:8080/"


def _is_http(example: Example) -> bool:
    return example.command.split()[0] == "curl" and HTTP_EXAMPLE in example.command


def _not_run_reason(example: Example) -> str | None:
    if _is_http(example):
        return None
    if not _is_okey(example):
        return NOT_OKEY.get(example.command.split()[0])
    return next((why for start, why in NOT_RUN_OKEY.items()
                 if example.command.startswith(start)), None)


ALL_BLOCKS = blocks()
RUNNABLE = [example for block in ALL_BLOCKS
            if block.key not in RUN_ELSEWHERE and block.key not in EXCERPTS
            for example in examples_of(block) if _not_run_reason(example) is None]
RUN = [example for example in RUNNABLE if _is_okey(example)]
RUN_HTTP = [example for example in RUNNABLE if _is_http(example)]


def test_every_block_is_run_or_listed_with_its_reason():
    unlisted, unknown = [], []
    for block in ALL_BLOCKS:
        if block.key in RUN_ELSEWHERE or block.key in EXCERPTS:
            continue
        examples = examples_of(block)
        if not examples:
            unlisted.append(f"{block.doc}:{block.line}: {block.lines[0]!r}")
        unknown += [f"{e.id}: {e.command}" for e in examples
                    if not _is_okey(e) and not _is_http(e) and _not_run_reason(e) is None]
    assert unlisted == [], "console blocks with no command, not listed in EXCERPTS"
    assert unknown == [], "commands that are neither okey nor listed in NOT_OKEY"
    assert len(RUN) >= 30


def test_every_shell_session_is_labelled_console():
    """A `$ ` line in a block of another language (or none) would escape this test."""
    unlabelled = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
            if match.group(1) != "console" and re.search(r"^\$ ", match.group(2), re.M):
                line = text.count("\n", 0, match.start()) + 1
                unlabelled.append(f"{path.relative_to(ROOT)}:{line}")
    assert unlabelled == []


def test_no_listed_entry_is_stale():
    keys = {block.key for block in ALL_BLOCKS}
    assert [key for key in (*RUN_ELSEWHERE, *EXCERPTS) if key not in keys] == []
    commands = [e.command for block in ALL_BLOCKS for e in examples_of(block)]
    assert [start for start in NOT_RUN_OKEY
            if not any(c.startswith(start) for c in commands)] == []
    first_words = {c.split()[0] for c in commands}
    assert sorted(set(NOT_OKEY) - first_words) == []


def _okey(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [*COMMAND, *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
        text=True, timeout=RUN_DEADLINE_S, check=False,
    )


def _args(command: str, server: str) -> list[str]:
    """The command's arguments after `okey`, its --server pointed at `server`."""
    args = shlex.split(command, comments=True)[1:]
    if args[:2] == ["deal", "hash-seed"]:
        return args
    for index, arg in enumerate(args):
        if arg == "--server":
            args[index + 1] = ",".join([server] * len(args[index + 1].split(",")))
            return args
    return [*args, "--server", server]


def _play_json_block(after: str) -> str:
    text = PLAY.read_text(encoding="utf-8")
    match = re.search(r"```json\n(.*?)```", text[text.index(after):], re.S)
    assert match is not None, f"docs/play.md has no JSON block after {after!r}"
    return match.group(1)


@pytest.fixture(scope="module")
def workdir(grpc_server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with the files the docs' commands name."""
    here = tmp_path_factory.mktemp("docs-console")
    (here / "tests").mkdir()
    (here / "tests" / "conformance").symlink_to(VECTORS)
    (here / "path" / "to").mkdir(parents=True)
    (here / "path" / "to" / "vectors").symlink_to(VECTORS)
    game = json.loads(_play_json_block("### `okey score game`"))
    (here / "game.json").write_text(json.dumps(game))
    game["rounds"][1] = {"result": {"winnerSeat": 9, "winKind": "WIN_KIND_MELDS"}}
    (here / "bad-game.json").write_text(json.dumps(game))
    (here / "position.json").write_text(json.dumps(stacked_position()))
    dealt = _okey(["deal", "--seed", "42", "--json", "--server", grpc_server], here)
    assert dealt.returncode == 0, dealt.stderr
    finished_state_file(grpc_server, dealt.stdout, here / "final.json")
    return here


@pytest.mark.parametrize("example", RUN, ids=[e.id for e in RUN])
def test_the_example_runs_as_documented(example: Example, grpc_server: str, workdir: Path):
    done = _okey(_args(example.command, grpc_server), workdir)
    output = (done.stdout + done.stderr).rstrip("\n").replace(grpc_server, "127.0.0.1:50051")
    shows_error = bool(example.shown) and example.shown[0].startswith("okey: ")
    assert (done.returncode != 0) == shows_error, (
        f"{example.id}: `{example.command}` exited {done.returncode}\n{output}")
    if example.shown:
        actual = [line.rstrip() for line in output.split("\n")]
        assert matches_with_elisions(list(example.shown), actual), (
            f"{example.id}: `{example.command}` now prints:\n{output}")


def test_the_play_excerpts_rule_lines_are_worded_as_the_server_words_them(
    grpc_server: str, workdir: Path
):
    """The score excerpts of `okey play` (not run: moves are typed) use the wording a live
    `okey score game` prints for the same kinds of line (numbers aside)."""
    done = _okey(["score", "game", "game.json", "--server", grpc_server], workdir)
    assert done.returncode == 0, done.stderr

    def shape(line: str) -> str:
        return re.sub(r"\d+", "N", line)

    live = {shape(line) for line in done.stdout.splitlines()}
    excerpts = [block for block in ALL_BLOCKS if EXCERPTS.get(block.key, "").endswith(
        "its rule lines are checked below")]
    assert len(excerpts) == 2
    rule_lines = [line for block in excerpts for line in block.lines
                  if line.startswith("  ")]
    assert rule_lines
    assert [line for line in rule_lines if shape(line) not in live] == []


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The HTTP port of an okey-server started with --http-port 0 (the docs say 8080)."""
    log_path = tmp_path_factory.mktemp("docs-http") / "okey-server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    server = str(ROOT / ".venv" / "bin" / "okey-server")
    with log_path.open("wb") as log:
        process = subprocess.Popen([server, "--port", "0", "--http-port", "0"],
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
    try:
        deadline = time.monotonic() + RUN_DEADLINE_S
        port = None
        while port is None:
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            for line in log_path.read_text().splitlines():
                entry = json.loads(line) if line.startswith("{") else {}
                if entry.get("event") == "serving":
                    port = int(entry["http_port"])
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=RUN_DEADLINE_S)


@pytest.mark.parametrize("example", RUN_HTTP, ids=[e.id for e in RUN_HTTP])
def test_the_http_example_runs_as_documented(example: Example, http_server: int):
    """The README's and docs/http.md's curl lines print what they show (stdout only:
    curl's progress meter goes to stderr)."""
    assert RUN_HTTP, "the README's curl line is gone"
    command = example.command.replace(HTTP_EXAMPLE, f"http://127.0.0.1:{http_server}/")
    done = subprocess.run(shlex.split(command), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=RUN_DEADLINE_S, check=False)
    assert done.returncode == 0, f"{example.id}: `{example.command}`: {done.stderr}"
    if example.shown:
        actual = [line.rstrip() for line in done.stdout.rstrip("\n").split("\n")]
        assert matches_with_elisions(list(example.shown), actual), (
            f"{example.id}: `{example.command}` now prints:\n{done.stdout}")
