"""`okey play --game 101` without a server: how the human's commands become moves, the
first deal's options, and the next deal after a round (docs/play.md, "Okey 101").

The moves are only built here; whether they are legal is the server's call, tested in
test_cli_play101.py.
"""

from __future__ import annotations

import pytest
from okey.v1 import game_pb2, ruleset_pb2, scoring_pb2, tile_pb2
from okey_cli import play_101, render
from okey_cli.errors import CliError
from okey_cli.main import build_parser
from okey_cli.play_human import parse_tile
from okey_cli.play_loop import next_deal_request
from okey_cli.play_options import first_deal_request
from okey_cli.play_render101 import move_text, moves_lines
from okey_cli.score_render import rules_text


def view(rack: str, okey: str = "K1") -> game_pb2.PlayerViewResponse:
    """A view holding `rack` (a face named twice: its two copies, in that order)."""
    answer = game_pb2.PlayerViewResponse(seat=0, player_count=4)
    seen: dict[str, int] = {}
    for word in rack.split():
        tile = parse_tile(word)
        assert tile is not None
        tile.copy = seen.get(word, 0)
        seen[word] = tile.copy + 1
        answer.rack.append(tile)
    okey_tile = parse_tile(okey)
    assert okey_tile is not None
    answer.okey.CopyFrom(okey_tile)
    return answer


def shown(meld: game_pb2.MeldPlay) -> list[str]:
    plain = render.Painter(colour=False)
    return [plain.tile(laid.tile) + (f"={plain.tile(laid.stands_for)}"
                                     if laid.HasField("stands_for") else "")
            for laid in meld.tiles]


def test_melds_are_separated_by_a_bar_with_or_without_spaces():
    rack = view("R10 R11 R12 B4 Y4 K4")
    melds = play_101.parse_melds(["R10", "R11", "R12|B4", "Y4", "K4"], rack)
    assert not isinstance(melds, str)
    assert [shown(m) for m in melds] == [["R10", "R11", "R12"], ["B4", "Y4", "K4"]]


def test_an_okey_says_what_it_stands_for_or_is_left_to_the_server():
    rack = view("R5 R7 K1 K1 Y9 B9")
    melds = play_101.parse_melds(["R5", "K1=R6", "R7", "|", "Y9", "B9", "OK"], rack)
    assert not isinstance(melds, str)
    assert [shown(m) for m in melds] == [["R5", "K1=R6", "R7"], ["Y9", "B9", "K1"]]
    okeys = [laid.tile.copy for m in melds for laid in m.tiles if laid.tile.number == 1]
    assert sorted(okeys) == [0, 1], "the two okeys are the rack's two copies"
    assert not melds[1].tiles[2].HasField("stands_for")


def test_a_face_named_twice_is_both_copies_of_the_rack():
    melds = play_101.parse_melds(["R1", "R1", "|", "Y2", "Y2"], view("R1 Y2 R1 Y2"))
    assert not isinstance(melds, str)
    assert sorted(laid.tile.copy for laid in melds[0].tiles) == [0, 1]


def test_a_tile_the_rack_lacks_is_still_sent_for_the_server_to_refuse():
    """TILE_NOT_IN_RACK is the server's answer: the CLI names a copy the rack lacks."""
    melds = play_101.parse_melds(["R1", "R2", "R3"], view("R1"))
    assert not isinstance(melds, str)
    assert [laid.tile.number for laid in melds[0].tiles] == [1, 2, 3]


@pytest.mark.parametrize(("words", "answer"), [
    ([], "name the melds"),
    (["R1", "|", "|", "R2"], "an empty meld"),
    (["R14"], "not a tile: 'R14'"),
    (["K1=F"], "not a face an okey may stand for: 'F'"),
])
def test_what_is_not_a_meld_gets_the_clis_own_answer(words, answer):
    got = play_101.parse_melds(words, view("R1 R2 K1"))
    assert isinstance(got, str)
    assert got.startswith(answer)


def parse(*args: str):
    return build_parser().parse_args(["play", "--game", "101", *args])


def test_the_first_deal_is_the_101_preset_with_three_rounds_unless_told():
    """Okey 101 games end only by game_rounds (docs/rules.md §10.7): 3 by default."""
    request = first_deal_request(play_101.OKEY_101, parse("--seed", "s"))
    assert request.preset == "101"
    assert request.player_count == 4
    assert request.ruleset.game_rounds == play_101.DEFAULT_GAME_ROUNDS == 3
    assert not request.ruleset.HasField("riziko")
    chosen = first_deal_request(play_101.OKEY_101, parse("--game-rounds", "5", "--riziko"))
    assert chosen.ruleset.game_rounds == 5
    assert chosen.ruleset.riziko


def test_classic_options_are_refused_for_101():
    with pytest.raises(CliError, match="--mode is not an option of Okey 101"):
        first_deal_request(play_101.OKEY_101, parse("--mode", "penalty"))


def answer(dealer: int, round_number: int) -> scoring_pb2.ScoreRoundResponse:
    return scoring_pb2.ScoreRoundResponse(next_dealer_seat=dealer, next_round=round_number)


def test_the_next_deal_is_the_one_score_round_names():
    first = first_deal_request(play_101.OKEY_101, parse("--seed", "g"))
    after = next_deal_request(first, "g", answer(1, 2), again=0)
    assert (after.dealer_seat, after.round, after.seed) == (1, 2, "g/round-2")
    assert after.ruleset == first.ruleset


def test_a_void_round_is_dealt_again_from_another_seed():
    """§10.2: a void round is dealt again, same dealer, same number; the same seed would
    deal the same tiles, so the seed says which deal of that round it is."""
    first = first_deal_request(play_101.OKEY_101, parse("--seed", "g"))
    again = next_deal_request(first, "g", answer(2, 3), again=1)
    assert (again.dealer_seat, again.round, again.seed) == (2, 3, "g/round-3/again-1")
    assert next_deal_request(first, "g", answer(0, 1), again=2).seed == "g/again-2"


def test_moves_print_as_the_commands_that_make_them():
    plain = render.Painter(colour=False)
    okey = tile_pb2.Tile(color=tile_pb2.COLOR_BLACK, number=1)
    opening = game_pb2.Move(kind=game_pb2.MOVE_KIND_OPEN, pairs=True)
    pair = opening.melds.add()
    pair.tiles.add().tile.CopyFrom(tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=3))
    laid = pair.tiles.add()
    laid.tile.CopyFrom(okey)
    laid.stands_for.CopyFrom(tile_pb2.Tile(color=tile_pb2.COLOR_RED, number=3))
    assert move_text(opening, plain) == "open pairs R3 K1=R3"
    lay_off = game_pb2.Move(kind=game_pb2.MOVE_KIND_LAY_OFF, tile=okey, meld=2)
    lay_off.stands_for.CopyFrom(tile_pb2.Tile(color=tile_pb2.COLOR_BLUE, number=6))
    assert move_text(lay_off, plain) == "layoff K1 2 =B6"
    legal = [lay_off, game_pb2.Move(kind=game_pb2.MOVE_KIND_LAY_OFF, tile=okey, meld=4),
             game_pb2.Move(kind=game_pb2.MOVE_KIND_TAKE_BACK),
             game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, tile=okey)]
    assert moves_lines(legal, plain) == ["legal: back", "legal: layoff K1 2 or 4",
                                         "legal: discard K1"]


def test_the_rules_line_of_a_101_table_names_its_end_and_variants():
    rules = ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101, game_rounds=3,
                                exhaustion_scores_tiles=False, riziko=True, partnership=True,
                                partnership_waiver=True)
    assert rules_text(rules) == (
        "rules: Okey 101: points are bad, the lowest total wins; partnership: seats 0+2 "
        "against 1+3, the lower team total wins (the finisher's partner pays nothing for "
        "its tiles); the game ends after 3 rounds; an exhausted bank scores only "
        "penalties; variants: riziko")
