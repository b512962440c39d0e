"""Rounds for the game-engine tests (docs/rules.md §8): dealt starts, arranged
positions, tile accounting and a random player.

Positions are built from a real deal and then rearranged with `arrange`,
which only moves tiles between racks, the wall and the indicator: every
state a test builds still holds each of the 106 tiles exactly once.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from okey_rules.dealing.deal import deal
from okey_rules.play.game import apply_move, check_playable, legal_moves, start_round
from okey_rules.play.game_types import ClassicResult, GameState
from okey_rules.play.round_types import EventKind, Move, MoveKind, Outcome, Phase
from okey_rules.play.view_types import sees_whole_pile
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FACES, TILE_COUNT, TILE_OF_CODE, Tile, parse_tile, parse_tiles

# A fixed "now" (milliseconds since the epoch) for timed rounds.
NOW = 1_700_000_000_000
UNTIMED = Ruleset(move_timer_seconds=0)
# Untimed, and a seat holding a winning hand may play on (§8.4): the positions
# built by draw-and-throw-back turns need it when a drawn tile completes a hand.
PLAY_ON = Ruleset(move_timer_seconds=0, must_show_win=False)
RACK = 14  # tiles a seat holds between turns; the seat on turn holds one more


def codes(text: str) -> list[int]:
    """Codes of tiles in notation; a repeated face is its second copy (as parse_tiles)."""
    return [tile.code for tile in parse_tiles(text)]


def code(text: str, copy: int = 0) -> int:
    return parse_tile(text).code + copy * FACES


def tile(tile_code: int) -> Tile:
    return TILE_OF_CODE[tile_code]


def start(
    seed: str = "game",
    players: int = 4,
    dealer: int = 0,
    rules: Ruleset = UNTIMED,
    now_ms: int | None = None,
) -> GameState:
    return start_round(deal(rules, players, dealer, seed=seed), now_ms=now_ms)


def arrange(
    state: GameState,
    racks: Mapping[int, Sequence[int]] | None = None,
    wall_front: Sequence[int] = (),
    indicator: int | None = None,
) -> GameState:
    """`state` with the given racks (exactly, in that order), the given tiles
    next in the wall and the given indicator; every other tile of the racks,
    wall and indicator fills the remaining places in its old order. Discard
    piles are left alone."""
    racks = dict(racks or {})
    drawable = state.rules.indicator_drawable_last
    wall = list(state.wall)
    if drawable:
        assert wall, "the drawable indicator is in the wall"
        assert wall[-1] == state.indicator, "the indicator is the last wall tile"
        wall.pop()
    new_indicator = state.indicator if indicator is None else indicator
    fixed = [c for rack in racks.values() for c in rack] + [*wall_front, new_indicator]
    assert len(set(fixed)) == len(fixed), "a tile asked for in two places"
    piles = {c for seat in state.seats for c in seat.discards}
    assert not piles & set(fixed), "arrange does not move discarded tiles"
    pool = [c for seat in state.seats for c in seat.rack] + wall + [state.indicator]
    spare = iter([c for c in pool if c not in set(fixed)])
    seats = []
    for number, seat in enumerate(state.seats):
        if number in racks:
            assert len(racks[number]) == len(seat.rack), f"seat {number} holds {len(seat.rack)}"
            rack = tuple(racks[number])
        else:
            rack = tuple(next(spare) for _ in seat.rack)
        seats.append(replace(seat, rack=rack))
    new_wall = [*wall_front] + [next(spare) for _ in range(len(wall) - len(wall_front))]
    assert next(spare, None) is None
    if drawable:
        new_wall.append(new_indicator)
    result = replace(state, indicator=new_indicator, seats=tuple(seats), wall=tuple(new_wall))
    assert_consistent(result)
    return result


def swap(state: GameState, a: int, b: int) -> GameState:
    """`state` with tiles `a` and `b` trading places (racks, piles, wall, indicator)."""

    def moved(held: Sequence[int]) -> tuple[int, ...]:
        return tuple(b if c == a else a if c == b else c for c in held)

    seats = tuple(replace(s, rack=moved(s.rack), discards=moved(s.discards)) for s in state.seats)
    (indicator,) = moved([state.indicator])
    result = replace(state, seats=seats, wall=moved(state.wall), indicator=indicator)
    assert_consistent(result)
    return result


def give(state: GameState, seat: int, *wanted: int) -> GameState:
    """`state` with `wanted` as the last tiles of `seat`'s rack (received last,
    in that order); each tile fetched trades places with one the seat gave up."""
    spare = [c for c in state.seats[seat].rack if c not in wanted]
    for code_ in wanted:
        if code_ not in state.seats[seat].rack:
            state = swap(state, code_, spare.pop(0))
    rack = [c for c in state.seats[seat].rack if c not in wanted] + list(wanted)
    return arrange(state, {seat: rack})


def without(state: GameState, seat: int, unwanted: int) -> GameState:
    """`state` with `unwanted` out of `seat`'s rack: it trades places with the next wall tile."""
    if unwanted not in state.seats[seat].rack:
        return state
    return swap(state, unwanted, state.wall[0])


def tile_places(state: GameState) -> list[int]:
    """Every tile where the state keeps it: racks, discard piles, the wall, the
    indicator (unless it is in the wall) and a winning discard."""
    places = [c for seat in state.seats for c in (*seat.rack, *seat.discards)]
    places += state.wall
    if not state.rules.indicator_drawable_last:
        places.append(state.indicator)
    if state.outcome is not None and state.outcome.discard is not None:
        places.append(state.outcome.discard)
    return places


def expected_rack_size(state: GameState, seat: int) -> int:
    """§8.1-§8.2: the seat on turn holds 15 until it discards; everyone else 14."""
    holds_extra = state.phase in (Phase.FIRST_DISCARD, Phase.DISCARD) and seat == state.turn
    return RACK + holds_extra


def assert_consistent(state: GameState) -> None:
    """The invariants every state of a classic round keeps."""
    check_playable(state)
    assert sorted(tile_places(state)) == list(range(TILE_COUNT)), "a tile is lost or doubled"
    assert len(state.seats) == state.player_count
    assert 0 <= state.turn < state.player_count
    assert [len(s.rack) for s in state.seats] == [
        expected_rack_size(state, seat) for seat in range(state.player_count)
    ]
    assert (state.outcome is None) == (state.phase is not Phase.ROUND_OVER)
    if state.phase is Phase.ROUND_OVER:
        assert state.deadline_ms == 0
    shown = [seat for seat, held in enumerate(state.seats) if held.gosterme]
    assert sorted(state.gosterme_order) == shown, "gösterme order and flags disagree"
    outcome = state.outcome
    if outcome is not None:
        assert [seat for seat, _ in outcome.gosterme] == list(state.gosterme_order)
        assert outcome.move_number == state.move_number
        if not outcome.drawn:
            assert outcome.winner == state.turn
            assert outcome.hand == state.seats[outcome.winner].rack
            assert outcome.win_kind is not None
            assert outcome.discard is not None
            assert outcome.okey_discard == (outcome.discard % FACES == state.okey.face)


def play(state: GameState, move: Move, now_ms: int | None = None) -> GameState:
    """Applies a move that must be legal."""
    result = apply_move(state, move, now_ms)
    assert result.legal, (move, result.reason, result.message)
    assert result.state is not None
    assert_consistent(result.state)
    return result.state


def refused(state: GameState, move: Move, now_ms: int | None = None) -> ClassicResult:
    """Applies a move that must be illegal: no state, no events, a reason and a message."""
    result = apply_move(state, move, now_ms)
    assert not result.legal
    assert result.state is None
    assert result.events == ()
    assert result.reason is not None
    assert result.message
    return result


def discard(state: GameState, tile_code: int, now_ms: int | None = None) -> GameState:
    return play(state, Move(MoveKind.DISCARD, state.turn, tile_code), now_ms)


def draw(state: GameState, now_ms: int | None = None) -> GameState:
    return play(state, Move(MoveKind.DRAW_FROM_WALL, state.turn), now_ms)


def drain_wall(state: GameState, now_ms: int | None = None) -> GameState:
    """Plays draw-and-discard-the-drawn-tile turns until the wall is empty and the
    round is over, or the seat on turn may finish with the last discard (§8.5)."""
    while state.phase is not Phase.ROUND_OVER and (state.wall or state.phase is not Phase.DRAW):
        if state.phase is Phase.DRAW:
            state = draw(state, now_ms)
        else:
            state = discard(state, state.seats[state.turn].rack[-1], now_ms)
    return state


def end_dry(state: GameState, now_ms: int | None = None) -> GameState:
    """`drain_wall`, then the seat that may finish with the last discard (if any)
    declines it: the round is over, drawn (§8.5)."""
    state = drain_wall(state, now_ms)
    if state.phase is Phase.ROUND_OVER:
        return state
    return play(state, Move(MoveKind.END_ROUND, state.turn), now_ms)


def to_last_wall_tile(state: GameState, now_ms: int | None = None) -> GameState:
    """Plays draw-and-discard-the-drawn-tile turns until one tile is left in the
    wall and the seat on turn is to draw it."""
    while not (state.phase is Phase.DRAW and len(state.wall) == 1):
        if state.phase is Phase.DRAW:
            state = draw(state, now_ms)
        else:
            state = discard(state, state.seats[state.turn].rack[-1], now_ms)
    return state


def waiting_on_last_discard(state: GameState, now_ms: int | None = None) -> GameState:
    """A position where the wall is empty and the seat on turn can finish by taking
    the last discard (§8.5): the last wall tile, R5, completes the R3 R4 R5 run
    of the seat after the one that draws it, beside Y7 B7 K7, Y9-Y12 and B1-B4
    (the rest of its rack is spare); every seat throws back what it draws,
    so the rules must let a seat with a winning hand play on (`PLAY_ON`)."""
    assert not state.rules.must_show_win, "the waiting seat may draw R2 and play on"
    hand = codes("R3 R4 Y7 B7 K7 Y9 Y10 Y11 Y12 B1 B2 B3 B4")
    last = code("R5")
    if state.indicator in (*hand, last):
        state = arrange(state, indicator=next(c for c in state.wall if c not in (*hand, last)))
    # The seat after the opener draws wall[0]; the seat after the one that
    # draws the last wall tile waits on it.
    waiter = (state.first_seat + len(state.wall) + 1) % state.player_count
    spares = [c for c in state.seats[waiter].rack if c not in (*hand, last)]
    rack = hand + spares[: len(state.seats[waiter].rack) - len(hand)]
    state = arrange(state, {waiter: rack}, wall_front=[last])
    state = arrange(state, wall_front=[*state.wall[1:], last])
    state = drain_wall(state, now_ms)
    assert state.turn == waiter
    assert state.phase is Phase.DRAW
    assert not state.wall
    return state


def all_legal(state: GameState, now_ms: int | None) -> dict[int, list[Move]]:
    return {seat: legal_moves(state, seat, now_ms) for seat in range(state.player_count)}


def choose(
    state: GameState, legal: Mapping[int, list[Move]], rng: random.Random, progress: bool
) -> Move:
    """A random player for all seats. It shows gösterme and declares wins
    often; `progress` makes it draw from the wall whenever it can (and end the
    round when it cannot), so the round must end."""
    every = [m for moves in legal.values() for m in moves]
    shows = [m for m in every if m.kind is MoveKind.GOSTERME]
    own = [m for m in legal[state.turn] if m.kind is not MoveKind.GOSTERME]
    if shows and (not own or rng.random() < 0.3):
        return rng.choice(shows)
    kinds = {m.kind for m in own}
    wins = [m for m in own if m.kind is MoveKind.DECLARE_WIN]
    if wins and rng.random() < 0.8:
        return rng.choice(wins)
    if MoveKind.TIMEOUT in kinds:
        return Move(MoveKind.TIMEOUT, state.turn)
    if state.phase is Phase.DRAW:
        if progress:
            kind = MoveKind.DRAW_FROM_WALL if state.wall else MoveKind.END_ROUND
        elif MoveKind.END_ROUND in kinds:
            # §8.5: the last discard may be taken only by a seat that can finish with it.
            ends = (MoveKind.END_ROUND, MoveKind.TAKE_DISCARD)
            kind = rng.choice([k for k in ends if k in kinds])
        else:
            kind = MoveKind.TAKE_DISCARD if rng.random() < 0.3 else MoveKind.DRAW_FROM_WALL
        return Move(kind, state.turn)
    if MoveKind.DISCARD not in kinds:
        # §8.4, §8.5: a win that must be shown, or the last discard taken to finish.
        return rng.choice(wins)
    rack = state.seats[state.turn].rack
    # Half the time the tile just received goes straight back (allowed, §8.2).
    chosen = rack[-1] if rng.random() < 0.5 else rng.choice(rack)
    return Move(MoveKind.DISCARD, state.turn, chosen)


def advance_clock(state: GameState, now_ms: int, rng: random.Random) -> int:
    """The caller's clock moves on a little, or past the turn's deadline."""
    if state.deadline_ms and rng.random() < 0.15:
        return max(now_ms, state.deadline_ms + rng.randrange(0, 5_000))
    return now_ms + rng.randrange(0, 3_000)


def random_round(
    state: GameState, rng: random.Random, clock: bool, random_moves: int = 60
) -> tuple[list[tuple[GameState, Move, int | None]], GameState]:
    """Plays a round to its end: (state before, move, clock) for every move, and the last state."""
    now: int | None = NOW if clock else None
    steps: list[tuple[GameState, Move, int | None]] = []
    while state.phase is not Phase.ROUND_OVER:
        if now is not None:
            now = advance_clock(state, now, rng)
        move = choose(state, all_legal(state, now), rng, progress=len(steps) >= random_moves)
        steps.append((state, move, now))
        state = play(state, move, now)
    return steps, state


def outcome_of(state: GameState) -> Outcome:
    """The outcome of a round that must be over."""
    assert state.outcome is not None
    return state.outcome


def events_of(result: ClassicResult) -> list[EventKind]:
    return [event.kind for event in result.events]


def hidden_from(state: GameState, viewer: int) -> list[int]:
    """The tiles `viewer` may not see: other racks, the wall, buried discards it cannot see."""
    hidden = [c for seat, s in enumerate(state.seats) if seat != viewer for c in s.rack]
    hidden += state.wall
    for owner, held in enumerate(state.seats):
        if not sees_whole_pile(viewer, owner, state.player_count):
            hidden += held.discards[:-1]
    return hidden


def reshuffled(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """`state` with the tiles hidden from `viewer` dealt out again in another
    order (same sizes everywhere): a position `viewer` cannot tell apart."""
    hidden = hidden_from(state, viewer)
    rng.shuffle(hidden)
    tiles = iter(hidden)
    seats = []
    for seat, held in enumerate(state.seats):
        rack = held.rack if seat == viewer else tuple(next(tiles) for _ in held.rack)
        pile = held.discards
        if pile and not sees_whole_pile(viewer, seat, state.player_count):
            pile = (*(next(tiles) for _ in pile[:-1]), pile[-1])
        seats.append(dataclasses.replace(held, rack=rack, discards=pile))
    wall = tuple(next(tiles) for _ in state.wall)
    return dataclasses.replace(state, seats=tuple(seats), wall=wall)
