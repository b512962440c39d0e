"""A stacked deal: a position built on purpose, every tile placed by the caller.

Tests, conformance suites and tutorials need positions a shuffle would take
ages to produce (a hand one tile from seven pairs, a wall with two tiles
left). They build them through the contract as a chess engine takes a FEN:
the racks, the wall and the indicator given tile by tile. The deal must
still be one the game could hold: each of the 106 tiles exactly once, the
racks of the right sizes, a real indicator. It is never a fair deal, and
the server marks it as stacked wherever it shows the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.dealing.deal import (
    CLASSIC_FIRST,
    CLASSIC_OTHERS,
    OKEY_101_DEALER,
    OKEY_101_OTHERS,
    validate_deal_input,
)
from okey_rules.dealing.deal_types import Deal, DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, TILE_COUNT, Tile


def stacked_deal(
    rules: Ruleset,
    player_count: int,
    dealer: int,
    *,
    racks: Sequence[Sequence[int]],
    wall: Sequence[int],
    indicator: int,
    field: str = "stacked",
) -> Deal:
    """The deal of the given tile codes; InvalidInputError naming ``field.<part>`` unless the
    position is one a deal could produce."""
    players = validate_deal_input(rules, player_count, dealer, DealMethod.INFORMAL, None)
    if len(racks) != players:
        raise InvalidInputError(
            f"{field}.racks", f"{len(racks)} racks given for {players} seats: one per seat"
        )
    if rules.game is Game.OKEY_101:
        first, first_size, other_size = dealer, OKEY_101_DEALER, OKEY_101_OTHERS
    else:
        first, first_size, other_size = (dealer + 1) % players, CLASSIC_FIRST, CLASSIC_OTHERS
    for seat, rack in enumerate(racks):
        size = first_size if seat == first else other_size
        if len(rack) != size:
            role = "the seat that moves first" if seat == first else "every other seat"
            raise InvalidInputError(
                f"{field}.racks[{seat}].tiles",
                f"seat {seat} holds {len(rack)} tiles; {role} holds {size}",
            )
    if indicator % FACES == FALSE_JOKER_FACE:
        raise InvalidInputError(f"{field}.indicator", "the indicator cannot be a false joker")
    if rules.indicator_drawable_last:
        if not wall or wall[-1] != indicator:
            raise InvalidInputError(
                f"{field}.wall",
                "with indicator_drawable_last the wall ends with the indicator (the same tile)",
            )
    elif indicator in wall:
        raise InvalidInputError(
            f"{field}.wall",
            "the indicator is face up beside the wall, not in it (unless "
            "indicator_drawable_last is set)",
        )
    _check_every_tile_once(racks, wall, indicator, rules.indicator_drawable_last, field)
    return Deal(
        "", rules, DealMethod.INFORMAL, players, dealer, first, indicator,
        tuple(tuple(rack) for rack in racks), tuple(wall),
    )


def _check_every_tile_once(
    racks: Sequence[Sequence[int]],
    wall: Sequence[int],
    indicator: int,
    indicator_in_wall: bool,
    field: str,
) -> None:
    placed: dict[int, str] = {}
    if not indicator_in_wall:
        placed[indicator] = f"{field}.indicator"
    places = [
        *(
            (code, f"{field}.racks[{seat}].tiles[{index}]")
            for seat, rack in enumerate(racks)
            for index, code in enumerate(rack)
        ),
        *((code, f"{field}.wall[{index}]") for index, code in enumerate(wall)),
    ]
    for code, where in places:
        if code in placed:
            raise InvalidInputError(
                where, f"{_named(code)} is placed twice (also at {placed[code]})"
            )
        placed[code] = where
    if len(placed) != TILE_COUNT:
        missing = [_named(c) for c in range(TILE_COUNT) if c not in placed]
        shown = ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
        raise InvalidInputError(
            field,
            f"{len(missing)} of the 106 tiles are not placed ({shown}): a position holds every "
            f"tile exactly once across racks, wall and indicator",
        )


def _named(code: int) -> str:
    tile = Tile.from_code(code)
    return f"{tile} (copy {tile.copy})"
