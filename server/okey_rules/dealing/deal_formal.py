"""The formal deal of the Japanese rules text: 21 stacks of 5, a spare, two dice, takes.

The model (docs/dealing.md, "Formal deal"): stack k is shuffled[5k..5k+4]
bottom to top and the spare is shuffled[105]. Stacks lie in table order from
the dealer's leftmost (index 0) on to the right, into the first player's
stacks and round the table (a ring of 21). Offsets below count stacks after
the indicator stack: offset 1 is stack "a" of the rules text's worked example.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from okey_rules.dealing.deal_types import FormalProcedure, Take
from okey_rules.tiles import FACES, FALSE_JOKER_FACE

STACKS = 21
STACK_SIZE = 5
FORMAL_PLAYERS = 4

# Seats by their place relative to the dealer, in the order they take stacks.
FIRST, OPPOSITE, LEFT, DEALER = 1, 2, 3, 0
TAKE_ORDER = (FIRST, OPPOSITE, LEFT, DEALER)
WHOLE_ROUNDS = 2  # each seat first takes two whole stacks (a..h)
# Then (the Japanese rules text): first player the whole of i; opposite the
# top 4 of j; left the last tile of j and the top 3 of k; dealer the last 2 of
# k and the top 2 of l. Rows: stack offset, seat, slice of the bottom-to-top stack, part name.
FINAL_TAKES: tuple[tuple[int, int, int, int, str], ...] = (
    (9, FIRST, 0, 5, "whole"),
    (10, OPPOSITE, 1, 5, "top 4"),
    (10, LEFT, 0, 1, "bottom 1"),
    (11, LEFT, 2, 5, "top 3"),
    (11, DEALER, 0, 2, "bottom 2"),
    (12, DEALER, 3, 5, "top 2"),
)
# What the dealer leaves of stack l (offset 12): its bottom 3, drawn first.
LAST_TAKEN_OFFSET, LEFT_IN_LAST = 12, 3


def letter(offset: int) -> str:
    """The worked example's letter for the stack `offset` places after the indicator stack."""
    return chr(ord("a") + offset - 1)


def formal_deal(
    order: Sequence[int],
    dealer: int,
    roll: Callable[[int], int],
    dice_given: bool,
    indicator_drawable_last: bool,
) -> tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...], FormalProcedure]:
    """Runs the procedure on a shuffled order; returns (indicator, racks, wall, procedure).

    `roll(k)` gives the k-th die (k = 0 for die 1, 1 for die 2, 2.. for
    re-rolls of die 2); it raises when a given list of dice runs out.
    """
    stacks = tuple(tuple(order[STACK_SIZE * k : STACK_SIZE * (k + 1)]) for k in range(STACKS))
    spare = order[STACKS * STACK_SIZE]

    die1 = roll(0)
    picked = die1 - 1  # counted from the dealer's leftmost stack
    tall = [*stacks[picked], spare]  # the spare goes on top: 6 tiles
    dice = [die1]
    while True:
        die2 = roll(len(dice))
        dice.append(die2)
        # A false joker goes back and die 2 is rolled again (the Japanese rules text).
        if tall[die2 - 1] % FACES != FALSE_JOKER_FACE:
            break
    indicator = tall.pop(die2 - 1)

    racks: list[list[int]] = [[] for _ in range(FORMAL_PLAYERS)]
    takes: list[Take] = []

    def take(offset: int, relative_seat: int, start: int, stop: int, part: str) -> None:
        index = (picked + offset) % STACKS
        tiles = stacks[index][start:stop]
        seat = (dealer + relative_seat) % FORMAL_PLAYERS
        racks[seat].extend(tiles)
        takes.append(Take(seat, index, letter(offset), part, tiles))

    for offset in range(1, WHOLE_ROUNDS * len(TAKE_ORDER) + 1):
        take(offset, TAKE_ORDER[(offset - 1) % len(TAKE_ORDER)], 0, STACK_SIZE, "whole")
    for offset, relative_seat, start, stop, part in FINAL_TAKES:
        take(offset, relative_seat, start, stop, part)

    # Drawing goes on from the top of what is left of l, stack after stack
    # round the ring, and ends with the indicator stack minus its face-up tile.
    wall = list(reversed(stacks[(picked + LAST_TAKEN_OFFSET) % STACKS][:LEFT_IN_LAST]))
    for offset in range(LAST_TAKEN_OFFSET + 1, STACKS):
        wall.extend(reversed(stacks[(picked + offset) % STACKS]))
    wall.extend(reversed(tall))
    if indicator_drawable_last:
        wall.append(indicator)

    procedure = FormalProcedure(
        dice=tuple(dice),
        dice_given=dice_given,
        stacks=stacks,
        spare=spare,
        indicator_stack=picked,
        indicator_position=die2,
        takes=tuple(takes),
    )
    return indicator, tuple(tuple(rack) for rack in racks), tuple(wall), procedure
