"""The Round interface (okey_rules.play.round): each game's rules of play looked up by the
state's rules, so the server asks neither which game nor which type a state is."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from okey_rules.dealing.deal import deal
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import State101
from okey_rules.play.game_types import GameState
from okey_rules.play.round import ClassicRound, Okey101Round, round_for, round_of
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind
from okey_rules.ruleset import Game, preset

SERVER = Path(__file__).resolve().parents[2] / "server" / "okey_server"
# The modules that run a round for GameService, ScoringService and Deal: no game is asked
# about there.
# (convert_state writes each game's state with that game's encoder, picked by its rules:
# it may name them, but never asks a state's type.)
GAME_AGNOSTIC = ("services/game_servicer.py", "services/scoring_servicer.py",
                 "services/deal_request.py", "wire/round_status.py", "wire/convert_state.py",
                 "wire/convert_scoring.py",
                 "wire/convert_game.py", "wire/convert_outcome.py", "wire/scoring_wire.py")
# Both games' moves, events, outcomes and views are translated by the same code.
NAMES_NO_GAME = ("services/game_servicer.py", "services/scoring_servicer.py",
                 "services/deal_request.py", "wire/round_status.py", "wire/convert_game.py",
                 "wire/convert_outcome.py")


def _started(game: Game) -> GameState | State101:
    rules = preset("101") if game is Game.OKEY_101 else preset("classic")
    return round_for(game).start(deal(rules, seed="round interface"), deal_ref="",
                                 round_number=1, now_ms=None)


@pytest.mark.parametrize("game", [Game.CLASSIC, Game.OKEY_101])
def test_a_state_finds_its_own_games_round(game):
    state = _started(game)
    assert round_of(state).game is game
    assert isinstance(round_of(state), ClassicRound if game is Game.CLASSIC else Okey101Round)


@pytest.mark.parametrize("game", [Game.CLASSIC, Game.OKEY_101])
def test_every_legal_move_it_lists_is_applied_and_the_view_shows_the_rack(game):
    state = _started(game)
    rounds = round_of(state)
    moves = rounds.legal_moves(state, state.turn, None)
    assert moves
    assert all(rounds.apply(state, move, None).legal for move in moves)
    assert rounds.view(state, state.turn).rack == state.seats[state.turn].rack
    replayed = rounds.replay(state, [(moves[0], None)])
    assert replayed.legal
    assert replayed.applied == 1


@pytest.mark.parametrize("game", [Game.CLASSIC, Game.OKEY_101])
def test_a_move_kind_of_the_other_game_is_invalid_input_on_its_kind(game):
    """One Move type for both games: a kind the state's game does not have (a gösterme in
    Okey 101, a lay-off in classic) names no move a rule could judge."""
    state = _started(game)
    rounds = round_of(state)
    for kind in MoveKind:
        if kind in rounds.moves:
            continue
        with pytest.raises(InvalidInputError) as refused:
            rounds.apply(state, Move(kind, state.turn), None)
        assert refused.value.field == "move.kind"


@pytest.mark.parametrize("vocabulary", [
    (MoveKind, "moves"), (IllegalReason, "reasons"), (EventKind, "events"),
])
def test_the_shared_words_are_exactly_the_two_games_words(vocabulary):
    """Every move kind, illegal reason and event kind belongs to at least one game, and each
    game says which are its own."""
    enum, attribute = vocabulary
    mine = [getattr(round_for(game), attribute) for game in Game]
    assert set().union(*mine) == set(enum)


def test_a_game_lists_no_move_it_does_not_have():
    for game in Game:
        state = _started(game)
        rounds = round_of(state)
        assert {move.kind for move in rounds.legal_moves(state, state.turn, None)} <= rounds.moves


@pytest.mark.parametrize("module", GAME_AGNOSTIC)
def test_the_game_service_never_asks_which_game_a_state_is(module):
    tree = ast.parse((SERVER / module).read_text(encoding="utf-8"))
    asked = [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"
        and {"State101", "GameState"} & {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    ]
    named = [
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.Name | ast.alias)
        and (getattr(node, "id", None) or getattr(node, "name", "")).endswith("_101")
    ]
    assert not asked, f"{module} asks a state's type at lines {asked}"
    if module in NAMES_NO_GAME:
        assert not named, f"{module} names a game-specific function at lines {named}"


def test_one_games_own_state_is_asked_of_the_engine_by_its_rules():
    """The sealed encoding needs each game's own state: the engine narrows it by the rules'
    game (classic_state, okey_101_state) and refuses the other game's on ruleset.game."""
    from okey_rules.play.round import classic_state, okey_101_state

    classic, okey_101 = _started(Game.CLASSIC), _started(Game.OKEY_101)
    assert classic_state(classic) is classic
    assert okey_101_state(okey_101) is okey_101
    for narrow, other in ((classic_state, okey_101), (okey_101_state, classic)):
        with pytest.raises(InvalidInputError) as refused:
            narrow(other, "round.state")
        assert refused.value.field == "round.state.ruleset.game"
