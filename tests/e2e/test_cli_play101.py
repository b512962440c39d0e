"""`okey play --game 101` through a subprocess against a real server (docs/play.md,
"Okey 101"; docs/rules.md §10).

Games are kept short with --game-rounds. The finished states saved with --save-game (the
sealed tokens the CLI carries) are opened with the test key the server seals with, to
check what the CLI printed against the rounds as they were: the scores (the engine's
§10.7 scoring of each state), the outcome, the penalties, and that no rack but the human
seat's was shown.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from cli_score_helpers import KEY, okey, round_rows, seeded_id
from google.protobuf import json_format
from okey.v1 import hand_pb2, scoring_pb2
from okey_rules.dealing.deal import deal
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import RoundEnd
from okey_rules.ruleset import Game, Ruleset
from okey_rules.scores.scoring101 import score_round_101
from okey_rules.scores.scoring_types import Table
from okey_rules.search.opening import best_opening
from okey_rules.tiles import TILE_OF_CODE, format_tile, okey_for
from okey_server.wire.convert_state import state_from_token

pytestmark = pytest.mark.e2e

RACK_LINE = re.compile(r"^your rack \((\d+)\): (.*)$", re.MULTILINE)
# One human turn that only draws and throws the tile received last (the dealer's first
# `d` is refused: it opens by discarding). More than any game below needs.
DRAW_DISCARD = "d\nx\n" * 60
AUTO = "auto\n" * 60


@pytest.fixture
def server(make_server) -> str:
    _, port = make_server(signing_key=KEY)
    return f"127.0.0.1:{port}"


def play(server: str, tmp_path: Path, *args: str, stdin: str):
    game_file = tmp_path / "game.json"
    result = okey("play", "--game", "101", *args, "--server", server,
                  "--save-game", str(game_file), stdin=stdin)
    return result, read_game(game_file) if game_file.exists() else []


def read_game(path: Path) -> list[State101]:
    """Each round's finished state of a game saved by --save-game, opened."""
    request = json_format.Parse(path.read_text(), scoring_pb2.ScoreGameRequest())
    assert request.player_count == 4
    states = [state_from_token(entry.state, KEY) for entry in request.rounds]
    assert all(isinstance(state, State101) for state in states)
    return states  # type: ignore[return-value]


def names(codes) -> list[str]:
    return [format_tile(TILE_OF_CODE[c]) for c in codes]


def sorted_rack(codes) -> str:
    return " ".join(names(sorted(codes, key=lambda c: TILE_OF_CODE[c])))


def engine_scores(states: list[State101]):
    """§10.7: each saved round scored by the engine against the table before it."""
    table = Table((0, 0, 0, 0))
    scored = []
    for state in states:
        score = score_round_101(state, table)
        scored.append(score)
        table = score.table
    return scored


def round_blocks(out: str) -> list[str]:
    """The output of each round, from its header to its scores."""
    body = out.split("== final table\n", 1)[0]
    return re.split(r"^== round \d+\n", body, flags=re.MULTILINE)[1:]


def assert_only_the_human_rack_shown(block: str, state: State101, human: int,
                                     held: Counter[str]) -> None:
    """Every rack line holds only tiles the human's seat held; the last is its final rack;
    no rack line is another seat's final rack; another seat's bank draw shows no tile."""
    lines = RACK_LINE.findall(block)
    assert lines, "the human's rack is shown"
    for count, text in lines:
        shown = text.split()
        assert len(shown) == int(count)
        assert not Counter(shown) - held, f"a tile the human never held: {text}"
    assert lines[-1][1] == sorted_rack(state.seats[human].rack)
    shown_racks = {text for _, text in lines}
    for seat, other in enumerate(state.seats):
        if seat != human:
            assert sorted_rack(other.rack) not in shown_racks, f"seat {seat}'s rack"
    for line in block.splitlines():
        if re.match(r"^seat \d drew", line):
            assert re.fullmatch(r"seat \d drew from the bank", line), line


def assert_scores_printed(out: str, states: list[State101]) -> None:
    expected = engine_scores(states)
    printed = round_rows(out.split("== final table\n", 1)[0])
    assert [(r.deltas, r.totals) for r in printed] == [
        (s.deltas, s.table.scores) for s in expected
    ]
    for number in range(1, len(states) + 1):
        assert f"scores after round {number}:\n" in out


def assert_outcome_printed(block: str, state: State101, human: int) -> None:
    outcome = state.outcome
    assert outcome is not None
    head = f"round over at move {outcome.move_number}: "
    if outcome.drawn:
        assert head + "the bank ran out, nobody finished" in block
    elif outcome.end is RoundEnd.VOID:
        assert head + "void (all four opened with pairs)" in block
    else:
        who = "you" if outcome.winner == human else f"seat {outcome.winner}"
        assert f"{head}{who} finished" in block


def assert_penalties_printed(block: str, state: State101, human: int) -> None:
    """§10.5: each penalty is printed as it happens, as many as the state records."""
    for seat, held in enumerate(state.seats):
        who = "you" if seat == human else f"seat {seat}"
        printed = re.findall(rf"^penalty: {who}, .*: 101 points$", block, re.MULTILINE)
        assert len(printed) == len(held.penalties), (seat, held.penalties)


def test_a_drawing_human_plays_a_101_game_to_its_end(server, tmp_path):
    """The human seat (1) draws and throws back; before that it tries moves the server
    refuses, each printed with the server's reason."""
    seed = "play101-draw"
    probes = ("layoff R5 0\nd\nlayoff R5 0\nmeld R1 R2 R3\nback\nr\nbogus\nopen R14\n"
              "best\n?\nx\n")
    result, states = play(server, tmp_path, "--seed", seed, "--seat", "1",
                          "--game-rounds", "2", stdin=probes + DRAW_DISCARD)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.splitlines()[0] == (
        "rules: Okey 101: points are bad, the lowest total wins; the game ends after 2 "
        "rounds; an exhausted bank scores the racks; no variants")
    assert "illegal move (MUST_DRAW_FIRST): " in out
    assert "illegal move (NOT_OPENED): open first" in out
    assert "illegal move (NOTHING_TO_TAKE_BACK): " in out
    assert "illegal move (NO_DISCARD_TO_RETURN): " in out
    assert "unknown command 'bogus'" in out
    assert "not a tile: 'R14'" in out
    assert re.search(r"^melds: \d+ points.*\(101 needed\)$", out, re.MULTILINE)
    # Before laying anything, with nothing taken: LegalMoves offers only the discards.
    listed = out.split("seat 1> ?\n", 1)[1].split("seat 1> ", 1)[0].splitlines()
    assert listed[0].startswith("legal: discard ")
    assert listed[1] == ("openings and new melds are not listed (too many): "
                         "best shows the best of your rack")

    assert len(states) == 2
    for number, state in enumerate(states, start=1):
        assert state.round == number
        assert state.dealer == number - 1  # the seat after the last dealer deals
        round_seed = seed if number == 1 else f"{seed}/round-{number}"
        assert state.deal_id == seeded_id(round_seed)
        # The header names the deal as the view does: its seed and keyed id.
        assert f"seeded deal, id {seeded_id(round_seed)}" in out
    assert_scores_printed(out, states)
    blocks = round_blocks(out)
    assert len(blocks) == 2
    rules = Ruleset(game=Game.OKEY_101, game_rounds=2)
    for number, (block, state) in enumerate(zip(blocks, states, strict=True), start=1):
        dealt = deal(rules, 4, state.dealer,
                     seed=seed if number == 1 else f"{seed}/round-{number}")
        assert state.rules == dealt.rules
        # The human only drew and discarded: it held its dealt rack and bank tiles.
        human = state.seats[1]
        held = Counter(names([*human.rack, *human.discards]))
        assert held == Counter(names(dealt.racks[1])) + Counter(
            names(c for c in dealt.wall if c in (*human.rack, *human.discards)))
        assert_only_the_human_rack_shown(block, state, 1, held)
        assert_outcome_printed(block, state, 1)
        assert_penalties_printed(block, state, 1)
    final = out.split("== final table\n", 1)[1]
    winners = engine_scores(states)[-1].winners
    assert "game over after 2 rounds: " in final
    last = final.rstrip().splitlines()[-1]
    assert last.startswith("you (seat 1) ")
    assert last.endswith("did not win") == (1 not in winners)


def test_auto_lets_the_policy_play_the_human_seat(server, tmp_path):
    """`auto` plays the human's turns by the bots' policy: openings, melds and lay-offs
    show in the human's view; every round is scored as the engine scores it; the saved
    game scores again to the same table (`okey score game`)."""
    result, states = play(server, tmp_path, "--seed", "play101-auto", "--game-rounds", "2",
                          stdin=AUTO)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert len(states) == 2
    assert_scores_printed(out, states)
    assert re.search(r"^you opened with ", out, re.MULTILINE), "the human seat opened"
    assert re.search(r"^  \[0\] your (run|set|pair): ", out, re.MULTILINE)
    for block, state in zip(round_blocks(out), states, strict=True):
        human = state.seats[0]
        table_tiles = [t.code for meld in state.table for t in meld.tiles]
        held = Counter(names([*human.rack, *human.discards, *table_tiles]))
        assert_only_the_human_rack_shown(block, state, 0, held)
        assert_outcome_printed(block, state, 0)
        assert_penalties_printed(block, state, 0)
    game_file = tmp_path / "game.json"
    rescored = okey("score", "game", str(game_file), "--server", server)
    assert rescored.returncode == 0, rescored.stderr
    assert out.split("== final table\n", 1)[1].startswith(rescored.stdout)


def dealer_rack_at_first_draw(seed: str) -> tuple[list, object]:
    """The dealer's (seat 0's) tiles at its first draw when it throws its last dealt tile
    (`x`) and then draws (`d`): the bots before it drew the bank's first three tiles
    (they never take a discard). Also the okey."""
    dealt = deal(Ruleset(game=Game.OKEY_101), 4, 0, seed=seed)
    tiles = [TILE_OF_CODE[c] for c in (*dealt.racks[0][:-1], dealt.wall[3])]
    return tiles, okey_for(TILE_OF_CODE[dealt.indicator])


def opening_seed(with_okey: bool = False) -> str:
    """A seed whose dealer can open at its first draw and keep a tile (with an okey in the
    opening, if asked). A bounded search."""
    rules = Ruleset(game=Game.OKEY_101)
    for n in range(100):
        seed = f"play101-open-{n}"
        tiles, okey = dealer_rack_at_first_draw(seed)
        found = best_opening(tiles, okey, rules)
        if found.opens and found.unused and (found.okeys_used or not with_okey):
            return seed
    raise AssertionError("no seed in range lets the dealer open at its first draw")


def test_open_best_and_take_back_cost_a_penalty_printed_as_it_happens(server, tmp_path):
    """`open best` lays BestOpening's melds; `back` takes them back (§10.5: several tiles
    cost 101); `open best` again. The penalty is printed as it happens and scored."""
    result, states = play(server, tmp_path, "--seed", opening_seed(), "--game-rounds", "1",
                          stdin="x\nd\nopen best\nback\nopen best\n" + AUTO)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("you opened with ") == 2
    assert "\nyou took back " in out
    assert "\npenalty: you, several tiles taken back: 101 points\n" in out
    [state] = states
    assert state.seats[0].penalties[0].value == "took back several tiles"
    assert_scores_printed(out, states)
    assert "  seat 0 pays 101: penalty, took back several tiles\n" in out


def test_open_with_melds_typed_out_an_okey_as_ok_face(server, tmp_path):
    """`open` with the melds typed (BestOpening's notation, as `okey hand opening` prints
    it: an okey as OK=FACE): the seat opens, no failed opening, and the table shows each
    okey with the face it was given."""
    seed = opening_seed(with_okey=True)
    tiles, okey = dealer_rack_at_first_draw(seed)
    answer = okey_cli("hand", "opening", *(format_tile(t) for t in tiles), "--okey",
                      format_tile(okey), "--json", server=server)
    opening = json_format.Parse(answer, hand_pb2.BestOpeningResponse())
    assert opening.opens
    melds = opening.arrangement.notation
    assert "OK=" in melds
    result, _ = play(server, tmp_path, "--seed", seed, "--game-rounds", "1",
                     stdin=f"x\nd\nopen {melds}\n" + AUTO)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"seat 0> open {melds}\nyou opened with " in out
    assert not re.search(r"^penalty: you, a failed opening", out, re.MULTILINE)
    for face in re.findall(r"OK=(\w+)", melds):  # the okey keeps the face typed
        assert re.search(rf"^  \[\d+\] your (run|set): .*OK={face}", out, re.MULTILINE)


def okey_cli(*args: str, server: str) -> str:
    result = okey(*args, "--server", server)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "101", "--kafa"], "--kafa is not an option of Okey 101"),
    (["--game", "101", "--preset", "okey.gg"], "--preset is not an option of Okey 101"),
    (["--game", "101", "--players", "3"], "--players: Okey 101 is played by 4"),
    (["--riziko"], "--riziko is an option of Okey 101 (--game 101)"),
])
def test_options_of_the_other_game_are_bad_input(server, args, message):
    result = okey("play", *args, "--server", server, stdin="q\n")
    assert result.returncode == 2
    assert result.stderr.startswith(f"okey: invalid input: {message}")
    assert "== round" not in result.stdout


def test_end_of_input_leaves_the_101_game_unfinished(server, tmp_path):
    result, states = play(server, tmp_path, "--seed", "play101-eof", stdin="s\n")
    assert result.returncode == 0, result.stderr
    assert "quit: the round is left unfinished" in result.stdout
    assert "3 rounds (the CLI's default for Okey 101" in result.stdout
    assert states == []
