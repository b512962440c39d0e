"""The bots' policy of `okey play` (docs/play.md, "How the other seats play"): it reads
only its seat's PlayerView and LegalMoves, and picks gösterme, then a win (an okey
discard first), then a wall draw, then the last discard of an empty wall (offered only
to finish with it), then END_ROUND, then the discard with the fewest connections (never
an okey, ties to the tile received last)."""

from __future__ import annotations

import pytest
from okey.v1 import game_pb2, tile_pb2
from okey_cli.play_human import parse_tile
from okey_cli.play_policy import (
    choose_discard,
    choose_move,
    connections,
    is_okey,
    play_face,
    run_gap,
)
from okey_rules.dealing.deal import deal
from okey_rules.play.game import apply_move, legal_moves, start_round
from okey_rules.play.game_view import player_view
from okey_rules.play.round_types import Phase
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import TILE_OF_CODE
from okey_server.wire.convert_game import move_from_proto, move_to_proto, view_to_proto

RED, YELLOW, BLUE, BLACK = (
    tile_pb2.COLOR_RED, tile_pb2.COLOR_YELLOW, tile_pb2.COLOR_BLUE, tile_pb2.COLOR_BLACK,
)


def tiles(text: str) -> list[tile_pb2.Tile]:
    """Tiles in notation; a face named twice is its second copy."""
    seen: dict[str, int] = {}
    result = []
    for word in text.split():
        tile = parse_tile(word)
        assert tile is not None, word
        tile.copy = seen.get(word, 0)
        seen[word] = tile.copy + 1
        result.append(tile)
    return result


def one(text: str, copy: int = 0) -> tile_pb2.Tile:
    tile = parse_tile(text)
    assert tile is not None
    tile.copy = copy
    return tile


def view(rack: str, okey: str = "Y8", runs_13_to_1: bool = True) -> game_pb2.PlayerViewResponse:
    answer = game_pb2.PlayerViewResponse(seat=0, player_count=4, rack=tiles(rack))
    answer.okey.CopyFrom(one(okey))
    answer.ruleset.runs_13_to_1 = runs_13_to_1
    return answer


def move(kind: int, tile: tile_pb2.Tile | None = None) -> game_pb2.Move:
    made = game_pb2.Move(kind=kind, seat=0)
    if tile is not None:
        made.tile.CopyFrom(tile)
    return made


def discards(rack: str) -> list[game_pb2.Move]:
    """LegalMoves' DISCARD moves for a rack: one per tile, in rack order."""
    return [move(game_pb2.MOVE_KIND_DISCARD, t) for t in tiles(rack)]


def faces(text: str) -> list[tuple[int, int]]:
    return [(t.color, t.number) for t in tiles(text)]


# --- connections ---------------------------------------------------------------


def test_same_number_in_another_colour_connects_as_a_set():
    assert connections((RED, 7), faces("Y7 B7 K7"), runs_13_to_1=True) == 3


def test_same_colour_one_or_two_away_connects_as_a_run_three_away_does_not():
    assert connections((RED, 7), faces("R5 R6 R8 R9 R4 R10"), runs_13_to_1=True) == 4


def test_a_second_copy_of_the_same_face_does_not_connect():
    assert connections((RED, 7), faces("R7"), runs_13_to_1=True) == 0


def test_neighbours_count_once_per_face_not_per_copy():
    assert connections((RED, 7), faces("R6 R6 Y7 Y7"), runs_13_to_1=True) == 2


def test_other_colour_other_number_does_not_connect():
    assert connections((RED, 7), faces("Y6 B8 K5"), runs_13_to_1=True) == 0


def test_one_follows_thirteen_only_with_12_13_1_runs():
    """docs/rules.md §3.2: 12-13-1 is a run where runs_13_to_1 is on."""
    assert connections((RED, 1), faces("R13 R12"), runs_13_to_1=True) == 2
    assert connections((RED, 1), faces("R13 R12"), runs_13_to_1=False) == 0
    assert run_gap(13, 1, runs_13_to_1=True) == 1
    assert run_gap(12, 1, runs_13_to_1=True) == 2


def test_two_and_thirteen_never_connect():
    """§3.2: 13-1-2 is never a run, so 2 and 13 are not two apart."""
    assert connections((RED, 2), faces("R13"), runs_13_to_1=True) == 0


def test_a_false_joker_plays_as_the_okey_face_and_an_okey_is_wild():
    okey = one("Y8")
    assert play_face(one("F"), okey) == (YELLOW, 8)
    assert is_okey(one("Y8", copy=1), okey)
    assert not is_okey(one("F"), okey)
    assert not is_okey(one("Y9"), okey)


# --- the discard ----------------------------------------------------------------


def test_discards_the_tile_with_fewest_connections():
    # K8 connects to nothing; every other tile has at least one neighbour.
    rack = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 B12 B13 Y1 K1 K8 B2"
    chosen = choose_move(view(rack), discards(rack))
    assert chosen is not None
    assert (chosen.tile.color, chosen.tile.number) == (BLACK, 8)


def test_never_discards_an_okey_even_when_it_connects_to_nothing():
    # Okey R5: the R5 tiles are wild, have no scored neighbours, and must stay.
    rack = "R5 R5 K11 K12 K13 Y1 Y2 Y3 B7 B8 B9 R10 Y10 B10 K1"
    chosen = choose_discard(view(rack, okey="R5"), tiles(rack))
    assert not is_okey(chosen, one("R5"))


def test_only_okeys_offered_then_an_okey_is_discarded():
    """The fallback: with no other tile to throw, the policy still answers."""
    chosen = choose_discard(view("R5 R5", okey="R5"), tiles("R5 R5"))
    assert is_okey(chosen, one("R5"))


def test_a_false_joker_is_kept_when_the_okey_face_connects():
    # Okey R5: F plays as R5 and connects to R4 and R6; Y12 connects to nothing.
    rack = "F R4 R6 Y12 B1 B2 B3 K7 K8 K9 Y7 Y8 Y9 B9 R9"
    chosen = choose_discard(view(rack, okey="R5"), tiles(rack))
    assert (chosen.color, chosen.number) == (YELLOW, 12)


def test_a_false_joker_is_thrown_when_the_okey_face_connects_to_nothing():
    rack = "F K1 K2 K3 Y9 Y10 Y11 B7 B8 B9 R11 R12 R13 B13 K13"
    chosen = choose_discard(view(rack, okey="R5", runs_13_to_1=False), tiles(rack))
    assert chosen.false_joker


def test_ties_go_to_the_tile_received_last():
    # Y12 and K13 both connect to nothing; K13 came last in the rack (received order).
    rack = "R1 R2 R3 Y12 B5 B6 B7 R9 R10 R11 Y5 Y6 Y7 B1 K13"
    chosen = choose_discard(view(rack), tiles(rack))
    assert (chosen.color, chosen.number) == (BLACK, 13)
    rack = "R1 R2 R3 K13 B5 B6 B7 R9 R10 R11 Y5 Y6 Y7 B1 Y12"
    chosen = choose_discard(view(rack), tiles(rack))
    assert (chosen.color, chosen.number) == (YELLOW, 12)


def test_of_two_copies_the_later_one_is_discarded():
    rack = "K12 R1 R2 R3 B5 B6 B7 R9 R10 R11 Y5 Y6 Y7 B1 K12"
    chosen = choose_discard(view(rack), tiles(rack))
    assert (chosen.color, chosen.number, chosen.copy) == (BLACK, 12, 1)


# --- the order of precedence ----------------------------------------------------


def test_no_move_offered_is_no_move():
    assert choose_move(view("R1"), []) is None


def test_gosterme_comes_first():
    legal = [move(game_pb2.MOVE_KIND_DRAW_FROM_WALL), move(game_pb2.MOVE_KIND_TAKE_DISCARD),
             move(game_pb2.MOVE_KIND_GOSTERME)]
    chosen = choose_move(view("R1"), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_GOSTERME


def test_a_win_offered_is_declared_with_an_okey_discard_first():
    """docs/rules.md §8.4: finishing with an okey doubles the score."""
    rack = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13 Y8"
    legal = [*discards(rack),
             move(game_pb2.MOVE_KIND_DECLARE_WIN, one("K13")),
             move(game_pb2.MOVE_KIND_DECLARE_WIN, one("Y8"))]
    chosen = choose_move(view(rack, okey="Y8"), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_DECLARE_WIN
    assert (chosen.tile.color, chosen.tile.number) == (YELLOW, 8)


def test_without_an_okey_the_first_offered_win_is_declared():
    rack = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13 B2"
    legal = [*discards(rack),
             move(game_pb2.MOVE_KIND_DECLARE_WIN, one("R12")),
             move(game_pb2.MOVE_KIND_DECLARE_WIN, one("B2"))]
    chosen = choose_move(view(rack), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_DECLARE_WIN
    assert (chosen.tile.color, chosen.tile.number) == (RED, 12)


def test_draws_from_the_wall_never_takes_the_discard():
    legal = [move(game_pb2.MOVE_KIND_DRAW_FROM_WALL), move(game_pb2.MOVE_KIND_TAKE_DISCARD)]
    chosen = choose_move(view("R1"), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_DRAW_FROM_WALL


def test_with_the_wall_empty_takes_the_last_discard_to_finish():
    """docs/rules.md §8.5: the wall is empty and the last discard is offered, which it is
    only to a seat that can finish with it: the policy takes it (and then declares)."""
    legal = [move(game_pb2.MOVE_KIND_TAKE_DISCARD), move(game_pb2.MOVE_KIND_END_ROUND)]
    chosen = choose_move(view("R1"), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_TAKE_DISCARD


def test_with_the_wall_empty_and_no_discard_offered_ends_the_round():
    """docs/rules.md §8.5: ending the round is the only way on: the policy ends it."""
    chosen = choose_move(view("R1"), [move(game_pb2.MOVE_KIND_END_ROUND)])
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_END_ROUND


def test_a_win_that_must_be_shown_is_declared():
    """docs/rules.md §8.4, §8.5: a seat that must show its win, or finish with the last
    discard, is offered only declarations: the policy declares."""
    rack = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13 B2"
    legal = [move(game_pb2.MOVE_KIND_DECLARE_WIN, one("B2"))]
    chosen = choose_move(view(rack), legal)
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_DECLARE_WIN


def test_a_lone_move_of_another_kind_is_played():
    chosen = choose_move(view("R1"), [move(game_pb2.MOVE_KIND_TIMEOUT)])
    assert chosen is not None
    assert chosen.kind == game_pb2.MOVE_KIND_TIMEOUT


# --- whole rounds through the engine --------------------------------------------


@pytest.mark.parametrize(("seed", "players"), [(f"policy-{n}", 2 + n % 3) for n in range(9)])
def test_rounds_played_by_the_policy_alone_end_and_keep_its_promises(seed, players):
    """Every seat plays the policy from its own view and legal moves (as the engine's
    GameService answers would give them): the round ends within its bound; the policy
    takes a discard only from an empty wall's end (to finish: its next move declares),
    never throws an okey, and never lets an offered win pass."""
    state = start_round(deal(Ruleset(move_timer_seconds=0), players, 0, seed=seed))
    bound = 4 + 4 * len(state.wall)  # each wall tile: at most gösterme, draw, discard
    for _ in range(bound):
        if state.phase is Phase.ROUND_OVER:
            break
        seat = state.turn
        legal = [move_to_proto(m) for m in legal_moves(state, seat)]
        chosen = choose_move(view_to_proto(player_view(state, seat)), legal)
        assert chosen is not None
        if chosen.kind == game_pb2.MOVE_KIND_TAKE_DISCARD:
            assert not state.wall
        if state.must_finish:
            assert chosen.kind == game_pb2.MOVE_KIND_DECLARE_WIN
        played = move_from_proto(chosen, "move")
        if chosen.kind == game_pb2.MOVE_KIND_DISCARD:
            assert not any(m.kind == game_pb2.MOVE_KIND_DECLARE_WIN for m in legal)
            assert played.tile is not None
            assert TILE_OF_CODE[played.tile].face != state.okey.face
        result = apply_move(state, played)
        assert result.legal, result.message
        assert result.state is not None
        state = result.state
    assert state.phase is Phase.ROUND_OVER
    assert state.outcome is not None
