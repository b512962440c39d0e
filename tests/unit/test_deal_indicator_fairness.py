"""A false joker turned up as the indicator favours no seat (docs/dealing.md, "Informal deal").

The rule: a false joker is never the indicator; it is put back and another
tile is turned up (docs/rules.md, "Tiles, indicator, okey, false joker").
Putting it back must not hand it to a fixed seat: after the deal each of the
105 places of the racks and the wall holds a false joker with probability
exactly 2/105, so a seat's expected number of false jokers is 2/105 of its
rack size (classic, 4 players: 2/7 for the first player, 4/15 for the others,
32/35 in the 48-tile wall).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest
from okey_rules import Ruleset, preset
from okey_rules.dealing.deal import deal, deal_from_order
from okey_rules.dealing.shuffle import shuffled_codes
from okey_rules.errors import InvalidInputError

FALSE_JOKERS = (52, 105)
PLACES = 105  # the 106 tiles but the indicator
NUMBERED = [c for c in range(106) if c not in FALSE_JOKERS]


def _is_false_joker(code: int) -> bool:
    return code in FALSE_JOKERS


def _scripted(*values: int) -> Callable[[int], int]:
    """A `below(n)` that hands out the given values, each checked against n."""
    queue = list(values)

    def below(n: int) -> int:
        value = queue.pop(0)
        assert 0 <= value < n
        return value

    return below


def _order(front: list[int]) -> list[int]:
    return front + [c for c in range(106) if c not in front]


def _false_jokers_per_seat(racks: tuple[tuple[int, ...], ...]) -> list[int]:
    return [sum(_is_false_joker(c) for c in rack) for rack in racks]


# --- the procedure on crafted orders -------------------------------------------


def test_false_joker_turned_up_is_put_back_where_the_draw_says_not_to_the_first_player():
    """docs/dealing.md, Informal deal step 1: j = 1 + below(105); a[0] and a[j] swap.
    below(105) = 103 puts the false joker at a[104], the wall's last tile but one
    (a[105] is the other false joker), and turns up the tile that was there."""
    order = _order([52])
    dealt = deal_from_order(order, below=_scripted(103))
    assert dealt.indicator == order[104]
    assert dealt.wall[-2:] == (52, 105)
    assert 52 not in dealt.racks[dealt.first_seat]


@pytest.mark.parametrize("drawn", [0, 20, 70])
def test_put_back_false_joker_lands_in_the_place_drawn(drawn):
    """a[j] with j = 1 + drawn: rest[drawn] after the indicator is removed."""
    order = _order([105])
    dealt = deal_from_order(order, dealer=3, below=_scripted(drawn))
    rest = [*dealt.racks[0], *dealt.racks[1], *dealt.racks[2], *dealt.racks[3], *dealt.wall]
    assert dealt.first_seat == 0
    assert rest.index(105) == drawn
    assert dealt.indicator == order[1 + drawn]


def test_both_false_jokers_in_front_go_where_the_draws_say():
    """a = F F ...: the first draw swaps a[0] with a[1] (the other false joker), so the
    next draw is taken; it sends the false joker now on top to the wall."""
    order = _order([52, 105])
    dealt = deal_from_order(order, below=_scripted(0, 99))
    assert dealt.indicator == order[100]
    assert _false_jokers_per_seat(dealt.racks) == [0, 1, 0, 0]  # 52, swapped to a[1]
    assert 105 in dealt.wall
    assert dealt.racks[1][0] == 52


def test_numbered_first_tile_is_the_indicator_and_draws_nothing():
    order = _order([7])
    dealt = deal_from_order(order, below=_scripted())
    assert dealt.indicator == 7
    assert [c for rack in dealt.racks[1:] + dealt.racks[:1] for c in rack] == order[1:58]


def test_explicit_order_with_false_joker_first_needs_random_draws():
    with pytest.raises(InvalidInputError) as error:
        deal_from_order(_order([52]))
    assert error.value.field == "order"


# --- seeded deals ----------------------------------------------------------------


def _false_joker_first_seeds(count: int) -> list[str]:
    """Seeds whose shuffle turns up a false joker first."""
    return [s for n in range(count) if _is_false_joker(shuffled_codes(s := f"fj-{n}")[0])]


def test_false_joker_turned_up_does_not_always_go_to_the_first_player():
    """Over the seeds that turn up a false joker first, that false joker ends in the
    first player's 15 tiles about 15 times in 105, not every time."""
    seeds = _false_joker_first_seeds(4000)
    assert len(seeds) > 50
    first_player = 0
    for seed in seeds:
        turned_up = shuffled_codes(seed)[0]
        dealt = deal(seed=seed)
        assert not dealt.indicator_tile.is_false_joker
        first_player += turned_up in dealt.racks[dealt.first_seat]
    assert first_player < len(seeds) / 2


def _variance(size: int) -> float:
    """Variance of the false jokers in `size` of the 105 places (2 false jokers)."""
    p = size / PLACES
    both = size * (size - 1) / (PLACES * (PLACES - 1))
    return 2 * p * (1 - p) + 2 * (both - p * p)


def test_seeded_deals_give_each_seat_false_jokers_in_proportion_to_its_rack():
    """Statistical check over 25,000 fixed seeds (classic, 4 players, dealer 3 so the
    first player is seat 0): each seat's and the wall's mean count of false jokers is
    within 3 standard errors of 2/105 of its size. Taking the skipped false jokers to
    the first player gave it 16 x 2/106 = 0.302 instead of 2/7 = 0.286 (+6%), over 5
    standard errors at this count."""
    deals = 25_000
    sizes = [15, 14, 14, 14, 48]
    totals = [0] * len(sizes)
    for n in range(deals):
        dealt = deal(dealer=3, seed=f"share-{n}")
        counts = [*_false_jokers_per_seat(dealt.racks), sum(map(_is_false_joker, dealt.wall))]
        totals = [t + c for t, c in zip(totals, counts, strict=True)]
    for place, (size, total) in enumerate(zip(sizes, totals, strict=True)):
        expected = 2 * size / PLACES
        bound = 3 * math.sqrt(_variance(size) / deals)
        assert abs(total / deals - expected) < bound, (place, total / deals, expected, bound)


# --- exact probabilities, by enumerating every case ------------------------------


def _every_case() -> Iterator[tuple[Fraction, list[int], list[int]]]:
    """(probability, order, draws) for every placement of the two false jokers.

    The shuffle places the false jokers on each pair of the 106 positions with
    probability 1/C(106, 2) (the numbered tiles do not matter here). With a[0] a
    false joker, the draw j = 1 + below(105) is uniform; a draw that hits the
    other false joker swaps the two and leaves the same positions, so the deal
    ends as if j were uniform over the 104 other places.
    """
    pair = Fraction(1, math.comb(106, 2))
    for p in range(106):
        for q in range(p + 1, 106):
            order = list(NUMBERED)
            order.insert(p, 52)
            order.insert(q, 105)
            if p > 0:
                yield pair, order, []
                continue
            for j in range(1, 106):
                if j != q:
                    yield pair / 104, order, [j - 1]


@pytest.mark.parametrize(
    ("rules", "players", "sizes"),
    [(Ruleset(), 4, [15, 14, 14, 14, 48]), (preset("101"), 4, [22, 21, 21, 21, 20]),
     (Ruleset(), 2, [15, 14, 76])],
    ids=["classic-4", "okey-101", "classic-2"],
)
def test_exact_expected_false_jokers_per_seat_are_proportional_to_rack_size(
    rules, players, sizes
):
    """Every case of the deal weighted by its exact probability: each seat (in
    serving order, then the wall) expects exactly 2/105 false jokers per tile."""
    expected = [Fraction(0)] * len(sizes)
    total = Fraction(0)
    for probability, order, draws in _every_case():
        dealt = deal_from_order(order, rules, players, 0, below=_scripted(*draws))
        first = dealt.first_seat
        serving = [dealt.racks[(first + k) % players] for k in range(players)]
        counts = [*_false_jokers_per_seat(tuple(serving)), sum(map(_is_false_joker, dealt.wall))]
        expected = [e + probability * c for e, c in zip(expected, counts, strict=True)]
        total += probability
    assert total == 1
    assert expected == [Fraction(2 * size, PLACES) for size in sizes]


def test_documented_example_seed_fj_first_8():
    """docs/dealing.md's example: a[0] is a false joker, below(105) = 13, so it swaps
    with a[14] (Y8, code 20) and ends 14th in the first player's rack."""
    order = shuffled_codes("fj-first-8")
    assert order[:16] == [105, 34, 41, 103, 44, 43, 10, 15, 64, 80, 98, 78, 36, 89, 20, 99]
    dealt = deal(seed="fj-first-8")
    assert dealt.indicator == 20
    assert list(dealt.racks[1]) == [34, 41, 103, 44, 43, 10, 15, 64, 80, 98, 78, 36, 89, 105, 99]
    replay = deal_from_order(order, below=_scripted(13))
    assert (replay.indicator, replay.racks, replay.wall) == (
        dealt.indicator, dealt.racks, dealt.wall)
