"""What each seat sees of a round (docs/rules.md §8.7): its own rack, every
seat's counts, the discards it may see, the wall's size; never another rack
or the wall order."""

from __future__ import annotations

import dataclasses
import random

import pytest
from game_support import (
    arrange,
    code,
    codes,
    discard,
    draw,
    play,
    random_round,
    reshuffled,
    start,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from okey.v1 import game_pb2, state_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.game_types import GameState
from okey_rules.play.game_view import player_view
from okey_rules.play.round_types import Move, MoveKind, Phase
from okey_rules.play.view_types import PlayerView, sees_whole_pile
from okey_rules.ruleset import Ruleset
from okey_server.wire.convert_game import view_to_proto

# Every field a view has. A new field must be added here on purpose, after
# checking that it gives nothing hidden away. `deal_id` is the state's deal
# reference, public either way: a committed deal's commitment or a seeded
# deal's keyed id (never the secret deal id of CommitSeed nor the seed); the
# server shows it as deal_kind, commitment and seeded_deal_id.
VIEW_FIELDS = {
    "seat", "rules", "player_count", "dealer", "indicator", "rack", "seats", "wall_size",
    "turn", "phase", "move_number", "deadline_ms", "outcome", "deal_id", "round",
    "table", "taken_discard", "points_needed", "pairs_needed",  # Okey 101's: empty in classic
}  # fmt: skip
SEAT_VIEW_FIELDS = {"seat", "rack_size", "discard_count", "discards", "whole_pile", "gosterme",
                    "opened", "penalties"}  # the last two: Okey 101's, empty in classic


def assert_view_of(state: GameState, seat: int, view: PlayerView) -> None:
    assert {f.name for f in dataclasses.fields(view)} == VIEW_FIELDS
    assert view.seat == seat
    assert view.rack == state.seats[seat].rack
    assert view.wall_size == len(state.wall)
    assert (view.turn, view.phase, view.move_number, view.deadline_ms) == (
        state.turn, state.phase, state.move_number, state.deadline_ms
    )
    assert (view.indicator, view.dealer, view.player_count) == (
        state.indicator, state.dealer, state.player_count
    )
    assert (view.table, view.taken_discard) == ((), None)  # classic lays nothing down
    assert len(view.seats) == state.player_count
    for owner, (seen, held) in enumerate(zip(view.seats, state.seats, strict=True)):
        assert {f.name for f in dataclasses.fields(seen)} == SEAT_VIEW_FIELDS
        whole = sees_whole_pile(seat, owner, state.player_count)
        assert seen.seat == owner
        assert seen.rack_size == len(held.rack)
        assert seen.discard_count == len(held.discards)
        assert seen.whole_pile == whole
        assert seen.discards == (held.discards if whole else held.discards[-1:])
        assert seen.gosterme == held.gosterme
        assert (seen.opened, seen.penalties) == (None, ())


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.text(min_size=1, max_size=12),
    clock=st.booleans(),
    play_seed=st.integers(0, 2**32),
)
def test_a_view_shows_only_what_its_seat_may_see(players, seed, clock, play_seed):
    """§8.7: at every point of random rounds, each seat's view holds its own
    rack, counts, the visible discards and the wall's size, and stays the same
    when every tile hidden from it is dealt out differently."""
    rng = random.Random(play_seed)
    rules = Ruleset(move_timer_seconds=rng.choice([0, 45]))
    steps, final = random_round(start(seed=seed, players=players, rules=rules), rng, clock)
    for state in [before for before, _, _ in steps] + [final]:
        for seat in range(players):
            view = player_view(state, seat)
            assert_view_of(state, seat, view)
            if state.phase is not Phase.ROUND_OVER:
                # Once a round is won the winner's rack is shown in the outcome.
                assert player_view(reshuffled(state, seat, rng), seat) == view


@pytest.mark.parametrize(
    ("players", "viewer", "whole"),
    [
        (4, 0, {0, 3}),
        (4, 1, {1, 0}),
        (4, 3, {3, 2}),
        (3, 0, {0, 2}),
        (3, 2, {2, 1}),
        (2, 0, {0, 1}),
        (2, 1, {1, 0}),
    ],
)
def test_a_seat_sees_its_own_pile_and_the_previous_seats_whole(players, viewer, whole):
    """§8.7: the whole of one's own pile and of the previous seat's (the pile
    one takes from); of every other pile only the top (the Japanese rules text)."""
    assert {o for o in range(players) if sees_whole_pile(viewer, o, players)} == whole


def test_a_won_round_shows_the_winners_hand_to_everyone():
    """§8.4, §8.7: the winner shows its 14 tiles: every seat's view carries the outcome."""
    hand = codes("R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2")
    state = arrange(start(players=3, dealer=0), {1: hand}, indicator=code("B13"))
    over = play(state, Move(MoveKind.DECLARE_WIN, 1, code("K2")))
    for seat in range(3):
        outcome = player_view(over, seat).outcome
        assert outcome is not None
        assert outcome.hand == tuple(hand[:-1])


def test_a_view_of_a_seat_that_does_not_exist_is_invalid_input():
    """§8.7: seats are 0..player_count-1."""
    with pytest.raises(InvalidInputError) as raised:
        player_view(start(players=3), 3)
    assert raised.value.field == "seat"


def test_buried_discards_of_far_piles_are_not_shown():
    """§8.7: four players, after two rounds of turns: seat 0 sees the whole of
    its own pile and seat 3's, only the tops of seats 1 and 2."""
    state = start(players=4, dealer=3)  # seat 0 opens
    state = discard(state, state.seats[0].rack[0])
    for _ in range(7):
        state = draw(state)
        state = discard(state, state.seats[state.turn].rack[0])
    assert [len(s.discards) for s in state.seats] == [2, 2, 2, 2]
    view = player_view(state, 0)
    assert [len(seen.discards) for seen in view.seats] == [2, 1, 1, 2]
    assert view.seats[1].discards == state.seats[1].discards[-1:]
    assert view.seats[2].discards == state.seats[2].discards[-1:]
    assert view.seats[3].discards == state.seats[3].discards


COMMITMENT = "c0" * 32  # 64 hex digits: what a committed deal's state holds
SEEDED_ID = "5e" * 16  # 32 hex digits: a seeded deal's keyed id


def test_the_proto_view_carries_no_deal_id_field():
    """The contract's view has no deal id (the secret deal id of a committed deal must
    never reach a seat): only the deal's kind and its public name."""
    fields = game_pb2.PlayerViewResponse.DESCRIPTOR.fields_by_name
    assert "deal_id" not in fields
    assert {"deal_kind", "commitment", "seeded_deal_id"} <= set(fields)


@pytest.mark.parametrize(
    ("deal_ref", "kind", "commitment", "seeded_id"),
    [
        (COMMITMENT, state_pb2.DEAL_KIND_COMMITTED, COMMITMENT, ""),
        (SEEDED_ID, state_pb2.DEAL_KIND_SEEDED, "", SEEDED_ID),
        ("", state_pb2.DEAL_KIND_STACKED, "", ""),
    ],
)
def test_a_view_names_its_deal_by_kind_and_public_name(deal_ref, kind, commitment, seeded_id):
    """A committed deal's views show its commitment, a seeded deal's its keyed id, a stacked
    position neither; every seat sees the same."""
    state = dataclasses.replace(start(players=3), deal_id=deal_ref)
    for seat in range(3):
        answer = view_to_proto(player_view(state, seat))
        assert (answer.deal_kind, answer.commitment, answer.seeded_deal_id) == (
            kind, commitment, seeded_id
        )
