"""Dealing a round from a seed: informal or formal classic deals, and Okey 101 deals.

`deal` is the entry point; `deal_from_order` takes an explicit shuffled order
(and dice, or the random draws that put back a false joker) so tests and
physical-table companions can feed one. docs/dealing.md states every step
byte for byte.

>>> d = deal(seed="42")
>>> [len(rack) for rack in d.racks], len(d.wall), d.first_seat
([14, 15, 14, 14], 48, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from okey_rules.dealing.deal_formal import FORMAL_PLAYERS, formal_deal
from okey_rules.dealing.deal_types import Deal, DealMethod
from okey_rules.dealing.shuffle import SeedStream, fisher_yates
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, TILE_COUNT

CLASSIC = Ruleset()
DEFAULT_PLAYERS = 4
CLASSIC_PLAYERS = range(2, 5)
OKEY_101_PLAYERS = 4
# Classic: the first player (dealer's right) 15, the others 14 (docs/dealing.md).
CLASSIC_FIRST, CLASSIC_OTHERS = 15, 14
# Okey 101: the dealer 22, the others 21 (docs/dealing.md).
OKEY_101_DEALER, OKEY_101_OTHERS = 22, 21
DIE_FACES = range(1, 7)
MAX_DICE = 64  # far beyond any real sequence of re-rolls; bounds the work


def validate_deal_input(
    rules: Ruleset,
    player_count: int,
    dealer: int,
    method: DealMethod,
    dice: Sequence[int] | None,
) -> int:
    """Raises `InvalidInputError` naming the field; returns the player count (0 -> 4)."""
    players = player_count or DEFAULT_PLAYERS
    if rules.game is Game.OKEY_101:
        if players != OKEY_101_PLAYERS:
            raise InvalidInputError(
                "player_count", f"Okey 101 is played by exactly 4 players, not {players}"
            )
    elif players not in CLASSIC_PLAYERS:
        raise InvalidInputError("player_count", f"classic Okey takes 2-4 players, not {players}")
    if not 0 <= dealer < players:
        raise InvalidInputError(
            "dealer_seat", f"dealer seat {dealer} does not exist: seats are 0-{players - 1}"
        )
    if method is DealMethod.FORMAL:
        if rules.game is Game.OKEY_101:
            raise InvalidInputError(
                "method", "the formal deal (stacks and dice) is classic Okey's; 101 is informal"
            )
        if players != FORMAL_PLAYERS:
            raise InvalidInputError(
                "method", f"the formal deal (stacks and dice) needs 4 players, not {players}"
            )
    if dice:
        if method is not DealMethod.FORMAL:
            raise InvalidInputError("dice", "dice are only rolled in a formal deal")
        if len(dice) > MAX_DICE:
            raise InvalidInputError("dice", f"{len(dice)} dice given; at most {MAX_DICE}")
        for index, die in enumerate(dice):
            if die not in DIE_FACES:
                raise InvalidInputError(f"dice[{index}]", f"a die shows 1-6, not {die}")
    return players


def deal(
    rules: Ruleset = CLASSIC,
    player_count: int = DEFAULT_PLAYERS,
    dealer: int = 0,
    method: DealMethod = DealMethod.INFORMAL,
    *,
    seed: str,
    dice: Sequence[int] | None = None,
) -> Deal:
    """Deals one round from `seed`; formal-deal dice come from `dice` or else the seed."""
    players = validate_deal_input(rules, player_count, dealer, method, dice)
    stream = SeedStream(seed)
    order = fisher_yates(stream, list(range(TILE_COUNT)))
    if method is DealMethod.FORMAL:
        roll = _given_dice(dice) if dice else _stream_dice(stream)
        return _formal(order, rules, dealer, seed=seed, roll=roll, dice=dice)
    return _informal(order, rules, players, dealer, seed=seed, below=stream.below)


def deal_from_order(
    order: Sequence[int],
    rules: Ruleset = CLASSIC,
    player_count: int = DEFAULT_PLAYERS,
    dealer: int = 0,
    method: DealMethod = DealMethod.INFORMAL,
    *,
    dice: Sequence[int] | None = None,
    below: Callable[[int], int] | None = None,
) -> Deal:
    """Deals from an explicit shuffled order of the 106 codes.

    A formal deal needs `dice`. An informal deal whose order starts with a
    false joker needs `below(n)`, the random draws (0..n-1) that put it back.
    """
    players = validate_deal_input(rules, player_count, dealer, method, dice)
    if sorted(order) != list(range(TILE_COUNT)):
        raise InvalidInputError("order", "the order must hold each tile code 0-105 exactly once")
    if method is DealMethod.FORMAL:
        if not dice:
            raise InvalidInputError("dice", "a formal deal from an explicit order needs its dice")
        return _formal(list(order), rules, dealer, seed="", roll=_given_dice(dice), dice=dice)
    return _informal(list(order), rules, players, dealer, seed="", below=below or _no_draws)


def _formal(
    order: list[int],
    rules: Ruleset,
    dealer: int,
    *,
    seed: str,
    roll: Callable[[int], int],
    dice: Sequence[int] | None,
) -> Deal:
    indicator, racks, wall, procedure = formal_deal(
        order, dealer, roll, bool(dice), rules.indicator_drawable_last
    )
    if dice and len(dice) != len(procedure.dice):
        raise InvalidInputError(
            "dice",
            f"{len(dice)} dice given but the deal used {len(procedure.dice)}: "
            "give exactly die 1, die 2 and each re-roll of die 2",
        )
    first = (dealer + 1) % FORMAL_PLAYERS
    return Deal(seed, rules, DealMethod.FORMAL, FORMAL_PLAYERS, dealer, first, indicator,
                racks, wall, procedure)


def _informal(
    order: list[int],
    rules: Ruleset,
    players: int,
    dealer: int,
    *,
    seed: str,
    below: Callable[[int], int],
) -> Deal:
    turned_up_false_joker = order[0] % FACES == FALSE_JOKER_FACE
    indicator, rest = _turn_up_indicator(order, below)
    if rules.game is Game.OKEY_101:
        # The dealer is served first and starts (the Japanese rules text, Okey 101).
        first = dealer
        sizes = [OKEY_101_DEALER] + [OKEY_101_OTHERS] * (players - 1)
    else:
        first = (dealer + 1) % players
        sizes = [CLASSIC_FIRST] + [CLASSIC_OTHERS] * (players - 1)
    racks: list[tuple[int, ...]] = [()] * players
    position = 0
    for turn, size in enumerate(sizes):
        racks[(first + turn) % players] = tuple(rest[position : position + size])
        position += size
    wall = rest[position:]
    if rules.indicator_drawable_last:
        wall.append(indicator)
    return Deal(seed, rules, DealMethod.INFORMAL, players, dealer, first, indicator,
                tuple(racks), tuple(wall), false_joker_turned_up=turned_up_false_joker)


def _turn_up_indicator(order: list[int], below: Callable[[int], int]) -> tuple[int, list[int]]:
    """The indicator a[0] and the other 105 tiles in dealing order (docs/dealing.md).

    A false joker turned up is put back at a random one of the other 105
    places, swapping with the tile there, which is turned up instead. The
    draw treats those places alike, so the deal favours no seat; leaving the
    false joker in front would hand it to the first player served.
    """
    while order[0] % FACES == FALSE_JOKER_FACE:
        j = 1 + below(TILE_COUNT - 1)
        order[0], order[j] = order[j], order[0]
    return order[0], order[1:]


def _no_draws(_n: int) -> int:
    raise InvalidInputError(
        "order",
        "the order starts with a false joker: putting it back needs random draws (give `below`)",
    )


def _die_name(index: int) -> str:
    """The die at `index` of the dice list: die 1, die 2, then re-rolls of die 2."""
    return f"die {index + 1}" if index < 2 else f"re-roll {index - 1} of die 2"


def _given_dice(dice: Sequence[int]) -> Callable[[int], int]:
    def roll(k: int) -> int:
        if k == 1 and len(dice) == 1:
            raise InvalidInputError("dice", "die 2 is missing: give die 1 and die 2")
        if k >= len(dice):
            # Die 2 is only rolled again when the previous die hit a false joker.
            hit = dice[k - 1]
            raise InvalidInputError(
                "dice",
                f"{_die_name(k - 1)} ({hit}) hit a false joker at position {hit} of stack "
                f"{dice[0] - 1} (die 1 = {dice[0]}): roll die 2 again and add it to the dice",
            )
        return dice[k]

    return roll


def _stream_dice(stream: SeedStream | None) -> Callable[[int], int]:
    if stream is None:
        raise AssertionError("unreachable: a deal without dice always has a seed stream")

    def roll(_k: int) -> int:
        return stream.die()

    return roll
