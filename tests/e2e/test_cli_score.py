"""`okey score` through a subprocess against a real server (docs/play.md "okey score";
docs/rules.md §9).

Every number the CLI prints must be the server's: the tests read the printed
table back and compare it with the engine's own scoring of the same rounds
(okey_rules.scores.scoring), and check that bad input names the request field.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_score_helpers import (
    KEY,
    okey,
    read_state,
    round_rows,
    rule_lines_after,
    scores_row,
)
from okey_rules.ruleset import ColourDouble, Ruleset, preset
from okey_rules.scores.scoring import next_dealer, result_of_outcome, score_game, score_round
from okey_rules.scores.scoring_types import RoundResult, Table
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Color

pytestmark = pytest.mark.e2e

# One human turn of `okey play`: try to end (refused while the wall has tiles), draw,
# throw the drawn tile back; more turns than a round gives the human seat.
TURNS = "end\nd\nx\n" * 80


@pytest.fixture
def server(make_server) -> str:
    _, port = make_server(signing_key=KEY)
    return f"127.0.0.1:{port}"


def score(server: str, *args: str, stdin: str = ""):
    return okey("score", *args, "--server", server, stdin=stdin)


def test_one_round_prints_the_servers_scores_before_and_after(server):
    """§9.1-§9.2: seven pairs finished with an okey is 2 x2 x2 = 8, lost by each opponent
    of a countdown; a gösterme costs each of the claimant's opponents 1."""
    before = (12, 10, 14, 9)
    result = score(server, "round", "--winner", "1", "--kind", "pairs", "--okey-discard",
                   "--gosterme", "3", "--scores", ",".join(map(str, before)),
                   "--rounds-played", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    expected = score_round(
        Ruleset(), 4, Table(before, 2),
        RoundResult(drawn=False, winner=1, kind=WinKind.SEVEN_PAIRS, okey_discard=True,
                    gosterme=(3,)),
    )
    assert scores_row(out, "before") == before
    [row] = round_rows(out)
    assert row.number == 3
    assert row.deltas == expected.deltas
    assert row.totals == expected.table.scores
    assert rule_lines_after(out, 3) == [line.text for line in expected.lines]
    assert out.splitlines()[0].startswith("rules: countdown from 20;")
    assert "the game goes on after 3 rounds" in out
    totals = ",".join(map(str, expected.table.scores))
    assert f"next round: --scores={totals} --rounds-played 3" in out


def test_rule_options_and_a_game_over(server):
    """A target table (okey.gg preset) with the colour double: the winner gains 2 x2 for an
    all-red hand, reaches the target, and wins the game."""
    result = score(server, "round", "--preset", "okey.gg", "--winner", "2", "--kind", "melds",
                   "--colour", "red", "--colour-double", "red-or-black", "--target", "9",
                   "--scores", "3,4,5,0", "--rounds-played", "6")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    rules = preset("okey.gg").with_overrides(
        target_points=9, colour_double=ColourDouble.RED_OR_BLACK
    )
    expected = score_round(
        rules, 4, Table((3, 4, 5, 0), 6),
        RoundResult(drawn=False, winner=2, kind=WinKind.MELDS, one_colour=Color.RED),
    )
    assert expected.game_over
    [row] = round_rows(out)
    assert (row.deltas, row.totals) == (expected.deltas, expected.table.scores)
    assert out.splitlines()[0].startswith("rules: target 9:")
    assert "an all-red or all-black hand doubles" in out.splitlines()[0]
    assert "game over after 7 rounds: seat 2 wins" in out
    assert "next round:" not in out


def test_json_prints_every_field_of_the_answer(server):
    result = score(server, "round", "--drawn", "--mode", "penalty", "--players", "3",
                   "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    # §9.2 PENALTY: a stalled round costs every seat 1.
    assert answer["deltas"] == [1, 1, 1]
    assert answer["table"] == {"scores": [1, 1, 1], "roundsPlayed": 1}
    assert answer["ruleset"]["scoringMode"] == "SCORING_MODE_PENALTY"
    # Fields at their defaults are printed too.
    assert answer["gameOver"] is False
    assert answer["winnerSeats"] == []
    assert answer["nextDealerSeat"] == 0
    assert answer["roundValue"] == 0
    assert [line["rule"] for line in answer["lines"]] == ["SCORE_RULE_STALL"]


GAME = {
    "preset": "points-limit",
    "ruleset": {"startPoints": 6},
    "playerCount": 4,
    "rounds": [
        {"result": {"winnerSeat": 2, "winKind": "WIN_KIND_MELDS", "gostermeSeats": [0]}},
        {"result": {"drawn": True, "gostermeSeats": [1]}},
        {"result": {"winnerSeat": 0, "winKind": "WIN_KIND_MELDS", "okeyDiscard": True}},
    ],
}
GAME_RESULTS = [
    RoundResult(drawn=False, winner=2, kind=WinKind.MELDS, gosterme=(0,)),
    RoundResult(drawn=True, gosterme=(1,)),
    RoundResult(drawn=False, winner=0, kind=WinKind.MELDS, okey_discard=True),
]


def test_a_game_file_prints_the_running_table_and_the_result(server, tmp_path):
    file = tmp_path / "game.json"
    file.write_text(json.dumps(GAME))
    result = score(server, "game", str(file))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    rules = preset("points-limit").with_overrides(start_points=6)
    expected = score_game(rules, 4, GAME_RESULTS)
    assert scores_row(out, "start") == (6, 6, 6, 6)
    rows = round_rows(out)
    assert [row.number for row in rows] == [1, 2, 3]
    for row, scored in zip(rows, expected, strict=True):
        assert (row.deltas, row.totals, row.out) == (
            scored.deltas, scored.table.scores, scored.eliminated)
        assert rule_lines_after(out, row.number) == [line.text for line in scored.lines]
    last = expected[-1]
    assert last.game_over
    names = " and ".join(str(seat) for seat in last.winners)
    assert out.splitlines()[-1] == f"game over after 3 rounds: seats {names} win"


def test_a_game_file_from_stdin_as_json(server):
    result = score(server, "game", "-", "--json", stdin=json.dumps(GAME))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert len(answer["rounds"]) == 3
    assert answer["gameOver"] is True
    assert answer["table"]["roundsPlayed"] == 3
    assert answer["rounds"][1]["deltas"][1] == 0  # a drawn round: only the gösterme scores


def test_elimination_marks_the_seats_that_left(server, tmp_path):
    """§9.2 elimination: a seat at 0 or below leaves (its score stays, it pays no more);
    the game goes on while two seats are in, and the last one left wins."""
    game = {
        "ruleset": {"startPoints": 5, "elimination": True},
        "rounds": [
            {"result": {"winnerSeat": 0, "winKind": "WIN_KIND_SEVEN_PAIRS"}},
            {"result": {"winnerSeat": 1, "winKind": "WIN_KIND_MELDS"}},
            {"result": {"winnerSeat": 0, "winKind": "WIN_KIND_MELDS"}},
        ],
    }
    file = tmp_path / "game.json"
    file.write_text(json.dumps(game))
    result = score(server, "game", str(file))
    assert result.returncode == 0, result.stderr
    rows = round_rows(result.stdout)
    assert [row.out for row in rows] == [
        (False, False, False, False), (False, False, True, True), (False, True, True, True)
    ]
    assert [row.totals for row in rows] == [(5, 1, 1, 1), (3, 1, -1, -1), (3, -1, -1, -1)]
    assert result.stdout.splitlines()[-1] == "game over after 3 rounds: seat 0 wins"


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--winner", "4", "--kind", "melds"], "round.result.winner_seat"),
        (["--winner", "1"], "round.result.win_kind"),
        (["--winner", "1", "--kind", "kafa"], "round.result.win_kind"),
        (["--winner", "1", "--kind", "melds", "--start", "30"], "ruleset.start_points"),
        (["--drawn", "--scores=21,20,20,20"], "table.scores[0]"),
        (["--drawn", "--rounds-played", "2"], "table.scores"),
        (["--drawn", "--preset", "101"], "ruleset.game"),
        (["--drawn", "--preset", "nonesuch"], "preset"),
        (["--drawn", "--mode", "target", "--elimination"], "ruleset.elimination"),
        (["--drawn", "--partnership", "--players", "3"], "player_count"),
    ],
)
def test_invalid_input_is_one_line_naming_the_field_exit_2(server, args, field):
    result = score(server, "round", *args)
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    assert result.stderr.startswith(f"okey: invalid input: {field}: "), result.stderr
    assert result.stderr.count("\n") == 1


def test_an_error_keeps_its_letters(server):
    """Issue 21 point 8: the server's message is printed as written, "gösterme" and not
    "g\\xf6sterme"; five scores with no --players name the scores (point 9)."""
    result = score(server, "round", "--winner", "0", "--kind", "melds", "--gosterme", "1,1")
    assert result.returncode == 2, result.stdout
    assert result.stderr == (
        "okey: invalid input: round.result.gosterme_seats[1]: "
        "seat 1 shows gösterme once a round\n"
    )
    five = score(server, "round", "--drawn", "--scores", "20,20,20,20,20")
    assert five.returncode == 2, five.stdout
    assert five.stderr.startswith("okey: invalid input: table.scores: "), five.stderr


def test_a_bad_round_in_a_game_file_names_its_index(server, tmp_path):
    game = {"rounds": [{"result": {"drawn": True}},
                       {"result": {"winnerSeat": 9, "winKind": "WIN_KIND_MELDS"}}]}
    file = tmp_path / "game.json"
    file.write_text(json.dumps(game))
    result = score(server, "game", str(file))
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: rounds[1].result.winner_seat: ")


@pytest.mark.parametrize(
    "content", ['{"round": []}', "not json", '{"rounds": [{"result": {"drawn": "maybe"}}]}']
)
def test_an_unreadable_game_file_is_bad_input(server, tmp_path, content):
    file = tmp_path / "game.json"
    file.write_text(content)
    result = score(server, "game", str(file))
    assert result.returncode == 2
    assert result.stderr.startswith(f"okey: cannot read a ScoreGameRequest from {file}: ")


def test_a_missing_game_file_is_bad_input(server, tmp_path):
    result = score(server, "game", str(tmp_path / "none.json"))
    assert result.returncode == 2
    assert "cannot read a ScoreGameRequest" in result.stderr


def test_the_round_must_be_given(server):
    result = score(server, "round", "--kind", "melds")
    assert result.returncode == 2
    assert "one of the arguments --winner --drawn --state is required" in result.stderr


def play_one_round(server: str, tmp_path: Path, seed: str) -> Path:
    saved = tmp_path / f"{seed}.json"
    result = okey("play", "--seed", seed, "--rounds", "1", "--save-state", str(saved),
                  "--server", server, stdin=TURNS)
    assert result.returncode == 0, result.stderr
    assert saved.exists()
    return saved


def test_a_state_saved_by_play_is_scored_from_its_outcome(server, tmp_path):
    """The finished state carries its rules and outcome; the answer also names the next
    dealer (§9.4: the seat after this round's dealer) and the next round."""
    saved = play_one_round(server, tmp_path, "score-state")
    _, state = read_state(saved)
    assert state.outcome is not None
    seats = list(range(state.player_count))
    expected = score_round(state.rules, 4, None, result_of_outcome(state.outcome, state, seats))
    result = score(server, "round", "--state", str(saved))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    [row] = round_rows(out)
    assert (row.deltas, row.totals) == (expected.deltas, expected.table.scores)
    assert rule_lines_after(out, 1) == [line.text for line in expected.lines]
    start = Table((20,) * 4)
    dealer = next_dealer(state.rules, state.dealer, start, expected.table)
    assert f"next deal: round 2, dealer seat {dealer} " in out

    # The same state later in a game: the table before it is given.
    later = score(server, "round", "--state", str(saved), "--scores", "16,14,18,12",
                  "--rounds-played", "4", "--json")
    assert later.returncode == 0, later.stderr
    answer = json.loads(later.stdout)
    expected = score_round(state.rules, 4, Table((16, 14, 18, 12), 4),
                           result_of_outcome(state.outcome, state, seats))
    assert answer["deltas"] == list(expected.deltas)
    assert answer["table"]["scores"] == list(expected.table.scores)
    assert answer["nextRound"] == 2


def test_a_state_goes_without_rule_options_and_result_options(server, tmp_path):
    saved = play_one_round(server, tmp_path, "score-state-options")
    result = score(server, "round", "--state", str(saved), "--preset", "tournament")
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: preset: ")
    result = score(server, "round", "--state", str(saved), "--start", "10")
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: ruleset: ")
    result = score(server, "round", "--state", str(saved), "--kind", "melds")
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: --kind describes a result")


def test_a_state_sealed_by_another_server_is_refused(server, start_server_process, tmp_path):
    """A server opens only tokens sealed under its own keys (ERROR_REASON_UNKNOWN_KEY on
    the field). The other server is a separate okey-server process, as a deployment
    with another key would be."""
    saved = play_one_round(server, tmp_path, "other-key")
    other = start_server_process(
        "--port", "0", env={"OKEY_SIGNING_KEY": "another key, sixteen bytes or more"}
    )
    result = score(other.address, "round", "--state", str(saved))
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: round.state")


def test_a_state_file_without_a_token_is_bad_input(server, tmp_path):
    """The CLI reads a saved state as base64 under "state" (or the base64 alone) and sends
    it unopened; a file that holds none is refused before any call, exit 2."""
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps({"state": {"phase": "PHASE_ROUND_OVER"}}))
    result = score(server, "round", "--state", str(saved))
    assert result.returncode == 2
    assert result.stderr.startswith("okey: cannot read a game state from ")
    saved.write_text(json.dumps({"state": "not base64!"}))
    result = score(server, "round", "--state", str(saved))
    assert result.returncode == 2
    assert "the state is not base64" in result.stderr
    # Base64 of bytes that are no token: the server refuses it, naming the field.
    saved.write_text(json.dumps({"state": "AAAA"}))
    result = score(server, "round", "--state", str(saved))
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: round.state")
