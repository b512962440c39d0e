"""What one seat may see of an Okey 101 round (docs/rules.md §8.7, §10): its own rack,
the table's melds, every seat's counts, openings and penalties, the piles as far as the
seat may see them; never another rack or the bank's order."""

from __future__ import annotations

from okey_rules.errors import check_seat
from okey_rules.play.game101 import pairs_needed, points_needed
from okey_rules.play.game101_types import State101
from okey_rules.play.view_types import (
    LaidTileView,
    PlayerView,
    SeatView,
    TableMeldView,
    sees_whole_pile,
)
from okey_rules.rulebook import is_wild
from okey_rules.tiles import TILE_OF_CODE


def player_view_101(state: State101, seat: int) -> PlayerView:
    check_seat(seat, state.player_count)
    okey = state.okey
    seats = tuple(
        SeatView(
            seat=owner,
            rack_size=len(held.rack),
            discard_count=len(held.discards),
            discards=held.discards if whole else held.discards[-1:],
            whole_pile=whole,
            opened=held.opened,
            penalties=held.penalties,
        )
        for owner, held in enumerate(state.seats)
        for whole in (sees_whole_pile(seat, owner, state.player_count),)
    )
    table = tuple(
        TableMeldView(
            index=index,
            owner=meld.owner,
            kind=meld.kind,
            value=meld.value,
            tiles=tuple(
                LaidTileView(laid.code, laid.face, is_wild(TILE_OF_CODE[laid.code], okey))
                for laid in meld.tiles
            ),
        )
        for index, meld in enumerate(state.table)
    )
    taken = state.taken
    still_held = taken is not None and taken in state.seats[state.turn].rack
    return PlayerView(
        seat=seat,
        rules=state.rules,
        player_count=state.player_count,
        dealer=state.dealer,
        indicator=state.indicator,
        rack=state.seats[seat].rack,
        seats=seats,
        wall_size=len(state.wall),
        turn=state.turn,
        phase=state.phase,
        move_number=state.move_number,
        outcome=state.outcome,
        deal_id=state.deal_id,
        round=state.round,
        table=table,
        taken_discard=taken if still_held else None,
        points_needed=points_needed(state),
        pairs_needed=pairs_needed(state),
    )
