"""The bots' policy of `okey play --game 101` (docs/play.md, "Okey 101"; play_policy101.py).

The policy reads only its seat's PlayerView, its LegalMoves and BestOpening answers about
its own rack. Here those answers come from the engine in-process, through the server's
own converters (view_to_proto, legal_moves_101 + move_to_proto, and
BestOpening's opening_answer), and every move the policy makes is applied by the engine,
so a move the server would refuse fails the test. Positions come from game101_support
(the default indicator K13 makes K1 the okey).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from game101_support import arranged, assert_consistent_101
from okey.v1 import game_pb2, hand_pb2, state_pb2
from okey_cli import play_policy101 as policy
from okey_cli import render
from okey_cli.play_101 import OKEY_101
from okey_cli.play_human import parse_tile
from okey_cli.play_render import Seats
from okey_cli.play_table import Table
from okey_rules.dealing.deal import deal
from okey_rules.play.game101 import (
    apply_move_101,
    could_lay_off,
    legal_moves_101,
    start_round_101,
)
from okey_rules.play.game101_types import Result101, State101
from okey_rules.play.game101_view import player_view_101
from okey_rules.play.round_types import EventKind, Opened, Penalty, Phase, RoundEnd
from okey_rules.rulebook import is_wild
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import TILE_OF_CODE, format_tile
from okey_rules.tiles import parse_tile as rules_tile
from okey_server.rpc.config import Config
from okey_server.services.game_servicer import GameServicer
from okey_server.services.hand_servicer import HandServicer
from okey_server.wire.convert_game import move_from_proto, move_to_proto, view_to_proto
from okey_server.wire.convert_opening import opening_answer, opening_inputs, openings
from okey_server.wire.convert_state import state_token
from okey_server.wire.round_status import round_status

RULES_101 = Ruleset(game=Game.OKEY_101)
# Bounds for whole rounds played in-process: the bank holds 20 tiles, so a round has
# about 21 turns; a turn lays at most its 22 tiles one move at a time.
MAX_MOVES = 2000
MAX_STEPS_PER_TURN = 60


def ask_for(view: game_pb2.PlayerViewResponse) -> policy.AskOpening:
    """BestOpening as the server answers it, for tiles of the viewer's rack."""
    def ask(tiles):
        request = hand_pb2.BestOpeningRequest(indicator=view.indicator)
        request.hand.tiles.extend(tiles)
        request.ruleset.CopyFrom(view.ruleset)
        asked = opening_inputs(request)
        melds, pairs = openings(asked)
        return opening_answer(melds, pairs, asked.indicator, asked.okey)
    return ask


def view_of(state: State101, seat: int | None = None) -> game_pb2.PlayerViewResponse:
    return view_to_proto(player_view_101(state, state.turn if seat is None else seat))


def legal_of(state: State101, seat: int | None = None) -> list[game_pb2.Move]:
    return [move_to_proto(m) for m in legal_moves_101(state, state.turn if seat is None
                                                            else seat)]


def choose(state: State101) -> game_pb2.Move:
    view = view_of(state)
    move = policy.choose_move(view, legal_of(state), ask_for(view))
    assert move is not None
    return move


def applied(state: State101, move: game_pb2.Move) -> Result101:
    result = apply_move_101(state, move_from_proto(move, "move"))
    assert result.legal, (result.reason, result.message, move)
    assert result.state is not None
    assert_consistent_101(result.state)
    return result


def names(tiles) -> list[str]:
    return [("F" if t.false_joker else f"{'?RYBK'[t.color]}{t.number}") for t in tiles]


def laid_names(move: game_pb2.Move) -> list[list[str]]:
    return [names(laid.tile for laid in meld.tiles) for meld in move.melds]


def kinds(result: Result101) -> list[EventKind]:
    return [event.kind for event in result.events]


def penalties(result: Result101) -> list[Penalty]:
    return [e.penalty for e in result.events if e.penalty is not None]


def rack_names(state: State101, seat: int) -> list[str]:
    return [format_tile(TILE_OF_CODE[c]) for c in state.seats[seat].rack]


# --- 1. the draw ---------------------------------------------------------------------------


def test_draws_from_the_bank_and_never_takes_the_previous_discard():
    """Rule 1: a taken discard must be used (§10.4); the policy never owes one."""
    state = arranged({0: "R5 R6"}, turn=0, discards={3: "R7"})
    assert any(m.kind == game_pb2.MOVE_KIND_TAKE_DISCARD for m in legal_of(state))
    assert choose(state).kind == game_pb2.MOVE_KIND_DRAW_FROM_WALL


def test_a_taken_discard_still_to_use_goes_back():
    """Rule 2 (a human's `auto` after `take`): RETURN_DISCARD, free of penalty."""
    state = arranged({0: "R5 R6"}, turn=0, discards={3: "K9"})
    taken = applied(state, game_pb2.Move(kind=game_pb2.MOVE_KIND_TAKE_DISCARD, seat=0)).state
    assert taken is not None
    assert view_of(taken).HasField("taken_discard")
    move = choose(taken)
    assert move.kind == game_pb2.MOVE_KIND_RETURN_DISCARD
    assert not penalties(applied(taken, move))


# --- 3. opening ----------------------------------------------------------------------------

OPENS_138 = "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13"  # three runs, 46 points each


def test_opens_with_best_openings_melds_when_they_reach_101():
    """Rule 3 (§10.2): the melds BestOpening answers, laid as one OPEN, open the seat."""
    state = arranged({0: OPENS_138}, turn=0, phase=Phase.DISCARD)
    view = view_of(state)
    answer = ask_for(view)(view.rack)
    assert answer.opens
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_OPEN
    assert not move.pairs
    assert laid_names(move) == [names(p.tile for p in meld.tiles)
                                for meld in answer.arrangement.melds]
    result = applied(state, move)
    assert EventKind.OPENED in kinds(result)
    assert not penalties(result)
    assert result.state is not None
    assert result.state.seats[0].opened is Opened.MELDS
    assert sum(meld.value for meld in result.state.table) == answer.value


def test_an_okey_stands_for_the_face_best_opening_gave_it():
    """Rule 3: each okey's stands_for is BestOpening's (left unsaid, the round engine may
    pick another face, docs/okey101.md)."""
    state = arranged({0: "R11 R12 K1 Y10 Y11 Y12 Y13 B10 B11 B12 B13"}, turn=0,
                     phase=Phase.DISCARD)
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_OPEN
    okeys = [laid for meld in move.melds for laid in meld.tiles
             if (laid.tile.color, laid.tile.number) == (4, 1)]
    assert len(okeys) == 1
    assert okeys[0].HasField("stands_for")
    result = applied(state, move)
    assert result.state is not None
    assert not penalties(result)
    faces = {format_tile(TILE_OF_CODE[laid.face]) for meld in result.state.table
             for laid in meld.tiles if is_wild(TILE_OF_CODE[laid.code], result.state.okey)}
    assert faces == {names([okeys[0].stands_for])[0]}


# Eleven faces, no two of one number or within two of each other in a colour: no set, no
# run; both copies of each: eleven pairs.
ELEVEN_PAIRS = " ".join(f"{face} {face}" for face in
                        ["R1", "R4", "R7", "R10", "R13", "Y2", "Y5", "Y8", "Y11", "B3", "B6"])
# 18 faces, four of them twice: no set (no number in three colours), no run, four pairs.
NO_OPENING = ("R1 R4 R7 R10 R13 Y2 Y5 Y8 Y11 B3 B6 B9 B12 B13 K2 K5 K8 K11 "
              "R1 Y5 B9 K11")


def test_melds_short_of_101_open_with_five_pairs_instead():
    """Rule 3: pairs when the melds do not reach 101 and the pairs reach five; eleven pairs
    are every tile, so the last pair stays back (ten pairs open)."""
    state = arranged({0: ELEVEN_PAIRS}, turn=0, phase=Phase.DISCARD)
    view = view_of(state)
    answer = ask_for(view)(view.rack)
    assert not answer.opens
    assert answer.pairs.count == 11
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_OPEN
    assert move.pairs
    assert len(move.melds) == 10
    result = applied(state, move)
    assert not penalties(result)
    assert result.state is not None
    assert result.state.seats[0].opened is Opened.PAIRS
    assert len(result.state.seats[0].rack) == 2


def test_short_of_both_marks_the_seat_does_not_open_but_discards():
    state = arranged({0: NO_OPENING}, turn=0, phase=Phase.DISCARD)
    view = view_of(state)
    answer = ask_for(view)(view.rack)
    assert not answer.opens
    assert not answer.pairs.opens
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_DISCARD
    assert not penalties(applied(state, move))


def test_an_opening_that_would_use_every_tile_leaves_one_out_and_finishes():
    """Rule 3 (§10.1 MUST_KEEP_A_TILE): 22 tiles all in melds (R1-R13, Y1-Y9: 136): the
    run's end worth least (R1) stays, the opening still reaches 101, and the kept tile is
    the finishing discard, a one-turn finish (§10.6)."""
    rack = " ".join([*(f"R{n}" for n in range(1, 14)), *(f"Y{n}" for n in range(1, 10))])
    state = arranged({0: rack}, turn=0, phase=Phase.DISCARD)
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_OPEN
    result = applied(state, move)
    assert result.state is not None
    assert rack_names(result.state, 0) == ["R1"]
    finish = choose(result.state)
    assert finish.kind == game_pb2.MOVE_KIND_DISCARD
    done = applied(result.state, finish)
    assert done.state is not None
    outcome = done.state.outcome
    assert outcome is not None
    assert outcome.end is RoundEnd.WON
    assert outcome.one_turn


def rack_view(rack: str, opened: int = game_pb2.OPENED_UNSPECIFIED,
              state: State101 | None = None) -> game_pb2.PlayerViewResponse:
    """Seat 0's view of `state` (default: a position with an empty table) on its turn,
    after its draw, holding `rack` instead of what the position gave it."""
    if state is None:
        state = arranged({}, turn=0, phase=Phase.DISCARD)
    view = view_of(state, 0)
    del view.rack[:]
    view.rack.extend(tiles(rack))
    view.seats[0].opened = opened  # type: ignore[assignment]
    return view


def tiles(text: str) -> list:
    """Tiles in notation; a face named twice is its second copy."""
    seen: dict[str, int] = {}
    found = []
    for word in text.split():
        tile = parse_tile(word)
        assert tile is not None
        tile.copy = seen.get(word, 0)
        seen[word] = tile.copy + 1
        found.append(tile)
    return found


def test_no_opening_when_keeping_a_tile_drops_it_below_101():
    """Rule 3: every tile is in three sets of three (33 + 36 + 39 = 108): no meld can give
    up one tile and stay a meld, and leaving the smallest set back leaves 75."""
    view = rack_view("R11 Y11 B11 R12 Y12 B12 R13 Y13 B13")
    answer = ask_for(view)(view.rack)
    assert answer.opens
    assert not answer.unused, "every tile is in a meld"
    assert policy.opening_move(view, answer) is None


def test_a_set_of_four_gives_up_a_tile_to_keep_one():
    """Rule 3: runs of three cannot lose a tile; the set of four 13s can (its first
    colour, R13, as every tile of it costs 13), and 118 - 13 still opens."""
    view = rack_view("R13 Y13 B13 K13 R10 R11 R12 Y10 Y11 Y12")
    answer = ask_for(view)(view.rack)
    assert answer.value == 118
    assert not answer.unused
    move = policy.opening_move(view, answer)
    assert move is not None
    laid = [name for meld in laid_names(move) for name in meld]
    assert sorted(names(view.rack)) == sorted([*laid, "R13"])


# --- 4-6. after opening ----------------------------------------------------------------------


def test_an_opened_seat_lays_off_a_natural_tile_legal_moves_offers():
    """Rule 4 (§10.3): a lay-off LegalMoves offers, one at a time."""
    state = arranged({0: "R8 Y2 B6 K9"}, turn=0, phase=Phase.DISCARD,
                     table=[(0, "R5 R6 R7"), (1, "K10 K11 K12")])
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_OFF
    assert names([move.tile]) == ["R8"]
    assert move.meld == 0
    after = applied(state, move).state
    assert after is not None
    second = choose(after)
    assert (names([second.tile]), second.meld) == (["K9"], 1)


def test_new_melds_are_laid_before_an_okey_is_laid_off():
    """Rules 5 and 6: the okey first helps a new meld (Y5 Y6 K1=Y7); only an okey still
    in the rack afterwards is laid off."""
    state = arranged({0: "Y5 Y6 K1 B2 B9"}, turn=0, phase=Phase.DISCARD,
                     table=[(0, "R5 R6 R7")])
    assert any(m.kind == game_pb2.MOVE_KIND_LAY_OFF for m in legal_of(state)), \
        "the okey could be laid off"
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_MELD
    assert sorted(laid_names(move)[0]) == ["K1", "Y5", "Y6"]
    result = applied(state, move)
    assert result.state is not None
    assert not penalties(result)


def test_an_okey_left_over_is_laid_off_before_the_discard():
    state = arranged({0: "K1 B2 B9"}, turn=0, phase=Phase.DISCARD, table=[(0, "R5 R6 R7")])
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_OFF
    assert names([move.tile]) == ["K1"]


def test_a_pairs_opener_lays_new_pairs_not_melds():
    """Rule 5 (§10.3): a seat that opened with pairs lays pairs."""
    state = arranged({0: "R9 R9 Y4 Y5 Y6 B1"}, turn=0, phase=Phase.DISCARD,
                     table=[(0, "R2 R2"), (0, "Y3 Y3"), (0, "B4 B4"), (0, "K5 K5"),
                            (0, "R6 R6")])
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_MELD
    assert laid_names(move) == [["R9", "R9"]]
    assert not penalties(applied(state, move))


def test_melds_that_would_empty_the_rack_keep_one_back():
    """Rule 5: the last tile is the discard (MUST_KEEP_A_TILE)."""
    state = arranged({0: "Y5 Y6 Y7 B2 B3 B4"}, turn=0, phase=Phase.DISCARD,
                     table=[(0, "R5 R6 R7")])
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_MELD
    assert len(move.melds) == 1
    applied(state, move)


# --- 7. the discard ---------------------------------------------------------------------------


def discard_of(state: State101) -> str:
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_DISCARD
    return names([move.tile])[0]


def test_the_highest_value_tile_that_fits_nowhere_is_thrown():
    state = arranged({0: "R2 Y9 B6 K12 R4"}, turn=0, phase=Phase.DISCARD,
                     table=[(0, "B1 B2 B3")])
    assert discard_of(state) == "K12"


def test_an_okey_is_never_thrown_while_another_tile_can_go():
    state = arranged({0: "K1 R2"}, turn=0, phase=Phase.DISCARD, table=[(0, "B1 B2 B3")])
    # Laying the okey off would leave R2: rules 6 then 7 keep the okey out of the pile.
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_LAY_OFF
    view = view_of(state)
    tiles = [parse_tile("K1"), parse_tile("R2")]
    assert names([policy.choose_discard(view, tiles)]) == ["R2"]


def discard_choice(view: game_pb2.PlayerViewResponse) -> str:
    legal = [game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=0, tile=t) for t in view.rack]
    move = policy.choose_move(view, legal, ask_for(view))
    assert move is not None
    assert move.kind == game_pb2.MOVE_KIND_DISCARD
    return names([move.tile])[0]


def test_a_seat_not_opened_keeps_a_tile_that_fits_the_table():
    """Rule 7 (§10.5): a discard that could be laid off costs 101 even before opening; the
    view's table says K13 fits seat 1's K10 K11 K12, so the lower Y9 goes."""
    state = arranged({}, turn=0, phase=Phase.DISCARD, table=[(1, "K10 K11 K12")])
    assert discard_choice(rack_view("K13 Y9", state=state)) == "Y9"
    assert could_lay_off(state, rules_tile("K13").face)


def test_a_seat_not_opened_keeps_the_tiles_of_its_best_melds():
    """Rule 7: R11 R12 R13 are BestOpening's run; the highest tile outside it goes."""
    assert discard_choice(rack_view("R11 R12 R13 Y2 B7")) == "B7"


def test_an_opened_seat_throws_its_highest_tile():
    """Rule 7: no tile fits the (empty) table and nothing melds: the highest value goes."""
    assert discard_choice(rack_view("R11 Y2 B7 K13", game_pb2.OPENED_MELDS)) == "K13"


def test_the_dealer_keeps_its_best_melds_in_the_first_discard():
    state = start_round_101(deal(RULES_101, 4, 0, seed="first discard"))
    view = view_of(state)
    answer = ask_for(view)(view.rack)
    move = choose(state)
    assert move.kind == game_pb2.MOVE_KIND_DISCARD
    assert policy.face_key(move.tile) in {policy.face_key(t) for t in answer.unused}


def test_ties_go_to_the_tile_received_last():
    view = game_pb2.PlayerViewResponse(seat=0, player_count=4, phase=state_pb2.PHASE_DISCARD)
    view.rack.extend(parse_tile(w) for w in ["R9", "Y9", "B9"])
    view.rack[2].copy = 1
    view.okey.CopyFrom(parse_tile("K1"))
    view.seats.add(seat=0, opened=game_pb2.OPENED_MELDS)
    chosen = policy.choose_discard(view, list(view.rack))
    assert names([chosen]) == ["B9"]
    assert chosen.copy == 1


def test_a_false_joker_counts_the_okey_number():
    """§10.2: F plays as the okey's face (K1 here: worth 1), so R5 goes first."""
    view = game_pb2.PlayerViewResponse(seat=0, player_count=4, phase=state_pb2.PHASE_DISCARD)
    view.rack.extend(parse_tile(w) for w in ["F", "R5"])
    view.okey.CopyFrom(parse_tile("K1"))
    view.seats.add(seat=0, opened=game_pb2.OPENED_MELDS)
    assert policy.value(parse_tile("F"), view.okey) == 1
    assert names([policy.choose_discard(view, list(view.rack))]) == ["R5"]


# --- the marks ----------------------------------------------------------------------------------


def test_the_marks_are_101_points_and_five_pairs():
    state = arranged({0: "R1"}, turn=0, table=[(1, "R10 R11 R12 R13")])
    assert policy.opening_marks(view_of(state)) == (101, 5)


def test_progressive_opening_takes_one_more_than_any_seat_has_on_the_table():
    """§10.8: with progressive_opening the mark is above the best opening so far; the
    policy's bound is one more than a seat's table melds (46 + 48 + 1 = 95: 101 stays
    the mark; 46 + 36 + 39 + 1 = 122) or pairs (6 + 1 = 7)."""
    pairs = [(2, f"{c}{n} {c}{n}") for c, n in zip("RYBKRY", (2, 3, 4, 5, 6, 7), strict=True)]
    state = arranged({0: "R1"}, turn=0,
                     table=[(1, "R10 R11 R12 R13"), (1, "Y12 B12 K12 R12"), *pairs])
    state = replace(state, rules=Ruleset(game=Game.OKEY_101, progressive_opening=True))
    view = view_of(state)
    assert view.ruleset.progressive_opening
    assert policy.opening_marks(view) == (101, 7)
    rich = arranged({0: "R1"}, turn=0, table=[(1, "R10 R11 R12 R13"), (1, "Y12 B12 K12"),
                                               (1, "Y13 B13 K13")])
    rich = replace(rich, rules=Ruleset(game=Game.OKEY_101, progressive_opening=True))
    assert policy.opening_marks(view_of(rich)) == (46 + 36 + 39 + 1, 5)


# --- fits_table against the engine ----------------------------------------------------------


def bot_round(seed: str, rules: Ruleset = RULES_101, dealer: int = 0,
              seen: list[State101] | None = None) -> tuple[State101, list[Result101]]:
    """A whole round, every seat played by the policy through the engine."""
    state = start_round_101(deal(rules, 4, dealer, seed=seed))
    results = []
    steps = 0
    for _ in range(MAX_MOVES):
        if state.phase is Phase.ROUND_OVER:
            return state, results
        if seen is not None:
            seen.append(state)
        turn = state.turn
        result = applied(state, choose(state))
        results.append(result)
        assert result.state is not None
        steps = steps + 1 if result.state.turn == turn else 0
        assert steps <= MAX_STEPS_PER_TURN
        state = result.state
    raise AssertionError("the round did not end")


@pytest.mark.parametrize("seed", ["fits-1", "fits-2"])
def test_fits_table_agrees_with_the_engines_lay_off_penalty(seed):
    """`fits_table` (a seat not opened estimates the §10.5 penalty from its view) says
    exactly what the engine's could_lay_off says, for every natural tile of every rack
    at every position of bot-played rounds."""
    seen: list[State101] = []
    bot_round(seed, seen=seen)
    checked = 0
    for state in seen:
        if not state.table:
            continue
        for seat in range(4):
            view = view_of(state, seat)
            for code, tile in zip(state.seats[seat].rack, view.rack, strict=True):
                if is_wild(TILE_OF_CODE[code], state.okey):
                    continue
                assert policy.fits_table(tile, view) == could_lay_off(state, code), (
                    format_tile(TILE_OF_CODE[code]), [m.tiles for m in state.table])
                checked += 1
    assert checked > 0, "the rounds laid melds to check against"


# --- whole rounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "progressive"), [("round-1", False), ("round-2", False),
                                                   ("round-3", True), ("round-4", True)])
def test_bots_play_whole_rounds_without_a_refused_move_or_a_failed_opening(seed, progressive):
    """Every move the policy makes is legal; it never takes a discard or takes back, never
    fails an opening (not even with progressive_opening) and never throws an okey while it
    holds another tile."""
    rules = Ruleset(game=Game.OKEY_101, progressive_opening=progressive)
    final, results = bot_round(seed, rules, dealer=int(seed[-1]) % 4)
    assert final.outcome is not None
    events = [event for result in results for event in result.events]
    assert not [e for e in events if e.kind in (EventKind.TOOK_DISCARD,
                                                EventKind.TOOK_BACK)]
    assert Penalty.FAILED_OPENING not in [e.penalty for e in events]
    assert Penalty.OKEY_DISCARDED not in [e.penalty for e in events]
    assert any(e.kind is EventKind.OPENED for e in events), "someone opened"


def test_the_policy_makes_no_move_when_none_is_offered():
    state = arranged({0: "R1"}, turn=0)
    assert policy.choose_move(view_of(state, 1), legal_of(state, 1),
                              ask_for(view_of(state, 1))) is None


# --- the CLI's bot turn, against the servicers in-process ----------------------------------


class InProcessChannel:
    """Stands in for a grpc channel: each call the CLI's stubs make is answered by the
    server's own servicers (GameService, HandService), called directly."""

    def __init__(self) -> None:
        config = Config(signing_key=KEY, signing_key_generated=False)
        self.servicers = [GameServicer(config), HandServicer(config)]

    def unary_unary(self, method: str, **_options: object):
        name = method.rsplit("/", 1)[1]
        for servicer in self.servicers:
            if name in type(servicer).__dict__:
                handler = getattr(servicer, name)
                return lambda request, timeout=None: asyncio.run(handler(request, None))
        return self._not_here

    @staticmethod
    def _not_here(request, timeout=None):
        raise AssertionError(f"not called by a bot's turn: {type(request).__name__}")


KEY = b"play policy 101 test key, not a secret"


def cli_table(state: State101) -> Table:
    table = Table(OKEY_101, InProcessChannel(), Seats.whole_table(0, 4),
                  render.Painter(colour=False), address="in-process", timeout=10.0)
    # The table carries what a Deal answer would give it: the sealed state and its
    # public facts.
    table.state = state_token(state, KEY)
    table.status = round_status(state)
    return table


def test_a_bot_turn_through_the_cli_draws_lays_and_discards(capsys):
    """play_table.Table.bot_turn (with OKEY_101) plays one seat's whole turn by the policy:
    here seat 1 draws, lays R8 off onto seat 0's run, then discards; the human (seat 0) sees
    the draw without its tile."""
    state = arranged({1: "R8 Y2 B6 K9"}, turn=1, table=[(1, "K10 K11 K12"), (0, "R5 R6 R7")])
    table = cli_table(state)
    table.bot_turn(1)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "seat 1 drew from the bank"
    assert "seat 1 laid R8 off onto meld 1, now your run: R5 R6 R7 R8 (26)" in lines
    assert "seat 1 laid K9 off onto meld 0, now seat 1's run: K9 K10 K11 K12 (42)" in lines
    assert lines[-1].startswith("seat 1 discarded ")
    assert table.view(0).turn_seat == 2


def test_a_bot_turn_stops_when_its_opening_makes_the_round_void(capsys):
    """§10.2: the fourth pairs opening ends the round (void); the bot's turn ends with it,
    with no discard to make."""
    pairs = ["R2", "R3", "R5", "R6", "R8", "R9", "R11", "R12", "Y1", "Y3", "Y4", "Y6", "Y7",
             "Y9", "Y10"]
    table_pairs = [(seat, f"{face} {face}") for seat in range(3)
                   for face in pairs[seat * 5:seat * 5 + 5]]
    state = arranged({3: ELEVEN_PAIRS}, turn=3, phase=Phase.DISCARD, table=table_pairs)
    table = cli_table(state)
    table.bot_turn(3)
    out = capsys.readouterr().out
    assert "seat 3 opened with " in out
    assert "all four opened with pairs: the round is void" in out
    view = table.view(0)
    assert view.phase == state_pb2.PHASE_ROUND_OVER
    assert view.outcome.void_round
