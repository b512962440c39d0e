"""AnalysisService/SuggestMove through a real server (docs/analysis.md): a bot's move is a
legal move ApplyMove accepts, chosen from the seat's view only, in both games."""

from __future__ import annotations

import random
from collections.abc import Iterator

import game_service_helpers  # noqa: F401 (puts tests/unit on the path)
import grpc
import pytest
from game_support import reshuffled
from okey.v1 import analysis_pb2, analysis_pb2_grpc, game_pb2, game_pb2_grpc
from okey_rules.dealing.deal import deal
from okey_rules.play.round import round_for
from okey_rules.ruleset import Game, preset
from okey_server.wire.convert_state import state_from_token, state_token
from service_helpers import decode_error

pytestmark = pytest.mark.service

KEY = b"suggest service test key, 32 by."
MOVES_PER_ROUND = 400  # a bound on a bots' round, not a rule


@pytest.fixture
def channel(make_server) -> Iterator[grpc.Channel]:
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as opened:
        yield opened


def _suggest(channel: grpc.Channel, state: bytes, seat: int,
             level: int = 0) -> analysis_pb2.SuggestMoveResponse:
    stub = analysis_pb2_grpc.AnalysisServiceStub(channel)
    return stub.SuggestMove(analysis_pb2.SuggestMoveRequest(state=state, seat=seat, level=level))


def _opening(game: Game, seed: str) -> bytes:
    rules = preset("101" if game is Game.OKEY_101 else "classic")
    start = round_for(game).start(deal(rules, seed=seed), deal_ref="", round_number=1,
                                  now_ms=None)
    return state_token(start, KEY)


@pytest.mark.parametrize("game", [Game.CLASSIC, Game.OKEY_101])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_bots_play_a_whole_round_of_moves_applymove_accepts(channel, game, level):
    """Every suggestion is applied as it came: legal, until the round is over."""
    games = game_pb2_grpc.GameServiceStub(channel)
    token = _opening(game, f"suggest {game.value} {level}")
    for _ in range(MOVES_PER_ROUND):
        status = state_from_token(token, KEY)
        if status.outcome is not None:
            break
        answer = _suggest(channel, token, status.turn, level)
        assert answer.HasField("move")
        assert answer.reason
        assert answer.level == level
        applied = games.ApplyMove(game_pb2.ApplyMoveRequest(state=token, move=answer.move))
        assert applied.legal, (answer.reason, applied.message)
        token = applied.state
    assert state_from_token(token, KEY).outcome is not None


def test_a_seat_not_on_turn_gets_no_move_and_the_reason(channel):
    """Off turn a classic seat may only show gösterme (§8.3); without it, no move."""
    token = _opening(Game.CLASSIC, "not my turn")
    turn = state_from_token(token, KEY).turn
    idle = 0
    for seat in range(4):
        if seat == turn:
            continue
        answer = _suggest(channel, token, seat)
        assert answer.level == 2  # 0 asks the default
        if answer.HasField("move"):
            assert answer.move.kind == game_pb2.MOVE_KIND_GOSTERME
            continue
        assert answer.reason.endswith(f"it is seat {turn}'s turn")
        idle += 1
    assert idle


def test_a_level_beyond_three_is_refused_on_level(channel):
    token = _opening(Game.CLASSIC, "level four")
    with pytest.raises(grpc.RpcError) as raised:
        _suggest(channel, token, state_from_token(token, KEY).turn, 4)
    error = decode_error(raised.value)
    assert (error.code, error.fields) == (grpc.StatusCode.INVALID_ARGUMENT, ("level",))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_suggestion_depends_only_on_what_the_seat_may_see(channel, level):
    """Trust: rounds that differ only in other racks and the wall's order get the same
    move and reason (the bot is given the seat's view, never the state)."""
    rng = random.Random(level)
    for number in range(4):
        state = state_from_token(_opening(Game.CLASSIC, f"hidden {number}"), KEY)
        twin = reshuffled(state, state.turn, rng)
        assert twin != state
        answers = [_suggest(channel, state_token(s, KEY), state.turn, level) for s in (state, twin)]
        assert answers[0] == answers[1]
