"""Rulesets as data: defaults, named presets, overrides (docs/rules.md §5)."""

from __future__ import annotations

import dataclasses

import pytest
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import PRESETS, Game, Ruleset, ScoringMode, preset


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
        (
            "okey.gg",
            {
                "scoring_mode": ScoringMode.TARGET,
                "target_points": 21,
                "gosterme_played": False,
                "must_show_win": False,
            },
        ),
        ("101", {"game": Game.OKEY_101, "runs_13_to_1": False, "must_show_win": False}),
        ("tournament", {"gosterme_scores": False, "countdown_winners": 1}),
        ("points-limit", {"gosterme_in_first_turn": True, "must_show_win": False}),
        ("penalty", {"scoring_mode": ScoringMode.PENALTY, "must_show_win": False}),
    ],
    ids=[
        "classic-is-the-defaults",
        "okey.gg-plays-no-kafa-yet-nor-gosterme-scores-to-a-target-of-21-need-not-show",
        "101-has-no-12-13-1-runs-and-no-duty-to-show",
        "tournament-scores-no-gosterme-and-the-highest-wins",
        "points-limit-shows-gosterme-in-the-first-turn-need-not-show",
        "penalty-accumulates-penalties-need-not-show",
    ],
)
def test_preset_is_the_defaults_with_its_differences(name, differences):
    assert PRESETS[name] == dataclasses.replace(Ruleset(), **differences)
    assert preset(name) == PRESETS[name]


def test_presets_are_exactly_the_documented_tables():
    assert set(PRESETS) == {"classic", "okey.gg", "101", "tournament", "points-limit", "penalty"}


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


@pytest.mark.parametrize("name", ["wildpairs", "colour_doubles", "copy"])
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
    from okey_rules.search.hand import check_hand
    from okey_rules.search.hand_types import WinKind
    from okey_rules.tiles import parse_tile, parse_tiles

    assert preset("okey.gg").kafa is False
    kafa_hand = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1")
    verdict = check_hand(kafa_hand, parse_tile("K5"), preset("okey.gg"))
    assert verdict.kind is WinKind.MELDS
    assert verdict.kinds == (WinKind.MELDS,)


def test_a_101_ruleset_built_in_the_library_has_no_12_13_1_runs_rules_3_2():
    # docs/rules.md §3.2: 12-13-1 is never a run in Okey 101. The library and
    # the RPC resolve a ruleset the same way: the game's defaults, once.
    assert Ruleset(game=Game.OKEY_101).runs_13_to_1 is False
    assert Ruleset(game=Game.OKEY_101) == preset("", Game.OKEY_101) == PRESETS["101"]
    assert Ruleset().runs_13_to_1 is True
    assert Ruleset(game=Game.CLASSIC) == preset("", Game.CLASSIC)


@pytest.mark.parametrize("game", list(Game), ids=[g.value for g in Game])
@pytest.mark.parametrize("runs", [True, False], ids=["runs-on", "runs-off"])
def test_an_explicit_runs_13_to_1_always_wins_over_the_game_default(game, runs):
    assert Ruleset(game=game, runs_13_to_1=runs).runs_13_to_1 is runs
    assert Ruleset(game=game).with_overrides(runs_13_to_1=runs).runs_13_to_1 is runs
    other = Game.CLASSIC if game is Game.OKEY_101 else Game.OKEY_101
    assert Ruleset(game=game).with_overrides(game=other, runs_13_to_1=runs).runs_13_to_1 is runs


def test_changing_the_game_moves_a_default_option_to_the_new_games_default():
    # The classic preset asked for Okey 101 plays 101's runs (docs/rules.md §3.2),
    # but an option a ruleset changed from its game's default stays changed.
    assert preset("classic").with_overrides(game=Game.OKEY_101) == Ruleset(game=Game.OKEY_101)
    assert preset("101").with_overrides(game=Game.CLASSIC) == Ruleset()
    kept = Ruleset(game=Game.OKEY_101, runs_13_to_1=True).with_overrides(game=Game.CLASSIC)
    assert kept.runs_13_to_1 is True


def test_replace_and_equality_see_the_resolved_options():
    rules = Ruleset(game=Game.OKEY_101)
    assert dataclasses.replace(rules, kafa=True).runs_13_to_1 is False
    assert hash(rules) == hash(Ruleset(game=Game.OKEY_101, runs_13_to_1=False))


@pytest.mark.parametrize("preset_name", ["", "classic", "okey.gg", "101"])
@pytest.mark.parametrize("game", [None, *Game], ids=["no-game", *(g.value for g in Game)])
def test_the_rpc_resolves_a_ruleset_as_the_library_does(preset_name, game):
    # docs/rules.md §5: a preset, then the game's defaults where the game changes.
    from okey.v1 import ruleset_pb2
    from okey_server.wire.convert_ruleset import GAME_TO_PROTO, ruleset_from_proto

    message = ruleset_pb2.Ruleset()
    if game is not None:
        message.game = GAME_TO_PROTO[game]
    library = preset(preset_name, game)
    if game is not None:
        library = library.with_overrides(game=game)
    assert ruleset_from_proto(preset_name, message) == library
    if game is not None and preset_name == "":
        assert library == Ruleset(game=game)
