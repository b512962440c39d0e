"""`okey play` plays whole games: every round scored by ScoreRound, dealt by the dealer and
round number it gives, from seeds derived from the game's seed (docs/play.md "Whole
games"; docs/rules.md §9.2, §9.4).

The human seat is scripted on stdin and never finishes (it throws back every tile
it draws), so the bots decide each round. The games are kept short: countdown
from 5, and a fixed number of rounds as a backstop. The finished states saved
with --save-game (sealed tokens) are opened with the test key to check the deal of each round
and the printed table against the engine's own scoring.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_score_helpers import KEY, okey, read_game, round_rows, seeded_id
from okey_rules.play.game_types import GameState
from okey_rules.scores.scoring import (
    next_dealer,
    result_of_outcome,
    score_round,
    seats_in_game,
    start_table,
)
from okey_rules.scores.scoring_types import RoundScore, Table

pytestmark = pytest.mark.e2e

# One human turn: try to end (refused while the wall has tiles), draw, throw the drawn
# tile back. Enough turns for every round of the games below (a round gives the human
# at most ~40 turns; the games last at most 8 rounds).
TURNS = "end\nd\nx\n" * 400
SHORT_GAME = ("--start", "5", "--game-rounds", "8")


@pytest.fixture
def server(make_server) -> str:
    _, port = make_server(signing_key=KEY)
    return f"127.0.0.1:{port}"


def play(server: str, tmp_path: Path, *args: str, stdin: str = TURNS):
    game_file = tmp_path / "game.json"
    result = okey("play", *args, "--server", server, "--save-game", str(game_file),
                  stdin=stdin)
    return result, game_file


def engine_game(states: list[GameState], players: int) -> list[RoundScore]:
    """The engine's scoring of the saved rounds, each state's seats mapped to the table's
    seats still in the game (§9.4)."""
    rules = states[0].rules
    table = start_table(rules, players)
    scored = []
    for state in states:
        assert state.outcome is not None
        result = result_of_outcome(state.outcome, state, seats_in_game(rules, table))
        scored.append(score_round(rules, players, table, result))
        table = scored[-1].table
    return scored


def check_deals(states: list[GameState], seed: str, players: int, first_dealer: int) -> None:
    """§9.4: round n is numbered n, dealt to the seats still in the game, by the seat after
    the previous dealer among them; the seed of round n > 1 is SEED/round-n."""
    rules = states[0].rules
    table: Table = start_table(rules, players)
    dealer = first_dealer
    for number, state in enumerate(states, start=1):
        assert state.round == number
        assert state.player_count == len(seats_in_game(rules, table))
        assert state.dealer == dealer
        round_seed = seed if number == 1 else f"{seed}/round-{number}"
        assert state.deal_id == seeded_id(round_seed)
        assert state.outcome is not None
        result = result_of_outcome(state.outcome, state, seats_in_game(rules, table))
        after = score_round(rules, players, table, result).table
        dealer = next_dealer(rules, state.dealer, table, after)
        table = after


def listed(seats: Sequence[int]) -> str:
    """``1 and 2``, ``0, 1 and 3``."""
    return f"{', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def final_table(out: str) -> str:
    assert "== final table\n" in out
    return out.split("== final table\n", 1)[1]


def test_a_whole_game_plays_to_its_end_and_its_table_is_scoregames(server, tmp_path):
    seed = "whole-game"
    result, game_file = play(server, tmp_path, "--seed", seed, "--dealer", "2", *SHORT_GAME)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    request, states = read_game(game_file)
    assert request.player_count == 4
    check_deals(states, seed, 4, first_dealer=2)
    expected = engine_game(states, 4)
    assert expected[-1].game_over, "the game was played to its end"

    # The final table is exactly what `okey score game` prints for the saved game.
    rescored = okey("score", "game", str(game_file), "--server", server)
    assert rescored.returncode == 0, rescored.stderr
    tail = final_table(out)
    assert tail.startswith(rescored.stdout)
    # ... and its numbers are the engine's.
    rows = round_rows(rescored.stdout)
    assert [(r.deltas, r.totals, r.out) for r in rows] == [
        (s.deltas, s.table.scores, s.eliminated) for s in expected
    ]
    winners = expected[-1].winners
    names = (f"seat {winners[0]} wins" if len(winners) == 1
             else f"seats {listed(winners)} win")
    assert f"game over after {len(states)} rounds: {names}" in tail
    last_line = tail.splitlines()[-1]
    assert last_line.startswith("you (seat 0) ")
    assert last_line.endswith("did not win") == (0 not in winners)

    # After each round its row is printed as the round ends, with the same numbers.
    for number in range(1, len(states) + 1):
        assert f"== round {number}\n" in out
        assert f"scores after round {number}:\n" in out
    printed = round_rows(out.split("== final table\n", 1)[0])
    assert printed == rows
    # Every deal's seed is printed with the way to deal it again alone.
    for number in range(2, len(states) + 1):
        assert f"seed {seed}/round-{number} (play this deal again with --seed " \
               f"{seed}/round-{number} --players 4 --dealer " in out


def test_rounds_1_plays_one_scored_round(server, tmp_path):
    result, game_file = play(server, tmp_path, "--seed", "one-round", "--rounds", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    _, states = read_game(game_file)
    assert len(states) == 1
    [expected] = engine_game(states, 4)
    [row] = round_rows(out)
    assert (row.deltas, row.totals) == (expected.deltas, expected.table.scores)
    assert "one round (--rounds 1): it is scored, and the game stops after it" in out
    assert out.rstrip().endswith("stopped after 1 round (--rounds 1): the game is not over")
    assert "== round 2" not in out


def test_the_game_ends_after_game_rounds(server, tmp_path):
    """§9.2 game_rounds: a penalty table ends only by its number of rounds."""
    result, game_file = play(server, tmp_path, "--seed", "penalty-game", "--preset", "penalty",
                             "--game-rounds", "2", "--players", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    _, states = read_game(game_file)
    assert len(states) == 2
    assert out.splitlines()[0].startswith("rules: penalty points from 0: the lowest total wins")
    expected = engine_game(states, 2)
    assert expected[-1].game_over
    assert "game over after 2 rounds: " in final_table(out)


def test_end_of_input_mid_game_leaves_it_with_the_table_so_far(server, tmp_path):
    # Enough input for the first round (the human gets at most ~13 turns of 4 seats), not
    # for a game from 20.
    result, game_file = play(server, tmp_path, "--seed", "left", stdin="end\nd\nx\n" * 30)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    _, states = read_game(game_file)
    assert states, "at least the first round was played and saved"
    assert "quit: the round is left unfinished" in out
    assert out.rstrip().endswith(f"the game is left unfinished after {len(states)} "
                                 f"{'round' if len(states) == 1 else 'rounds'}")
    assert "== final table" not in out


def test_rules_no_table_can_score_are_refused_before_dealing(server, tmp_path):
    result, game_file = play(server, tmp_path, "--partnership", "--players", "3")
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: player_count: ")
    assert "== round" not in result.stdout
    assert not game_file.exists()


def test_a_seed_too_long_for_the_derived_seeds_is_refused(server, tmp_path):
    result, _ = play(server, tmp_path, "--seed", "s" * 250)
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: --seed: at most ")
    single, _ = play(server, tmp_path, "--seed", "s" * 250, "--rounds", "1", stdin="q\n")
    assert single.returncode == 0, single.stderr


ELIMINATION_SEEDS = [f"elim-{n}" for n in range(1, 7)]


def test_elimination_deals_the_seats_left_and_names_them_by_table_seat(server, tmp_path):
    """§9.2 elimination, §9.4: once seats have left, a round is dealt to the seats still in
    the game, in order; the CLI prints them by their table seats. The human seat never
    finishes, so it is among the first to leave; the bots then play on alone and only
    the public moves are printed. Seeds are tried in turn (a bounded list) until one
    gives such a game."""
    for seed in ELIMINATION_SEEDS:
        result, game_file = play(server, tmp_path, "--seed", seed, "--start", "5",
                                 "--elimination")
        assert result.returncode == 0, result.stderr
        _, states = read_game(game_file)
        if any(state.player_count < 4 for state in states):
            break
    else:
        pytest.fail(f"none of {ELIMINATION_SEEDS} deals a round after a seat has left")
    out = result.stdout
    check_deals(states, seed, 4, first_dealer=0)
    expected = engine_game(states, 4)
    assert expected[-1].game_over
    assert len(expected[-1].winners) == 1
    rescored = okey("score", "game", str(game_file), "--server", server)
    assert final_table(out).startswith(rescored.stdout)

    rules = states[0].rules
    table = start_table(rules, 4)
    blocks = re.split(r"^== round \d+\n", out, flags=re.MULTILINE)[1:]
    assert len(blocks) == len(states)
    for block, state, scored in zip(blocks, states, expected, strict=True):
        in_game = seats_in_game(rules, table)
        round_text = block.split("scores after round", 1)[0]
        # Every seat named in the round's moves is a table seat still in the game.
        named = {int(n) for n in re.findall(r"^seat (\d+) (?:drew|discarded|finished|showed)",
                                            round_text, re.MULTILINE)}
        assert named <= set(in_game), (named, in_game)
        if len(in_game) < 4:
            assert f"{len(in_game)} players (table seats {listed(in_game)})" in round_text
        if 0 not in in_game:
            assert "you have left the game: the bots play on" in round_text
            assert "your rack" not in round_text
            assert "seat 0> " not in round_text
            # §8.7: nobody's wall draw shows its tile to a seat that is not playing.
            for line in round_text.splitlines():
                if " drew" in line:
                    assert re.fullmatch(r"seat \d drew from the wall", line), line
        if state.outcome is not None and not state.outcome.drawn:
            winner = in_game[state.outcome.winner]
            assert re.search(rf"round over at move \d+: seat {winner} wins", round_text)
        table = scored.table
