"""Every one of the 106 tiles is in exactly one place after any deal (issue 3, item 7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules import Ruleset, preset
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_types import DealMethod

seeds = st.text(min_size=1, max_size=40)


@st.composite
def deal_settings(draw: st.DrawFn) -> dict:
    drawable = draw(st.booleans())
    kind = draw(st.sampled_from(["informal", "formal", "101"]))
    if kind == "101":
        rules = preset("101").with_overrides(indicator_drawable_last=drawable)
        players, method = 4, DealMethod.INFORMAL
    elif kind == "formal":
        rules = Ruleset(indicator_drawable_last=drawable)
        players, method = 4, DealMethod.FORMAL
    else:
        rules = Ruleset(indicator_drawable_last=drawable)
        players, method = draw(st.integers(2, 4)), DealMethod.INFORMAL
    dealer = draw(st.integers(0, players - 1))
    return {"rules": rules, "player_count": players, "dealer": dealer, "method": method}


@settings(max_examples=400, deadline=None)
@given(seed=seeds, options=deal_settings())
def test_every_tile_is_in_exactly_one_place(seed, options):
    dealt = deal(seed=seed, **options)
    places = [code for rack in dealt.racks for code in rack] + list(dealt.wall)
    if not options["rules"].indicator_drawable_last:
        places.append(dealt.indicator)
    else:
        assert dealt.wall[-1] == dealt.indicator
    assert sorted(places) == list(range(106))


@settings(max_examples=200, deadline=None)
@given(seed=seeds, options=deal_settings())
def test_rack_sizes_indicator_and_first_seat(seed, options):
    dealt = deal(seed=seed, **options)
    players, dealer = options["player_count"], options["dealer"]
    is_101 = options["rules"].game.value == "101"
    first = dealer if is_101 else (dealer + 1) % players
    big, small = (22, 21) if is_101 else (15, 14)
    assert dealt.first_seat == first
    assert [len(r) for r in dealt.racks] == [big if s == first else small for s in range(players)]
    assert not dealt.indicator_tile.is_false_joker
    assert deal(seed=seed, **options) == dealt
