"""The Okey 101 seat view and next deal, worked out in the engine (docs/rules.md §8.7,
§10.7): a seat sees its own rack, every rack's size, its own and the previous seat's
whole pile and only the top of the others, the table's melds with their wild tiles, and
the discard taken this turn while it is still held; the next round's dealer is the seat
after the dealer, except after a void round."""

from __future__ import annotations

import dataclasses

from game101_support import arranged, start101
from okey_rules.play.game101_view import player_view_101
from okey_rules.play.round_types import Outcome, Phase, RoundEnd
from okey_rules.scores.scoring101 import next_deal_101
from okey_rules.scores.scoring_types import RoundScore, Table


def test_a_seat_sees_its_rack_and_only_the_sizes_of_the_others():
    state = start101()
    view = player_view_101(state, 2)
    assert view.rack == state.seats[2].rack
    assert [s.rack_size for s in view.seats] == [len(s.rack) for s in state.seats]
    assert view.wall_size == len(state.wall)
    assert not hasattr(view, "wall")


def test_piles_are_whole_for_the_own_and_the_previous_seat_only():
    state = start101()
    piles = tuple((40 + seat, 60 + seat) for seat in range(4))
    seats = tuple(dataclasses.replace(s, discards=p) for s, p in zip(state.seats, piles,
                                                                   strict=True))
    view = player_view_101(dataclasses.replace(state, seats=seats), 1)
    assert [s.whole_pile for s in view.seats] == [True, True, False, False]
    assert [s.discards for s in view.seats] == [piles[0], piles[1], piles[2][-1:], piles[3][-1:]]


def test_table_melds_show_which_tiles_are_wild():
    state = arranged({}, turn=0, phase=Phase.DRAW, table=[(1, "K5 K6 K7")])
    view = player_view_101(state, 0)
    (meld,) = view.table
    assert meld.owner == 1
    assert [t.face for t in meld.tiles] == [laid.face for laid in state.table[0].tiles]
    assert [t.wild for t in meld.tiles] == [
        laid.code % 53 != laid.face for laid in state.table[0].tiles
    ]


def _scored(game_over: bool = False) -> RoundScore:
    table = Table((0, 0, 0, 0))
    return RoundScore((0, 0, 0, 0), table, 0, (), game_over, (), (False,) * 4)


def test_the_next_deal_passes_to_the_next_seat_but_a_void_round_is_dealt_again():
    state = start101(dealer=3)
    finished = dataclasses.replace(state, outcome=Outcome(RoundEnd.WON, 20),
                                   round=2)
    assert next_deal_101(finished, _scored()) == (0, 3)
    void = dataclasses.replace(finished, outcome=Outcome(RoundEnd.VOID, 20))
    assert next_deal_101(void, _scored()) == (3, 2)
    assert next_deal_101(finished, _scored(game_over=True)) is None
