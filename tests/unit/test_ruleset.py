"""Rulesets as data: defaults, named presets, overrides (docs/rules.md §5)."""

from __future__ import annotations

import dataclasses

import pytest
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import PRESETS, Game, Ruleset, preset


def test_defaults_are_the_classic_rules_of_rules_md():
    rules = Ruleset()
    assert rules.game is Game.CLASSIC
    assert rules.wild_pairs is True  # §3: two wilds may pair (default yes)
    assert rules.kafa is False  # §3: kafa off by default
    assert rules.runs_13_to_1 is True  # §3: 12-13-1 is a run in classic
    assert rules.indicator_drawable_last is False  # §4: the indicator is never drawn


@pytest.mark.parametrize(
    ("name", "differences"),
    [
        ("classic", {}),
        ("okey.gg", {}),
        ("101", {"game": Game.OKEY_101, "runs_13_to_1": False}),
    ],
    ids=["classic-is-the-defaults", "okey.gg-plays-no-kafa-yet", "101-has-no-12-13-1-runs"],
)
def test_preset_is_the_defaults_with_its_differences(name, differences):
    assert PRESETS[name] == dataclasses.replace(Ruleset(), **differences)
    assert preset(name) == PRESETS[name]


def test_presets_are_exactly_classic_okey_gg_and_101():
    assert set(PRESETS) == {"classic", "okey.gg", "101"}


@pytest.mark.parametrize("name", ["OKEY.GG", " okey.gg ", "Classic"])
def test_preset_names_are_case_and_space_insensitive(name):
    assert preset(name) == PRESETS[name.strip().lower()]


@pytest.mark.parametrize(
    ("game", "expected"),
    [(None, "classic"), (Game.CLASSIC, "classic"), (Game.OKEY_101, "101")],
    ids=["no-game-is-classic", "classic", "101"],
)
def test_empty_preset_name_picks_the_games_default(game, expected):
    assert preset("", game) == PRESETS[expected]


@pytest.mark.parametrize("name", ["bogus", "okey-102", "classic2"])
def test_unknown_preset_is_invalid_input_listing_the_known(name):
    with pytest.raises(InvalidInputError) as caught:
        preset(name)
    assert caught.value.field == "preset"
    for known in PRESETS:
        assert known in caught.value.description


def test_with_overrides_replaces_only_the_named_options():
    base = preset("101")
    changed = base.with_overrides(wild_pairs=False, indicator_drawable_last=True)
    assert changed == dataclasses.replace(base, wild_pairs=False, indicator_drawable_last=True)
    assert base == PRESETS["101"], "the preset itself is untouched"
    assert base.with_overrides() == base


@pytest.mark.parametrize("name", ["wildpairs", "colour_double", "copy"])
def test_with_overrides_refuses_unknown_options_naming_them(name):
    with pytest.raises(InvalidInputError) as caught:
        Ruleset().with_overrides(**{name: True})
    assert caught.value.field == f"ruleset.{name}"


def test_rulesets_are_frozen_and_hashable():
    rules = Ruleset()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.kafa = True  # type: ignore[misc]
    assert {PRESETS["classic"]: 1}[Ruleset()] == 1



def test_okey_gg_preset_judges_a_kafa_hand_as_a_normal_finish_rules_4_3():
    # docs/rules.md §4.3: the okey.gg rules say kafa is not played there yet
    # and such a hand counts as a normal finish, so the preset has kafa off.
    from okey_rules.hand import check_hand
    from okey_rules.hand_types import WinKind
    from okey_rules.tiles import parse_tile, parse_tiles

    assert preset("okey.gg").kafa is False
    kafa_hand = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1")
    verdict = check_hand(kafa_hand, parse_tile("K5"), preset("okey.gg"))
    assert verdict.kind is WinKind.MELDS
    assert verdict.kinds == (WinKind.MELDS,)
