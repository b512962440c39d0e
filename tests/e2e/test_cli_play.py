"""`okey play` through a subprocess against a real server (docs/play.md; docs/rules.md §8).

These tests play single rounds (`--rounds 1`); test_cli_play_game.py plays whole games.
The human seat is scripted on stdin: each turn it first tries to end the round
(refused while the wall has tiles), then draws and throws the drawn tile back
(`x` with no tile). The round's final state, saved with --save-state as the
sealed token the CLI carries, is opened here with the server's key to check
what the CLI printed against what it must never print: the other seats' racks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from cli_score_helpers import read_saved_state
from okey.v1 import state_pb2
from okey_rules import format_tile
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_fairness import seeded_deal_id
from okey_rules.play.game_types import GameState
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import TILE_OF_CODE
from okey_server.wire.convert_state import classic_state_from_token
from okey_server.wire.sealing import key_ring

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
RUN_DEADLINE_S = 120  # a bound for a whole round to finish, not a timing assertion
KEY = b"cli play test key"  # the key of `play_server`, so the test can read the final state
# One human turn: try to end (refused while the wall has tiles), draw, throw the drawn tile.
TURN = "end\nd\nx\n"
# More turns than any round gives the human seat (the wall holds at most 77 tiles).
TURNS = TURN * 80
RACK_LINE = re.compile(r"^your rack \((\d+)\): (.*)$")


@pytest.fixture
def play_server(make_server) -> str:
    _, port = make_server(signing_key=KEY)
    return f"127.0.0.1:{port}"


def okey_play(
    address: str, tmp_path: Path, *args: str, stdin: str
) -> tuple[subprocess.CompletedProcess[str], GameState | None]:
    """Runs `okey play --rounds 1` and returns its result and the final state it saved (None
    if none)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["NO_COLOR"] = "1"
    saved = tmp_path / "final.json"
    result = subprocess.run(
        [*COMMAND, "play", "--rounds", "1", *args, "--server", address,
         "--save-state", str(saved)],
        capture_output=True, text=True, input=stdin, env=env, timeout=RUN_DEADLINE_S,
        check=False,
    )
    if not saved.exists():
        return result, None
    token, status = read_saved_state(saved)
    state = classic_state_from_token(token, KEY)
    # The public facts saved beside the token are the state's own.
    assert status.round_over
    assert status.phase == state_pb2.PHASE_ROUND_OVER
    assert status.move_number == state.move_number
    return result, state


def names(codes) -> list[str]:
    return [format_tile(TILE_OF_CODE[c]) for c in codes]


# A bot takes a discard only from an empty wall's end, to finish with it (§8.5).
TOOK_FROM_HUMAN = re.compile(r"^seat \d took (\S+) from your pile$", re.MULTILINE)


def held_by_human(state: GameState, human: int, out: str) -> Counter[str]:
    """Every tile the human's seat ever held, by face: its rack, its pile, a winning
    discard, and any of its discards a bot took to finish with (the only other way a tile
    leaves the seat)."""
    seat = state.seats[human]
    held = [*seat.rack, *seat.discards]
    if state.outcome is not None and not state.outcome.drawn and state.outcome.winner == human:
        held.append(state.outcome.discard)
    return Counter(names(held)) + Counter(TOOK_FROM_HUMAN.findall(out))


def assert_no_other_rack_shown(out: str, state: GameState, human: int) -> None:
    """The only rack printed is the human's: every rack line holds only tiles the human's
    seat held (no more copies of a face than it held), and no other seat's rack appears."""
    held = held_by_human(state, human, out)
    rack_lines = [m for line in out.splitlines() if (m := RACK_LINE.match(line))]
    assert rack_lines, "the human's rack is shown"
    for match in rack_lines:
        shown = match.group(2).split()
        assert len(shown) == int(match.group(1))
        assert not Counter(shown) - held, f"a tile the human never held: {match.group(0)}"
    outcome = state.outcome
    for seat, held_seat in enumerate(state.seats):
        if seat == human or (outcome is not None and not outcome.drawn and
                             outcome.winner == seat):
            continue  # a winner's 14 tiles are shown to everyone (§8.7)
        text = " ".join(names(sorted(held_seat.rack, key=lambda c: TILE_OF_CODE[c])))
        assert text not in out


def assert_private_draws_hidden(out: str, state: GameState, human: int) -> None:
    """§8.7: another seat's wall draw is announced without its tile; the human's own
    draws show the tile it drew."""
    for line in out.splitlines():
        if re.match(r"^seat \d drew", line):
            assert re.fullmatch(r"seat \d drew from the wall", line), line
    own = [line for line in out.splitlines() if line.startswith("you drew ")]
    assert len(own) == state.seats[human].draws
    held = held_by_human(state, human, out)
    assert all(line.split()[2] in held for line in own)
    # §8.5: a bot takes a discard only once the wall is empty, and then finishes with it.
    takers = {int(s) for s in re.findall(r"^seat (\d) took", out, re.MULTILINE)}
    if takers:
        outcome = state.outcome
        assert not state.wall
        assert outcome is not None
        assert not outcome.drawn
        assert takers == {outcome.winner}


def assert_outcome_printed(out: str, state: GameState, human: int) -> None:
    outcome = state.outcome
    assert outcome is not None
    head = f"round over at move {outcome.move_number}: "
    if outcome.drawn:
        assert head + "drawn, no winner (the wall ran out)" in out
    else:
        winner = "you win" if outcome.winner == human else f"seat {outcome.winner} wins"
        assert head + winner in out
        assert f"winning hand (14): {' '.join(names(outcome.hand))}" in out
        assert f"finishing discard: {names([outcome.discard])[0]}" in out


def a_face_not_held(seed: str, players: int, human: int) -> str:
    """A face the human's seat holds in no copy after its first draw: its dealt rack and
    the first wall tiles (it draws one of the first `players` wall tiles)."""
    dealt = deal(Ruleset(), players, 0, seed=seed)
    near = {*names(dealt.racks[human]), *names(dealt.wall[:players])}
    return next(n for n in (f"{c}{k}" for c in "RYBK" for k in range(1, 14)) if n not in near)


@pytest.mark.parametrize(("seed", "players"), [("1", 2), ("play-e2e", 4)])
def test_a_scripted_round_plays_to_its_end_showing_only_the_human_seat(
    play_server, tmp_path, seed, players
):
    missing = a_face_not_held(seed, players, human=0)
    # Seat 0 is the dealer: seat 1 opens, so seat 0 starts in the draw phase.
    opening = f"x R7\nend\nbogus\nx R14\n?\nd\nd\nx {missing}\nx\n"
    result, state = okey_play(
        play_server, tmp_path, "--seed", seed, "--players", str(players), stdin=opening + TURNS
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert f"seed {seed} " in out
    assert state is not None, "a finished round saves its state"
    # Illegal moves are answers: the server's reason and message, then the next command.
    assert "illegal move (MUST_DRAW_FIRST): draw from the wall or take" in out
    assert "illegal move (WALL_NOT_EMPTY): the round ends this way only when the wall" in out
    assert "illegal move (MUST_DISCARD_FIRST): " in out
    assert f"illegal move (TILE_NOT_IN_RACK): {missing} (copy 0) is not in seat 0's rack" in out
    assert "unknown command 'bogus'" in out
    assert "not a tile: 'R14'" in out
    assert "legal: draw\nlegal: take\n" in out
    assert_outcome_printed(out, state, human=0)
    assert_no_other_rack_shown(out, state, human=0)
    assert_private_draws_hidden(out, state, human=0)


def test_the_opening_seat_discards_without_drawing(play_server, tmp_path):
    """§8.1: seat dealer + 1 opens by discarding; `x` alone throws its last dealt tile."""
    seed = "opening"
    last_dealt = names(deal(Ruleset(), 3, 0, seed=seed).racks[1])[-1]
    result, state = okey_play(
        play_server, tmp_path, "--seed", seed, "--players", "3", "--seat", "1",
        stdin="d\nx\n" + TURNS,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "your turn: open the round by discarding a tile (no draw)" in out
    assert "illegal move (MUST_DISCARD_FIRST): " in out
    assert f"you discarded {last_dealt}\n" in out
    assert state is not None
    assert names(state.seats[1].discards)[0] == last_dealt
    assert_outcome_printed(out, state, human=1)
    assert_no_other_rack_shown(out, state, human=1)
    assert_private_draws_hidden(out, state, human=1)


def test_end_of_input_quits_cleanly_without_finishing(play_server, tmp_path):
    result, state = okey_play(play_server, tmp_path, "--seed", "eof", stdin="?\n")
    assert result.returncode == 0, result.stderr
    assert "quit: the round is left unfinished" in result.stdout
    assert "round over" not in result.stdout
    assert state is None, "an unfinished round's state (every rack) is not written"


def test_quit_leaves_at_once(play_server, tmp_path):
    result, _ = okey_play(play_server, tmp_path, "--seed", "q", stdin="quit\n" + TURNS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("seat 0> ") == 1


def test_without_a_seed_the_server_draws_one_and_prints_it(play_server, tmp_path):
    result, _ = okey_play(play_server, tmp_path, stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^seed [0-9a-f]{64} \(play this deal again with --seed", result.stdout,
                     re.MULTILINE)


def test_the_round_header_names_the_seeded_deal_by_its_keyed_id(play_server, tmp_path):
    """A view carries no deal id, only a seeded deal's keyed id (HMAC of the seed under the
    server's key): the header prints it under the seed."""
    result, _ = okey_play(play_server, tmp_path, "--seed", "header", stdin="q\n")
    assert result.returncode == 0, result.stderr
    expected = seeded_deal_id(key_ring(KEY).current.seeded_id_key, "header")
    lines = result.stdout.splitlines()
    at = lines.index("seed header (play this deal again with --seed header)")
    assert lines[at + 1] == f"seeded deal, id {expected}"


@pytest.mark.parametrize(
    "args", [["--seat", "4"], ["--players", "5"], ["--seat", "2", "--players", "2"]]
)
def test_a_seat_or_player_count_out_of_range_is_bad_input(play_server, tmp_path, args):
    result, _ = okey_play(play_server, tmp_path, "--seed", "1", *args, stdin="")
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: --")


def test_no_server_is_exit_3(tmp_path):
    result, _ = okey_play("127.0.0.1:1", tmp_path, "--seed", "1", "--timeout", "2", stdin="")
    assert result.returncode == 3
    assert "cannot reach okey server" in result.stderr


def seed_with_twin_at(holder: int, players: int = 4) -> tuple[str, str]:
    """A seed whose deal gives `holder` the indicator's twin (the tile gösterme shows, §8.3),
    and that tile's notation. Searched over a bounded range of seeds."""
    for n in range(300):
        seed = f"twin-{n}"
        dealt = deal(Ruleset(), players, 0, seed=seed)
        face = dealt.indicator % 53
        twin = face if dealt.indicator >= 53 else face + 53
        if twin in dealt.racks[holder]:
            return seed, names([twin])[0]
    raise AssertionError(f"no seed in range deals the twin to seat {holder}")


def test_the_human_shows_gosterme_once_and_the_outcome_lists_it(play_server, tmp_path):
    """§8.3: before its first draw a seat holding the indicator's twin may show it, once."""
    seed, twin = seed_with_twin_at(0)
    result, state = okey_play(play_server, tmp_path, "--seed", seed, stdin="g\ng\n" + TURNS)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "you may show gosterme (g): you hold the indicator's twin" in out
    assert f"you showed gosterme: {twin}\n" in out
    assert "illegal move (GOSTERME_ALREADY_SHOWN): " in out
    assert state is not None
    assert f"gosterme: you ({twin})" in out


def test_a_bot_holding_the_twin_shows_gosterme_on_its_turn(play_server, tmp_path):
    seed, twin = seed_with_twin_at(2)
    result, state = okey_play(play_server, tmp_path, "--seed", seed, stdin="g\n" + TURNS)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"seat 2 showed gosterme: {twin}\n" in out
    assert "illegal move (GOSTERME_WITHOUT_TILE): " in out
    assert f"gosterme: seat 2 ({twin})" in out
    assert state is not None
    assert state.seats[2].gosterme
