"""The turn's mechanics both games share (docs/rules.md §8.2, §10.4), written once: draw the
wall's first tile, take the top of the previous seat's pile, discard onto one's own pile,
pass the turn to the next seat.

Each function moves tiles between the seats' racks and piles and the wall, and nothing
else: what each game also records (classic counts a seat's draws for gösterme; Okey 101
remembers the taken discard, its penalties) is the caller's `changes` to the seat, and the
state around the seats stays each game's own. A state is rebuilt on every move, so the
seats are rebuilt with `fast_replace` (`dataclasses.replace` without its per-call walk).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from okey_rules.play.game101_types import Seat101, State101
from okey_rules.play.game_types import GameState, SeatState

Value = TypeVar("Value", GameState, SeatState, State101, Seat101)
Seat = TypeVar("Seat", SeatState, Seat101)


def _replacer(cls: type[Any]) -> Callable[[Any, dict[str, Any]], Any]:
    """A `dataclasses.replace` for `cls` that reads every field in one C call.

    Every move builds a new state, and `replace` walks the fields' metadata
    on each call: that walk was most of a move's cost. The class is built
    positionally, so every field must be an init field and not keyword-only.
    """
    specs = fields(cls)
    if not all(spec.init and not spec.kw_only for spec in specs):
        raise TypeError(f"{cls.__name__} has a field that cannot be passed positionally")
    names = tuple(spec.name for spec in specs)
    index = {name: i for i, name in enumerate(names)}
    values_of = operator.attrgetter(*names)

    def build(value: Any, changes: dict[str, Any]) -> Any:
        values = list(values_of(value))
        for name, changed in changes.items():
            values[index[name]] = changed
        return cls(*values)

    return build


_REPLACERS = {cls: _replacer(cls) for cls in (GameState, SeatState, State101, Seat101)}


def fast_replace(value: Value, **changes: Any) -> Value:
    """`dataclasses.replace(value, **changes)` for either game's state or seat, faster."""
    return _REPLACERS[type(value)](value, changes)  # type: ignore[no-any-return]


def with_seat(seats: tuple[Seat, ...], seat: int, **changes: Any) -> tuple[Seat, ...]:
    """`seats` with `changes` made to seat `seat`."""
    out = list(seats)
    out[seat] = fast_replace(out[seat], **changes)
    return tuple(out)


def draw(
    seats: tuple[Seat, ...], seat: int, wall: tuple[int, ...], **changes: Any
) -> tuple[tuple[Seat, ...], tuple[int, ...], int]:
    """§8.2, §10.4: `seat` draws the wall's first tile into its rack. The seats and wall
    after, and the tile drawn; the wall must hold a tile (each game says why not)."""
    code = wall[0]
    rack = (*seats[seat].rack, code)
    return with_seat(seats, seat, rack=rack, **changes), wall[1:], code


def take_discard(
    seats: tuple[Seat, ...], taker: int, giver: int, **changes: Any
) -> tuple[tuple[Seat, ...], int]:
    """§8.2, §10.4: `taker` takes the top of `giver`'s pile into its rack. The seats after,
    and the tile taken; the pile must hold a tile."""
    out = list(seats)
    pile = out[giver].discards
    code = pile[-1]
    out[giver] = fast_replace(out[giver], discards=pile[:-1])
    taker_seat: Seat = out[taker]
    out[taker] = fast_replace(taker_seat, rack=(*taker_seat.rack, code), **changes)
    return tuple(out), code


def discard(seats: tuple[Seat, ...], seat: int, code: int, **changes: Any) -> tuple[Seat, ...]:
    """§8.2, §10.4: `seat` moves `code` from its rack onto the top of its own pile."""
    held: Seat = seats[seat]
    rack = list(held.rack)
    rack.remove(code)
    return with_seat(seats, seat, rack=tuple(rack), discards=(*held.discards, code), **changes)


def next_seat(seat: int, player_count: int) -> int:
    """The seat that plays after `seat` (play passes round the table)."""
    return (seat + 1) % player_count


def previous_seat(seat: int, player_count: int) -> int:
    """The seat that plays before `seat`: its pile is the one `seat` may take from."""
    return (seat - 1) % player_count
