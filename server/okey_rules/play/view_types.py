"""What one seat may see of a round, one type for both games (docs/rules.md §8.7, §10): its
own rack, every seat's counts and visible discards, the table's melds; never another rack
or the wall's order. Each game's engine builds it (okey_rules.play.game_view for classic,
game101_view for Okey 101); a part only one game has is empty in the other."""

from __future__ import annotations

from dataclasses import dataclass

from okey_rules.play.round_types import Opened, Outcome, Penalty, Phase
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import MeldKind


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rack_size: int
    discard_count: int
    discards: tuple[int, ...]  # the visible part of the pile, oldest first
    whole_pile: bool
    gosterme: bool = False  # classic: the seat showed gösterme
    opened: Opened | None = None  # Okey 101: how the seat opened, if it has
    penalties: tuple[Penalty, ...] = ()  # Okey 101: the seat's penalties so far


@dataclass(frozen=True, slots=True)
class LaidTileView:
    code: int  # the tile laid
    face: int  # the face it stands for
    wild: bool  # an okey standing for another tile


@dataclass(frozen=True, slots=True)
class TableMeldView:
    index: int
    owner: int
    kind: MeldKind
    value: int  # its points (§10.2)
    tiles: tuple[LaidTileView, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    rules: Ruleset
    player_count: int
    dealer: int
    indicator: int
    rack: tuple[int, ...]
    seats: tuple[SeatView, ...]
    wall_size: int
    turn: int
    phase: Phase
    move_number: int
    outcome: Outcome | None
    deal_id: str
    round: int
    deadline_ms: int = 0  # classic: the turn's deadline (0: untimed)
    table: tuple[TableMeldView, ...] = ()  # Okey 101: the melds on the table
    # Okey 101: the discard the seat on turn took this turn while it is still to be laid.
    taken_discard: int | None = None
    # Okey 101: what an opening needs now (§10.2, §10.8 progressive opening): points by
    # melds and pairs; 0 in classic. Public: every seat saw the openings made.
    points_needed: int = 0
    pairs_needed: int = 0


def sees_whole_pile(viewer: int, owner: int, player_count: int) -> bool:
    """§8.7: a seat sees all of its own pile and of the previous seat's (the pile
    it takes from); of every other pile only the top tile."""
    return owner == viewer or owner == (viewer - 1) % player_count
