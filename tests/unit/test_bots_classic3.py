"""Classic level 3 (okey_rules.bots.classic_bot): its rules of play beyond level 2's, on
hand-written views of seat 1 (seat 0 before it, seat 2 after it), docs/rules.md §8."""

from __future__ import annotations

from game_support import code, codes
from okey_rules.bots.classic_odds import draw_chance, turns_left, win_chance
from okey_rules.bots.suggest import suggest_move
from okey_rules.play.round_types import Move, MoveKind, Phase
from okey_rules.play.view_types import PlayerView, SeatView
from okey_rules.ruleset import preset
from okey_rules.tiles import FACES

SEAT = 1
# Indicator Y1: the okey is Y2, none in these racks.
INDICATOR = code("Y1")
# One from a win: R1-R5, Y7-Y9, B10-B12 and K5 K7 wait on K6 (or an okey); R12 goes.
CLOSE = "R1 R2 R3 R4 R5 Y7 Y8 Y9 B10 B11 B12 K5 K7 R12"
DRAW = [Move(MoveKind.DRAW_FROM_WALL, SEAT), Move(MoveKind.TAKE_DISCARD, SEAT)]


def _view(rack: list[int], piles: dict[int, list[int]], phase: Phase,
          wall_size: int = 30) -> PlayerView:
    seats = tuple(
        SeatView(seat, 15 if seat == SEAT and phase is Phase.DISCARD else 14,
                 len(piles.get(seat, ())), tuple(piles.get(seat, ())),
                 seat in (SEAT, SEAT - 1))
        for seat in range(4)
    )
    return PlayerView(seat=SEAT, rules=preset("classic"), player_count=4, dealer=0,
                      indicator=INDICATOR, rack=tuple(rack), seats=seats,
                      wall_size=wall_size, turn=SEAT, phase=phase, move_number=12,
                      outcome=None, deal_id="level 3", round=1)


def _discards(rack: list[int]) -> list[Move]:
    return [Move(MoveKind.DISCARD, SEAT, tile) for tile in rack]


def test_level_3_takes_a_discard_that_widens_a_close_wait():
    """§8.2: one from a win on K6 alone (the other K6 lies in seat 0's pile), level 3
    takes seat 0's K8, which keeps the distance but waits on K6 and K9 (the wall draw
    would step only on a K6 or an okey); level 2 draws, since the distance stays. With
    a Y3 on top, which widens nothing, level 3 draws too."""
    rack = codes(CLOSE)
    widening = _view(rack, {0: [code("K6"), code("K8")]}, Phase.DRAW)
    assert suggest_move(widening, DRAW, 3).move.kind is MoveKind.TAKE_DISCARD
    assert suggest_move(widening, DRAW, 2).move.kind is MoveKind.DRAW_FROM_WALL
    idle = _view(rack, {0: [code("K6"), code("Y3")]}, Phase.DRAW)
    assert suggest_move(idle, DRAW, 3).move.kind is MoveKind.DRAW_FROM_WALL


def test_level_3_throws_the_face_the_next_seat_left_lying():
    """§8.2, §8.7: R12 and K11 are equally useless to seat 1 (either leaves a wait on
    K6); a K11 lying in seat 1's own pile was passed over by seat 2, the only seat that
    can take a discard of seat 1, so level 3 throws K11. Level 2 throws the first face,
    R12, and so does level 3 when R12 is the face left lying."""
    rack = codes(CLOSE + " K11")
    k11_left = _view(rack, {1: [code("K11", copy=1)]}, Phase.DISCARD)
    assert suggest_move(k11_left, _discards(rack), 3).move.tile == code("K11")
    assert suggest_move(k11_left, _discards(rack), 2).move.tile == code("R12")
    r12_left = _view(rack, {1: [code("R12", copy=1)]}, Phase.DISCARD)
    assert suggest_move(r12_left, _discards(rack), 3).move.tile == code("R12")


def test_level_3_only_defends_when_the_wall_cannot_bring_a_win():
    """§8.5: two from a win with 3 tiles left in the wall (the other seats draw them, then
    the last discard may finish only a hand one from a win), level 3 throws Y8 from its
    run, the face seat 2 left lying; with 12 left it keeps its run."""
    rack = codes("R1 R2 R3 R4 R5 Y7 Y8 Y9 B10 B11 K1 K5 K7 R12 K11")
    piles = {1: [code("Y8", copy=1)]}
    late = _view(rack, piles, Phase.DISCARD, wall_size=3)
    assert suggest_move(late, _discards(rack), 3).move.tile == code("Y8")
    earlier = _view(rack, piles, Phase.DISCARD, wall_size=12)
    assert suggest_move(earlier, _discards(rack), 3).move.tile % FACES != code("Y8")


def test_the_odds_grow_with_the_wait_and_the_turns_and_shrink_with_the_distance():
    """The model behind level 3's take: more useful copies or more turns raise the chance
    to win, a farther hand lowers it, a hand farther than the turns left cannot win, and
    a wall draw beats taking a tile that changes nothing."""
    assert win_chance(1, 6, 80, 5) > win_chance(1, 3, 80, 5)
    assert win_chance(1, 3, 80, 8) > win_chance(1, 3, 80, 5)
    assert win_chance(2, 6, 80, 5) < win_chance(1, 6, 80, 5)
    assert win_chance(3, 20, 80, 2) == 0.0
    assert win_chance(0, 0, 80, 0) == 1.0
    assert draw_chance(1, 3, 80, 5) > win_chance(1, 3, 80, 5)
    assert turns_left(12, 4) == 3
    assert turns_left(3, 4) == 0
