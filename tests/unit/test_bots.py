"""Bots (okey_rules.bots): a legal move from the seat's view alone, at levels 1 to 3, for
classic Okey (docs/rules.md §8) and Okey 101 (§10)."""

from __future__ import annotations

import random

import pytest
from bots_support import positions
from game101_support import arranged
from game_support import PLAY_ON, arrange, code, codes, reshuffled, start
from okey_rules.analysis.hand_distance import distances, read_hand
from okey_rules.bots.suggest import suggest_move
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import round_for, round_of
from okey_rules.play.round_types import EventKind, MoveKind, Opened, Phase
from okey_rules.ruleset import Game
from okey_rules.search.opening import best_opening
from okey_rules.tiles import FACES, TILE_OF_CODE

LEVELS = (1, 2, 3)
# Seeded rounds, each seat at its own level: bounded so that the file runs in seconds.
ROUNDS = {
    Game.CLASSIC: [("bots a", (1, 2, 3, 2)), ("bots b", (3, 3, 2, 1))],
    Game.OKEY_101: [("bots a", (1, 2, 3, 2)), ("bots b", (3, 3, 2, 1)),
                    ("bots c", (2, 3, 2, 3))],
}
GAMES = [Game.CLASSIC, Game.OKEY_101]


def _all_positions(game):
    for seed, levels in ROUNDS[game]:
        yield from positions(game, seed, levels)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.value)
def test_every_suggestion_is_a_legal_move_of_the_seat(game):
    """§8, §10: at every position of seeded rounds, each level's suggestion for the seat
    on turn is one of its legal moves, or (Okey 101) an opening or new melds the engine
    accepts; its reason is one line."""
    checked = 0
    for state in _all_positions(game):
        rounds = round_of(state)
        seat = state.turn
        legal = rounds.legal_moves(state, seat, None)
        view = rounds.view(state, seat)
        for level in LEVELS:
            suggestion = suggest_move(view, legal, level)
            move = suggestion.move
            assert move.seat == seat
            if move not in legal:
                assert game is Game.OKEY_101
                assert move.kind in (MoveKind.OPEN, MoveKind.LAY_MELD)
                result = rounds.apply(state, move, None)
                assert result.legal, (move, result.message)
                assert not any(e.kind is EventKind.PENALTY for e in result.events)
            assert suggestion.reason
            assert "\n" not in suggestion.reason
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.value)
def test_tiles_the_seat_cannot_see_do_not_change_the_suggestion(game):
    """§8.7: dealing the tiles hidden from the seat on turn (other racks, the wall's
    order, the buried discards it does not see) out again changes neither its legal
    moves nor any level's suggestion."""
    rng = random.Random(25)
    compared = 0
    for index, state in enumerate(_all_positions(game)):
        if index % 3:
            continue
        rounds = round_of(state)
        seat = state.turn
        other = reshuffled(state, seat, rng)
        assert other != state or not rounds.view(state, seat).wall_size
        legal = rounds.legal_moves(state, seat, None)
        assert rounds.legal_moves(other, seat, None) == legal
        view, other_view = rounds.view(state, seat), rounds.view(other, seat)
        for level in LEVELS:
            assert suggest_move(other_view, legal, level) == suggest_move(view, legal, level)
        compared += 1
    assert compared > 20


def _classic_distance(state, tiles):
    reading = read_hand([TILE_OF_CODE[c] for c in tiles], state.okey, state.rules, (14, 15))
    return distances(reading, state.rules)[0].best


def test_classic_level_2_takes_a_discard_only_when_it_lowers_the_distance():
    """Level 2 (greedy): the previous discard is taken only when the hand with it is
    closer to a win after its best discard (level 3: or, one from a win, as close); at levels 2
    and 3 an okey is thrown only when every other discard leaves the hand farther from
    a win."""
    took = threw = 0
    for state in _all_positions(Game.CLASSIC):
        rounds = round_of(state)
        seat = state.turn
        legal = rounds.legal_moves(state, seat, None)
        view = rounds.view(state, seat)
        for level in (2, 3):
            move = suggest_move(view, legal, level).move
            rack = state.seats[seat].rack
            if move.kind is MoveKind.TAKE_DISCARD and state.wall:
                top = state.seats[(seat - 1) % state.player_count].discards[-1]
                with_top = _classic_distance(state, (*rack, top))
                now = _classic_distance(state, rack)
                # Level 3 also takes a discard that keeps the distance at one from a win
                # and widens the wait (tests/unit/test_bots_classic3.py).
                assert with_top < now or (level == 3 and with_top == now == 1)
                took += 1
            if move.kind is MoveKind.DISCARD:
                threw += 1
                okey_face = state.okey.face
                if move.tile % FACES == okey_face:
                    kept = _classic_distance(state, [c for c in rack if c != move.tile])
                    others = [_classic_distance(state, [c for c in rack if c != other])
                              for other in rack if other % FACES != okey_face]
                    assert min(others) > kept
    assert took
    assert threw


@pytest.mark.parametrize("level", LEVELS)
def test_classic_a_win_offered_is_declared(level):
    """§8.4: every level declares a win when one is offered (level 1 too: a bot must not
    sit on a won hand), even where the rules would let it play on."""
    hand = codes("R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2")
    state = arrange(start(players=4, dealer=0, rules=PLAY_ON), {1: hand}, indicator=code("B13"))
    rounds = round_of(state)
    legal = rounds.legal_moves(state, 1, None)
    assert any(m.kind is MoveKind.DISCARD for m in legal)  # not forced
    move = suggest_move(rounds.view(state, 1), legal, level).move
    assert move.kind is MoveKind.DECLARE_WIN
    assert rounds.apply(state, move, None).state.phase is Phase.ROUND_OVER


@pytest.mark.parametrize("level", [2, 3])
def test_classic_an_okey_is_kept_and_gosterme_shown(level):
    """§2.2, §8.3: level 2 and up shows gösterme when it holds the indicator's twin, and
    keeps its okey (here B1, the indicator B13) rather than throwing it."""
    hand = codes("B1 B13 R1 R5 R9 Y2 Y6 Y10 K3 K7 K11 B4 B8 R12 Y13")
    state = arrange(start(players=4, dealer=0), {1: hand}, indicator=code("B13", copy=1))
    rounds = round_of(state)
    legal = rounds.legal_moves(state, 1, None)
    first = suggest_move(rounds.view(state, 1), legal, level).move
    assert first.kind is MoveKind.GOSTERME
    state = rounds.apply(state, first, None).state
    move = suggest_move(rounds.view(state, 1), rounds.legal_moves(state, 1, None), level).move
    assert move.kind is MoveKind.DISCARD
    assert move.tile != code("B1")


# A rack of 22 with runs worth 128 points (R10-R13, Y10-Y13, B11-B13) and tiles that make
# no meld with them or with each other.
OPENS = "R10 R11 R12 R13 Y10 Y11 Y12 Y13 B11 B12 B13 R1 Y3 B5 K7 R4 Y6 K9 B8 K2 R7 Y1"
# Worth 93 at best (R7-R11 with the okey K1 as R10, Y2 B2 K2, Y7-Y9, B5-B7): below 101.
# K12 could be laid off onto the table's K9 K10 K11.
SHORT = "R7 R8 R9 Y7 Y8 Y9 B5 B6 B7 K1 K12 R1 Y2 B1 R3 Y4 K4 B10 Y13 R11 K2 B2"


@pytest.mark.parametrize("level", LEVELS)
def test_101_opens_when_the_best_opening_reaches_101(level):
    """§10.2: with melds worth 101 or more in the rack after its draw, every level opens,
    and the engine accepts the opening without a penalty."""
    state = arranged({1: OPENS}, turn=1, phase=Phase.DISCARD)
    rounds = round_for(Game.OKEY_101)
    move = suggest_move(rounds.view(state, 1), rounds.legal_moves(state, 1, None), level).move
    assert move.kind is MoveKind.OPEN
    assert not move.pairs
    result = rounds.apply(state, move, None)
    assert result.legal
    assert not any(e.kind is EventKind.PENALTY for e in result.events)
    assert result.state.seats[1].opened is Opened.MELDS
    assert sum(meld.value for meld in result.state.table) >= 101


@pytest.mark.parametrize("level", [2, 3])
def test_101_no_opening_below_101_and_no_penalty_discard(level):
    """§10.2, §10.5: below 101 the seat does not open (a failed opening costs 101); it
    throws neither its okey (K1) nor a tile that could be laid off onto the table (K12,
    onto K9-K11), each a 101 penalty, though K12 is otherwise useless to it."""
    state = arranged({1: SHORT}, turn=1, phase=Phase.DISCARD, table=[(0, "K9 K10 K11")])
    rounds = round_for(Game.OKEY_101)
    rack = [TILE_OF_CODE[c] for c in state.seats[1].rack]
    assert best_opening(rack, state.okey, state.rules).value < 101
    move = suggest_move(rounds.view(state, 1), rounds.legal_moves(state, 1, None), level).move
    assert move.kind is MoveKind.DISCARD
    assert move.tile % FACES not in {code("K1"), code("K12")}
    assert not any(e.kind is EventKind.PENALTY for e in rounds.apply(state, move, None).events)


def test_101_a_penalty_discard_only_when_every_discard_costs_one():
    """§10.5: at levels 2 and 3, in seeded rounds, a discard costs a penalty only when
    every discard the seat could make would."""
    rounds = round_for(Game.OKEY_101)
    discards = 0
    for state in _all_positions(Game.OKEY_101):
        seat = state.turn
        legal = rounds.legal_moves(state, seat, None)
        view = rounds.view(state, seat)
        for level in (2, 3):
            move = suggest_move(view, legal, level).move
            if move.kind is not MoveKind.DISCARD:
                continue
            discards += 1
            if _penalised(rounds, state, move):
                assert all(_penalised(rounds, state, other) for other in legal
                           if other.kind is MoveKind.DISCARD)
    assert discards > 50


def _penalised(rounds, state, move):
    return any(e.kind is EventKind.PENALTY and e.seat == move.seat
               for e in rounds.apply(state, move, None).events
               if e.penalty is not None and e.penalty.name != "OKEY_LEFT_IN_HAND")


def test_a_level_outside_1_to_3_or_no_move_is_refused():
    state = start(players=4)
    rounds = round_of(state)
    view = rounds.view(state, state.turn)
    legal = rounds.legal_moves(state, state.turn, None)
    for level in (0, 4):
        with pytest.raises(InvalidInputError) as raised:
            suggest_move(view, legal, level)
        assert raised.value.field == "level"
    with pytest.raises(InvalidInputError) as raised:
        suggest_move(view, [], 2)
    assert raised.value.field == "legal"
