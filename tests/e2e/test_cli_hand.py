"""`okey hand check` through a subprocess against a real server (docs/rules.md §1-4)."""

from __future__ import annotations

import json
import os
import pty
import re
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
# A bound for a CLI run to finish, not a timing assertion.
RUN_DEADLINE_S = 60
ANSI = "\x1b["

# Four melds, no wilds: R1-R3, R9-R12, the 5s of Y B K, K10-K13 (okey R5 is not in it).
MELDS = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
MELD_TILES = MELDS.split()


def tiles(text: str) -> list[str]:
    return text.split()


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_") and k != "NO_COLOR"}
    env.update(extra)
    return env


def okey(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env or clean_env(),
        timeout=RUN_DEADLINE_S,
        check=False,
    )


@pytest.fixture
def check(grpc_server: str):
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return okey("hand", "check", *args, "--server", grpc_server)

    return run


@pytest.fixture
def closed_address() -> Iterator[str]:
    """A loopback port that is bound but never listens: connecting is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"127.0.0.1:{sock.getsockname()[1]}"


def meld_lines(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if line.startswith("  ")]


def played_tiles(line: str) -> list[str]:
    """The tiles of a meld line (``run  R9 R10 OK=R11``), wilds as what they stand for."""
    return [word.split("=")[-1] for word in line.split()[1:]]


# --- verdicts -----------------------------------------------------------------


def test_rules_3_melds_hand_prints_verdict_and_one_meld_per_line(check):
    result = check(*MELD_TILES, "--indicator", "R4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "winning: melds"
    assert "indicator R4, okey R5" in lines
    melds = meld_lines(result.stdout)
    assert len(melds) == 4
    assert all(line.split()[0] in ("run", "set") for line in melds)
    # Every tile of the hand is placed exactly once.
    assert Counter(t for line in melds for t in played_tiles(line)) == Counter(MELD_TILES)


def test_rules_2_okey_wild_is_shown_as_the_tile_it_stands_for(check):
    # R9 R10 _ R12 can only be completed by the wild as R11.
    hand = MELDS.replace("R11", "R5").split()
    result = check(*hand, "--indicator", "R4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "winning: melds"
    assert "run  R9 R10 OK=R11 R12" in meld_lines(result.stdout)


def test_rules_2_false_joker_plays_as_the_okey_face(check):
    # Okey R5: each false joker is a red 5 and completes R3 R4 _.
    hand = tiles("R3 R4 F Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13")
    result = check(*hand, "--okey", "R5")
    assert result.returncode == 0, result.stderr
    assert "run  R3 R4 F=R5" in meld_lines(result.stdout)


def test_rules_3_seven_pairs_verdict(check):
    hand = tiles("R1 R1 Y3 Y3 B7 B7 K9 K9 R12 R12 Y13 Y13 B2 B2")
    result = check(*hand, "--okey", "R5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "winning: seven pairs"
    melds = meld_lines(result.stdout)
    assert len(melds) == 7
    assert all(line.split()[0] == "pair" for line in melds)


def test_rules_3_losing_hand_is_an_answer_with_exit_0(check):
    # No two tiles share a colour within two numbers or a number across colours,
    # and okey K1 is not in the hand: nothing can meld or pair.
    hand = tiles("R1 R4 R8 R12 Y1 Y5 Y9 Y13 B2 B6 B10 K3 K7 K11")
    result = check(*hand, "--indicator", "K13")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "not winning"
    assert meld_lines(result.stdout) == []


def test_rules_2_indicator_13_shows_okey_1(check):
    result = check(*MELD_TILES, "--indicator", "K13")
    assert result.returncode == 0, result.stderr
    assert "indicator K13, okey K1" in result.stdout.splitlines()


def test_okey_flag_gives_the_same_answer_as_its_indicator(check):
    by_indicator = check(*MELD_TILES, "--indicator", "R4")
    by_okey = check(*MELD_TILES, "--okey", "R5")
    assert by_okey.returncode == 0, by_okey.stderr
    assert by_okey.stdout == by_indicator.stdout


def test_rules_1_tiles_as_one_quoted_string_lowercase_and_commas(check):
    words = check(*MELD_TILES, "--indicator", "R4")
    one_string = check(", ".join(MELD_TILES).lower(), "--indicator", "r4")
    assert one_string.returncode == 0, one_string.stderr
    assert one_string.stdout == words.stdout


def test_rules_3_kafa_option_wins_as_kafa(check):
    # One colour 1..13 plus a second 1: also melds (R1-R3 and R4..R13-R1, as 13-1 may follow).
    hand = [f"R{n}" for n in range(1, 14)] + ["R1"]
    plain = check(*hand, "--okey", "K5")
    kafa = check(*hand, "--okey", "K5", "--kafa")
    # The okey.gg rules do not play kafa yet (docs/rules.md §4.3): the preset leaves it off.
    preset = check(*hand, "--okey", "K5", "--preset", "okey.gg")
    overridden = check(*hand, "--okey", "K5", "--preset", "okey.gg", "--kafa")
    assert plain.stdout.splitlines()[0] == "winning: melds"
    assert kafa.stdout.splitlines()[0] == "winning: kafa"
    assert "also wins as: melds" in kafa.stdout.splitlines()
    assert preset.stdout.splitlines()[0] == "winning: melds"
    assert overridden.stdout.splitlines()[0] == "winning: kafa"


def test_rules_3_run_12_13_1_and_the_option_that_forbids_it(check):
    hand = tiles("R12 R13 R1 Y5 B5 K5 Y9 Y10 Y11 K2 K3 K4 K5 K6")
    allowed = check(*hand, "--indicator", "B7")
    forbidden = check(*hand, "--indicator", "B7", "--no-runs-13-to-1")
    okey_101 = check(*hand, "--indicator", "B7", "--preset", "101")
    assert allowed.stdout.splitlines()[0] == "winning: melds"
    assert "run  R12 R13 R1" in meld_lines(allowed.stdout)
    assert forbidden.returncode == 0, forbidden.stderr
    assert forbidden.stdout.splitlines()[0] == "not winning"
    # CheckHand judges classic hands only: Okey 101 racks go to `okey hand opening`.
    assert okey_101.returncode == 2, okey_101.stderr
    assert okey_101.stdout == ""
    assert "preset" in okey_101.stderr
    assert "BestOpening" in okey_101.stderr


# --- 15 tiles -----------------------------------------------------------------


def test_rules_5_fifteen_tiles_list_the_only_winning_discard(check):
    # Y9 has no partner among the others; everything else already melds.
    result = check(*MELD_TILES, "Y9", "--indicator", "R4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "winning: 1 discard leaves a winning hand"
    assert [line for line in lines if line.startswith("discard ")] == ["discard Y9 -> melds"]
    assert lines[-1] == "discarding an okey wins: no"


def test_rules_5_fifteen_tiles_json_lists_winning_discards(check):
    result = check(*MELD_TILES, "Y9", "--indicator", "R4", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["winning"] is True
    assert [d["tile"] for d in answer["winningDiscards"]] == [
        {"color": "COLOR_YELLOW", "number": 9, "falseJoker": False, "copy": 0}
    ]
    assert answer["winningDiscards"][0]["kind"] == "WIN_KIND_MELDS"
    assert answer.get("okeyDiscardWins", False) is False


def test_rules_2_5_with_a_spare_okey_every_discard_wins_and_the_okey_discard_is_the_double(
    check,
):
    # The okey stands in for whichever tile goes, and discarding the okey itself
    # leaves the plain winning hand: all 15 distinct tiles are winning discards.
    result = check(*MELD_TILES, "R5", "--okey", "R5", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    discards = answer["winningDiscards"]
    names = sorted(f"{d['tile']['color']}/{d['tile']['number']}" for d in discards)
    letters = {"R": "COLOR_RED", "Y": "COLOR_YELLOW", "B": "COLOR_BLUE", "K": "COLOR_BLACK"}
    expected = sorted(f"{letters[t[0]]}/{t[1:]}" for t in [*MELD_TILES, "R5"])
    assert names == expected
    assert [d["tile"] for d in discards if d.get("okey")] == [
        {"color": "COLOR_RED", "number": 5, "falseJoker": False, "copy": 0}
    ]
    assert answer["okeyDiscardWins"] is True

    text = check(*MELD_TILES, "R5", "--okey", "R5")
    assert "discard R5 (an okey: the double) -> melds" in text.stdout.splitlines()
    assert text.stdout.splitlines()[-1] == "discarding an okey wins: yes"


def test_rules_5_fifteen_tiles_with_no_winning_discard(check):
    hand = tiles("R1 R4 R8 R12 Y1 Y5 Y9 Y13 B2 B6 B10 K3 K7 K11 B13")
    result = check(*hand, "--indicator", "K13")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "not winning: no discard leaves a winning hand"
    assert lines[-1] == "discarding an okey wins: no"


# --- --json -------------------------------------------------------------------


def test_json_is_the_check_hand_response_in_protobuf_json(check):
    result = check(*MELD_TILES, "--indicator", "R4", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["winning"] is True
    assert answer["kind"] == "WIN_KIND_MELDS"
    assert answer["okey"] == {"color": "COLOR_RED", "number": 5, "falseJoker": False, "copy": 0}
    assert answer["indicator"]["number"] == 4
    melds = answer["arrangement"]["melds"]
    assert len(melds) == 4
    assert sum(len(m["tiles"]) for m in melds) == 14
    assert answer["winningDiscards"] == []  # every field is printed, empty lists too


def test_json_losing_hand_prints_winning_false_and_every_default(check):
    hand = tiles("R1 R4 R8 R12 Y1 Y5 Y9 Y13 B2 B6 B10 K3 K7 K11")
    result = check(*hand, "--indicator", "K13", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["winning"] is False
    assert answer["kind"] == "WIN_KIND_UNSPECIFIED"
    assert answer["kinds"] == []
    assert answer["okeyDiscardWins"] is False
    assert "arrangement" not in answer  # a message field that is not set stays out


def test_no_arrangements_leaves_every_arrangement_out_of_a_fifteen_tile_answer(check):
    """omit_arrangements: the verdict and the discards stay, their arrangements go."""
    full = json.loads(check(*MELD_TILES, "R5", "--okey", "R5", "--json").stdout)
    lean = json.loads(
        check(*MELD_TILES, "R5", "--okey", "R5", "--json", "--no-arrangements").stdout
    )
    assert all("arrangement" in d for d in full["winningDiscards"])
    assert [d["tile"] for d in lean["winningDiscards"]] == [
        d["tile"] for d in full["winningDiscards"]
    ]
    assert all("arrangement" not in d for d in lean["winningDiscards"])
    assert len(json.dumps(lean)) * 5 < len(json.dumps(full))


# --- colour -------------------------------------------------------------------


def test_no_ansi_codes_when_stdout_is_not_a_terminal(check):
    result = check(*MELD_TILES, "--indicator", "R4")
    assert result.returncode == 0, result.stderr
    assert ANSI not in result.stdout
    assert ANSI not in result.stderr


def test_colour_coded_tiles_on_a_terminal(grpc_server):
    main, child = pty.openpty()
    try:
        process = subprocess.Popen(
            [*COMMAND, "hand", "check", *MELD_TILES, "--indicator", "R4", "--server", grpc_server],
            stdin=subprocess.DEVNULL,
            stdout=child,
            stderr=subprocess.PIPE,
            env=clean_env(),
        )
        os.close(child)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # EIO: the terminal's other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=RUN_DEADLINE_S) == 0
        process.stderr.close()  # type: ignore[union-attr]
    finally:
        os.close(main)
    output = b"".join(chunks).decode()
    assert "\x1b[31mR1\x1b[0m" in output  # red
    assert "\x1b[33mY5\x1b[0m" in output  # yellow
    assert "\x1b[34mB5\x1b[0m" in output  # blue
    assert "\x1b[90mK13\x1b[0m" in output  # black as bright black


# --- errors -------------------------------------------------------------------


def test_server_down_one_line_error_and_exit_3(closed_address):
    result = okey("hand", "check", *MELD_TILES, "--indicator", "R4", "--server", closed_address)
    assert result.returncode == 3
    assert result.stdout == ""
    assert result.stderr == f"okey: cannot reach okey server at {closed_address}\n"


def test_okey_server_environment_variable_names_the_server(grpc_server, closed_address):
    ok = okey(
        "hand", "check", *MELD_TILES, "--indicator", "R4", env=clean_env(OKEY_SERVER=grpc_server)
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[0] == "winning: melds"
    down = okey(
        "hand", "check", *MELD_TILES, "--indicator", "R4", env=clean_env(OKEY_SERVER=closed_address)
    )
    assert down.returncode == 3
    assert closed_address in down.stderr


@pytest.mark.parametrize(
    ("args", "field"),
    [
        pytest.param(
            [*MELD_TILES[:-1], "X13", "--indicator", "R4"],
            "hand_notation",
            id="rules_1-unknown-colour-letter",
        ),
        pytest.param(
            [*MELD_TILES[:-1], "K14", "--indicator", "R4"],
            "hand_notation",
            id="rules_1-number-above-13",
        ),
        pytest.param(
            [*MELD_TILES[:-1], "--indicator", "R4"], "hand_notation", id="rules_3-thirteen-tiles"
        ),
        pytest.param(
            [*MELD_TILES[:-3], "R1", "R1", "R1", "--indicator", "R4"],
            "hand_notation",
            id="rules_1-three-copies-of-a-tile",
        ),
        pytest.param(
            [*MELD_TILES, "--indicator", "F"], "indicator", id="rules_2-false-joker-indicator"
        ),
        pytest.param([*MELD_TILES, "--okey", "R0"], "okey", id="rules_1-okey-number-0"),
        pytest.param(
            [*MELD_TILES, "--indicator", "R4", "--preset", "nope"], "preset", id="unknown-preset"
        ),
    ],
)
def test_bad_input_one_line_naming_the_field_and_exit_2(check, args, field):
    result = check(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    # "okey: invalid input: <field path>: <description>"
    match = re.match(r"okey: invalid input: (\S+): ", result.stderr)
    assert match is not None, result.stderr
    assert match.group(1).startswith(field), result.stderr


def test_missing_indicator_and_okey_is_a_usage_error():
    result = okey("hand", "check", *MELD_TILES)
    assert result.returncode == 2
    assert "--indicator" in result.stderr
