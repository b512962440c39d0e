"""The turn's mechanics both games share (okey_rules.play.turns, docs/rules.md §8.2, §10.4):
written once, and each game's engine moves tiles only through them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from okey_rules.play.game101_types import Seat101
from okey_rules.play.game_types import SeatState
from okey_rules.play.turns import (
    discard,
    draw,
    fast_replace,
    next_seat,
    previous_seat,
    take_discard,
)

PLAY = Path(__file__).resolve().parents[2] / "server" / "okey_rules" / "play"
SEATS = [(SeatState((1, 2)), SeatState((3,), discards=(9, 8))),
         (Seat101((1, 2)), Seat101((3,), discards=(9, 8)))]


@pytest.mark.parametrize("seats", SEATS, ids=["classic", "okey 101"])
def test_a_draw_takes_the_walls_first_tile_into_the_rack(seats):
    """§8.2, §10.4: the wall (Okey 101: the bank) is drawn from its front."""
    after, wall, code = draw(seats, 0, (7, 6, 5))
    assert (code, wall) == (7, (6, 5))
    assert after[0].rack == (1, 2, 7)
    assert after[1] == seats[1]


@pytest.mark.parametrize("seats", SEATS, ids=["classic", "okey 101"])
def test_taking_a_discard_takes_the_top_of_the_previous_pile(seats):
    """§8.2, §10.4: the tile taken is the last one discarded, and leaves its pile."""
    after, code = take_discard(seats, 0, 1)
    assert code == 8
    assert (after[0].rack, after[1].discards) == ((1, 2, 8), (9,))


@pytest.mark.parametrize("seats", SEATS, ids=["classic", "okey 101"])
def test_a_discard_goes_from_the_rack_onto_the_seats_own_pile(seats):
    after = discard(seats, 1, 3)
    assert (after[1].rack, after[1].discards) == ((), (9, 8, 3))


def test_a_games_own_bookkeeping_rides_along():
    """Classic counts a seat's draws (gösterme's window, §8.3) in the same step."""
    after, _, _ = draw((SeatState((1,)),), 0, (4,), draws=1)
    assert after[0].draws == 1


def test_play_passes_round_the_table():
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [previous_seat(s, 3) for s in range(3)] == [2, 0, 1]


def test_fast_replace_is_dataclasses_replace():
    seat = Seat101((1, 2), discards=(3,))
    assert fast_replace(seat, rack=()) == Seat101((), discards=(3,))


@pytest.mark.parametrize("module", ["game.py", "game101.py"])
def test_neither_game_moves_a_wall_tile_itself(module):
    """Drawing is written once: a game's engine never reads the wall's front itself."""
    tree = ast.parse((PLAY / module).read_text(encoding="utf-8"))
    reads = [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
        and node.value.attr == "wall"
    ]
    assert reads == [], f"{module} indexes the wall at lines {reads}"
