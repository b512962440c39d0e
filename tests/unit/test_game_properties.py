"""Random rounds played through the engine keep every rule of docs/rules.md §8.

Each example deals a round (2-4 players, random options and seed, sometimes
a near-winning opening rack), then plays it to the end choosing among the
legal moves of every seat: gösterme, draws, taken discards, discards,
winning declarations, timeouts against a moving clock. At every step it
checks the tile accounting (§1.1: each of the 106 tiles in exactly one
place), the rack sizes of the phase (§8.1-§8.2), that every listed move is
accepted and that sampled moves are accepted exactly when listed.
"""

from __future__ import annotations

import random

from game_support import (
    NOW,
    advance_clock,
    all_legal,
    arrange,
    assert_consistent,
    choose,
)
from hypothesis import event, given, settings
from hypothesis import strategies as st
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_types import DealMethod
from okey_rules.play.game import apply_move, legal_moves, replay, start_round
from okey_rules.play.game_types import CLASSIC_MOVES, MOVES_WITH_TILE, GameState
from okey_rules.play.round_types import Event, EventKind, IllegalReason, Move, MoveKind, Phase
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FACES, TILE_COUNT, Tile, indicator_for
from state_cache_support import assert_sealed_round_trip
from strategies import built_hands

RANDOM_MOVES = 60  # then the player draws whenever it can, so the round must end
SAMPLED_PER_STEP = 4


@st.composite
def openings(draw: st.DrawFn) -> tuple[GameState, bool]:
    """A dealt round with random options, and whether the caller gives a clock;
    sometimes the opening seat holds a near-winning 15."""
    players = draw(st.integers(2, 4))
    rules = Ruleset(
        wild_pairs=draw(st.booleans()),
        kafa=draw(st.booleans()),
        indicator_drawable_last=draw(st.booleans()),
        gosterme_in_first_turn=draw(st.booleans()),
        move_timer_seconds=draw(st.sampled_from([0, 15, 45, 120])),
    )
    method = DealMethod.INFORMAL
    if players == 4 and draw(st.booleans()):
        method = DealMethod.FORMAL
    dealer = draw(st.integers(0, players - 1))
    dealt = deal(rules, players, dealer, method, seed=draw(st.text(min_size=1, max_size=12)))
    clock = draw(st.booleans())
    state = start_round(dealt, now_ms=NOW if clock else None)
    rigged = draw(st.one_of(st.none(), built_hands(15, max_swaps=1)))
    if rigged is not None:
        state = _rig(state, *rigged)
    return state, clock


def _rig(state: GameState, hand: list[Tile], okey: Tile) -> GameState:
    """The opening seat gets `hand`; the indicator shows `okey` (the copy the hand lacks)."""
    face = indicator_for(okey).face
    held = {t.code for t in hand}
    indicator = face if face not in held else face + FACES
    return arrange(state, {state.first_seat: [t.code for t in hand]}, indicator=indicator)


def _candidate(state: GameState, rng: random.Random) -> Move:
    """Any move at all: any seat, any kind, a tile it holds or any tile."""
    seat = rng.randrange(state.player_count)
    kind = rng.choice([k for k in MoveKind if k in CLASSIC_MOVES])  # the others: invalid input
    if kind not in MOVES_WITH_TILE:
        return Move(kind, seat)
    rack = state.seats[seat].rack
    code = rng.choice(rack) if rack and rng.random() < 0.7 else rng.randrange(TILE_COUNT)
    return Move(kind, seat, code)


def _check_transition(
    before: GameState, move: Move, now: int | None, after: GameState, kinds: list[EventKind]
) -> None:
    """What one legal move may change (§8.2-§8.6)."""
    assert after.move_number == before.move_number + 1
    assert after.wall == before.wall or after.wall == before.wall[1:]
    if move.kind is MoveKind.GOSTERME:
        assert kinds == [EventKind.GOSTERME]
        assert (after.turn, after.phase, after.wall, after.deadline_ms) == (
            before.turn, before.phase, before.wall, before.deadline_ms
        )
        assert after.seats[move.seat].gosterme
        assert not before.seats[move.seat].gosterme
        return
    assert move.seat == before.turn
    if EventKind.DISCARDED in kinds:
        assert after.turn == (before.turn + 1) % before.player_count
        if EventKind.ROUND_DRAWN in kinds:
            # §8.5: the wall ran out and the next seat cannot finish with the discard.
            assert not after.wall
            assert kinds[-2:] == [EventKind.DISCARDED, EventKind.ROUND_DRAWN]
            assert after.phase is Phase.ROUND_OVER
            assert after.deadline_ms == 0
            return
        assert after.phase is Phase.DRAW
        timer = before.rules.move_timer_seconds
        assert after.deadline_ms == (now + timer * 1000 if timer and now is not None else 0)
    elif after.phase is not Phase.ROUND_OVER:
        assert after.turn == before.turn
        assert after.deadline_ms == before.deadline_ms
    if kinds and kinds[0] is EventKind.TURN_TIMED_OUT:
        assert now is not None
        assert before.deadline_ms
        assert now >= before.deadline_ms


@settings(max_examples=60, deadline=None)
@given(start_and_clock=openings(), play_seed=st.integers(0, 2**32))
def test_random_rounds_keep_every_tile_and_every_rule(start_and_clock, play_seed):
    """§8: over random legal play, every state is consistent (106 tiles, rack
    sizes, outcome), every listed move is accepted, sampled moves are
    accepted exactly when listed, the round ends, and the log replays."""
    opening, clock = start_and_clock
    # The player's choices come from one seeded generator: drawing each from
    # Hypothesis would make the smallest example hundreds of choices long.
    rng = random.Random(play_seed)
    now: int | None = NOW if clock else None
    state = opening
    log: list[tuple[Move, int | None]] = []
    events: list[Event] = []
    budget: int | None = None
    while state.phase is not Phase.ROUND_OVER:
        assert_consistent(state)
        assert_sealed_round_trip(state)
        if now is not None:
            now = advance_clock(state, now, rng)
        legal = all_legal(state, now)
        for seat, moves in legal.items():
            if seat != state.turn:
                assert all(m.kind is MoveKind.GOSTERME for m in moves)
        assert any(m.kind is not MoveKind.GOSTERME for m in legal[state.turn]), "no way on"
        for moves in legal.values():
            for move in moves:
                result = apply_move(state, move, now)
                assert result.legal, (move, result.reason)
                assert result.state is not None
                assert_consistent(result.state)
        for _ in range(SAMPLED_PER_STEP):
            move = _candidate(state, rng)
            result = apply_move(state, move, now)
            assert result.legal == (move in legal[move.seat]), (move, result.reason)
            if not result.legal:
                assert result.state is None
                assert result.reason is not None
        if budget is None and len(log) >= RANDOM_MOVES:
            # From here on each turn draws from the wall or ends the round
            # (plus at most one gösterme per seat), so it must end within this.
            budget = len(log) + 2 * len(state.wall) + state.player_count + 3
        move = choose(state, legal, rng, progress=budget is not None)
        result = apply_move(state, move, now)
        assert result.legal
        assert result.state is not None
        _check_transition(state, move, now, result.state, [e.kind for e in result.events])
        log.append((move, now))
        events += result.events
        state = result.state
        assert budget is None or len(log) <= budget, "the round did not end"
    assert_consistent(state)
    assert_sealed_round_trip(state)
    # Statistics (pytest --hypothesis-show-statistics): what the rounds covered.
    outcome = state.outcome
    assert outcome is not None
    event("round drawn" if outcome.drawn else f"won: {outcome.win_kind}")
    for kind in sorted({m.kind.value for m, _ in log}):
        event(f"played {kind}")
    assert all(legal_moves(state, seat, now) == [] for seat in range(state.player_count))
    assert apply_move(state, _candidate(state, rng), now).reason is IllegalReason.ROUND_OVER
    replayed = replay(opening, log)
    assert replayed.legal
    assert replayed.state == state
    assert replayed.events == tuple(events)
