"""GameService through gRPC (docs/game.md, docs/rules.md §8): whole rounds, every
illegal-move reason as an answer, sealed state tokens, seat views and replays."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import grpc
import pytest
from game_service_helpers import (
    Position,
    Table,
    move,
    play_round,
    position,
    same_face,
    stamp,
)
from game_support import PLAY_ON, UNTIMED, arrange, code, codes, start, waiting_on_last_discard
from okey.v1 import deal_pb2, game_pb2, ruleset_pb2, state_pb2, tile_pb2
from okey_rules.play.game_types import CLASSIC_REASONS, GameState
from okey_rules.tiles import TILE_COUNT
from okey_server.wire.convert_state import classic_state_from_token, state_token
from service_helpers import codes_of, decode_error

pytestmark = pytest.mark.service

KEY = b"game service test key, 32 bytes."
OTHER_KEY = b"another server's key, not shared"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
NOW = 1_800_000_000_000  # a fixed caller clock, ms since the epoch
SEEDS = [f"service-round-{n}" for n in range(30)]

DRAW = game_pb2.MOVE_KIND_DRAW_FROM_WALL
TAKE = game_pb2.MOVE_KIND_TAKE_DISCARD
DISCARD = game_pb2.MOVE_KIND_DISCARD
WIN = game_pb2.MOVE_KIND_DECLARE_WIN
GOSTERME = game_pb2.MOVE_KIND_GOSTERME
END = game_pb2.MOVE_KIND_END_ROUND
TIMEOUT = game_pb2.MOVE_KIND_TIMEOUT


def _table(make_server: object, key: bytes) -> Iterator[Table]:
    _, port = make_server(signing_key=key)  # type: ignore[operator]
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
        yield Table(channel)


@pytest.fixture
def table(make_server) -> Iterator[Table]:
    yield from _table(make_server, KEY)


@pytest.fixture
def twin(make_server) -> Iterator[Table]:
    """A second server sharing the first one's key."""
    yield from _table(make_server, KEY)


@pytest.fixture
def stranger(make_server) -> Iterator[Table]:
    """A server with another key."""
    yield from _table(make_server, OTHER_KEY)


def rack_of(state: Position | bytes, seat: int, table: Table) -> list[tile_pb2.Tile]:
    return list(table.view(state, seat).rack)


def first_discard(table: Table, state: Position) -> Position:
    """The first seat's opening discard: its first rack tile."""
    seat = state.turn_seat
    return table.play(state, move(DISCARD, seat, rack_of(state, seat, table)[0]))


def assert_illegal(answer: game_pb2.ApplyMoveResponse, reason: int) -> None:
    """An illegal move is an answer: legal false, the reason, a message, no state, status
    or events."""
    assert not answer.legal
    assert answer.reason == reason, game_pb2.IllegalReason.Name(answer.reason)
    assert answer.message
    assert answer.state == b""
    assert not answer.HasField("status")
    assert not answer.events


def invalid(call: object, *args: object) -> tuple[str, ...]:
    with pytest.raises(grpc.RpcError) as raised:
        call(*args)  # type: ignore[operator]
    violation = decode_error(raised.value)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    return (*violation.fields, violation.reason)


# --- whole rounds ---------------------------------------------------------------------------


def test_whole_rounds_from_the_deal_to_a_win_and_to_an_exhausted_wall(table: Table) -> None:
    """§8.1-§8.5: rounds played from Deal to their end through ApplyMove, by seats that see
    only their own view; some end in a win, some with the wall run out: the last discard,
    which the next seat cannot finish with, ends the round in the same answer."""
    endings: dict[str, Position] = {}
    for seed in SEEDS:
        played = play_round(table, table.deal(seed))
        final = played.final
        assert final.phase == state_pb2.PHASE_ROUND_OVER
        assert final.status.round_over
        assert final.status.HasField("outcome")
        last = played.events[-1]
        if final.outcome.drawn:
            # The policy takes the last discard whenever it may (only to finish with it).
            assert played.moves[-1].kind == DISCARD
            assert table.view(final, 0).wall_size == 0
            assert [e.kind for e in played.events[-2:]] == [
                game_pb2.EVENT_KIND_DISCARDED,
                game_pb2.EVENT_KIND_ROUND_DRAWN,
            ]
            assert last.seat == final.turn_seat
            endings.setdefault("drawn", final)
        else:
            assert played.moves[-1].kind == WIN
            assert last.kind == game_pb2.EVENT_KIND_ROUND_WON
            assert last.seat == final.outcome.winner_seat == played.moves[-1].seat
            assert len(last.outcome.hand) == 14
            assert last.outcome.arrangement.melds, "a won round shows its arrangement"
            assert last.outcome.win_kind != 0
            endings.setdefault("won", final)
        # Every tile in exactly one place at the end (the engine's own accounting).
        engine_state = classic_state_from_token(final.token, KEY)
        places = [c for s in engine_state.seats for c in (*s.rack, *s.discards)]
        places += [*engine_state.wall, engine_state.indicator]
        if engine_state.outcome and engine_state.outcome.discard is not None:
            places.append(engine_state.outcome.discard)
        assert sorted(places) == list(range(TILE_COUNT))
        if len(endings) == 2:
            break
    assert set(endings) == {"won", "drawn"}, f"over {len(SEEDS)} seeds: {set(endings)}"
    # Once over, nobody may move and every view shows the outcome.
    over = endings["won"]
    assert table.legal(over, over.turn_seat) == []
    assert table.view(over, (over.outcome.winner_seat + 1) % 4).outcome.winner_seat == (
        over.outcome.winner_seat
    )


def test_wall_draw_events_are_private_and_discards_public(table: Table) -> None:
    """§8.7: a tile drawn from the wall is seen by its drawer only; a discard by all."""
    state = first_discard(table, table.deal("events"))
    answer = table.apply(state, move(DRAW, state.turn_seat))
    (drew,) = answer.events
    assert drew.kind == game_pb2.EVENT_KIND_DREW_FROM_WALL
    assert drew.private
    assert drew.HasField("tile")
    tile = drew.tile
    answer = table.apply(answer.state, move(DISCARD, state.turn_seat, tile))
    (threw,) = answer.events
    assert threw.kind == game_pb2.EVENT_KIND_DISCARDED
    assert not threw.private
    assert same_face(threw.tile, tile)
    assert threw.tile.copy == tile.copy


def test_take_discard_event_names_the_pile_it_came_from(table: Table) -> None:
    """§8.2: the seat on turn may take the previous seat's top discard."""
    opening = table.deal("take")
    thrower = opening.turn_seat
    state = first_discard(table, opening)
    answer = table.apply(state, move(TAKE, state.turn_seat))
    (took,) = answer.events
    assert took.kind == game_pb2.EVENT_KIND_TOOK_DISCARD
    assert took.from_seat == thrower
    assert same_face(took.tile, table.view(state, thrower).seats[thrower].discards[-1])


# --- one test per illegal reason ------------------------------------------------------------


def test_round_over(table: Table) -> None:
    final = play_round(table, table.deal(SEEDS[0])).final
    answer = table.apply(final, move(DRAW, final.turn_seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_ROUND_OVER)


def test_not_your_turn(table: Table) -> None:
    state = table.deal("turns")
    other = (state.turn_seat + 1) % state.player_count
    answer = table.apply(state, move(DISCARD, other, rack_of(state, other, table)[0]))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_NOT_YOUR_TURN)


def test_must_draw_first(table: Table) -> None:
    state = first_discard(table, table.deal("draw first"))
    seat = state.turn_seat
    answer = table.apply(state, move(DISCARD, seat, rack_of(state, seat, table)[0]))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_MUST_DRAW_FIRST)


def test_must_discard_first(table: Table) -> None:
    """The first seat opens by discarding: it may not draw."""
    state = table.deal("discard first")
    answer = table.apply(state, move(DRAW, state.turn_seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_MUST_DISCARD_FIRST)


def test_tile_not_in_rack(table: Table) -> None:
    state = table.deal("not in rack")
    seat = state.turn_seat
    held = {(t.color, t.number, t.copy, t.false_joker) for t in rack_of(state, seat, table)}
    absent = next(
        tile_pb2.Tile(color=colour, number=number, copy=copy)  # type: ignore[arg-type]
        for colour in (1, 2, 3, 4)
        for number in range(1, 14)
        for copy in (0, 1)
        if (colour, number, copy, False) not in held
    )
    answer = table.apply(state, move(DISCARD, seat, absent))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_TILE_NOT_IN_RACK)


def signed(table: Table, state: GameState) -> Position:
    """An engine position sealed with the test server's key (the test knows it): these tests
    are about the rules of a position no short seeded game reaches, not the public contract."""
    return table.position_of(state_token(state, KEY))


def test_the_last_discard_ends_the_round_when_the_next_seat_cannot_finish(
    table: Table,
) -> None:
    """§8.5: everyone draws and throws back; the answer to the discard of the last wall
    tile carries DISCARDED and then ROUND_DRAWN, and the round is over."""
    state = first_discard(table, table.deal("empty wall"))
    while table.view(state, 0).wall_size:
        seat = state.turn_seat
        drew = table.apply(state, move(DRAW, seat))
        assert drew.legal
        answer = table.apply(drew.state, move(DISCARD, seat, drew.events[0].tile))
        assert answer.legal
        state = position(answer)
    assert [e.kind for e in answer.events] == [
        game_pb2.EVENT_KIND_DISCARDED,
        game_pb2.EVENT_KIND_ROUND_DRAWN,
    ]
    assert state.phase == state_pb2.PHASE_ROUND_OVER
    assert state.outcome.drawn
    assert table.legal(state, state.turn_seat) == []


def test_wall_empty(table: Table) -> None:
    """§8.5: the wall empty, the seat after the last discard can finish with it: it may take
    it or end the round, and drawing is WALL_EMPTY."""
    state = signed(table, waiting_on_last_discard(start(rules=PLAY_ON)))
    seat = state.turn_seat
    assert table.view(state, seat).wall_size == 0
    assert_illegal(table.apply(state, move(DRAW, seat)), game_pb2.ILLEGAL_REASON_WALL_EMPTY)
    assert [m.kind for m in table.legal(state, seat)] == [TAKE, END]
    answer = table.apply(state, move(END, seat))
    assert answer.legal
    assert [e.kind for e in answer.events] == [game_pb2.EVENT_KIND_ROUND_DRAWN]
    assert answer.status.outcome.drawn
    assert answer.status.round_over


def test_must_finish(table: Table) -> None:
    """§8.5: the last discard taken with the wall empty, the seat must finish with it: only
    declarations are offered, a plain discard is MUST_FINISH, and the state says so."""
    state = signed(table, waiting_on_last_discard(start(rules=PLAY_ON)))
    seat = state.turn_seat
    took = table.apply(state, move(TAKE, seat))
    assert took.legal
    assert took.status.must_finish
    (event,) = took.events
    assert event.kind == game_pb2.EVENT_KIND_TOOK_DISCARD
    offered = table.legal(took.state, seat)
    assert offered
    assert {m.kind for m in offered} == {WIN}
    answer = table.apply(took.state, move(DISCARD, seat, event.tile))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_MUST_FINISH)
    won = table.apply(took.state, offered[0])
    assert won.legal
    assert won.status.outcome.winner_seat == seat
    assert not won.status.must_finish


# §8.4: with indicator B13 (okey B1), R1-R4, Y5-Y7, K9-K12 and R8 Y8 B8 win; K2 is spare.
WINNING_15 = "R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2"


def test_must_show_win(table: Table) -> None:
    """§8.4, option must_show_win (on in classic Okey): the opening seat holds 15 tiles that
    win with no okey among them: a plain discard is MUST_SHOW_WIN, only declarations are
    offered. With the option off the seat may discard and play on."""
    position = arrange(start(rules=UNTIMED), {1: codes(WINNING_15)}, indicator=code("B13"))
    state = signed(table, position)
    spare = rack_of(state, 1, table)[-1]
    answer = table.apply(state, move(DISCARD, 1, spare))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_MUST_SHOW_WIN)
    assert {m.kind for m in table.legal(state, 1)} == {WIN}
    free = signed(
        table, arrange(start(rules=PLAY_ON), {1: codes(WINNING_15)}, indicator=code("B13"))
    )
    assert table.apply(free, move(DISCARD, 1, spare)).legal


def test_gosterme_not_played(table: Table) -> None:
    """§8.3: the okey.gg preset plays no gösterme: the twin's holder is refused
    (GOSTERME_NOT_PLAYED) and never offered it."""
    state, seat = gosterme_table(table, preset="okey.gg")
    view = table.view(state, seat)
    assert not view.ruleset.gosterme_played
    assert_illegal(table.apply(state, move(GOSTERME, seat)),
                   game_pb2.ILLEGAL_REASON_GOSTERME_NOT_PLAYED)
    assert GOSTERME not in {m.kind for m in table.legal(state, seat)}


def test_wall_not_empty(table: Table) -> None:
    state = first_discard(table, table.deal("wall not empty"))
    answer = table.apply(state, move(END, state.turn_seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_WALL_NOT_EMPTY)


def test_hand_does_not_win(table: Table) -> None:
    state = table.deal("no win")
    seat = state.turn_seat
    winning = {
        (m.tile.color, m.tile.number, m.tile.copy)
        for m in table.legal(state, seat)
        if m.kind == WIN
    }
    tile = next(
        t for t in rack_of(state, seat, table) if (t.color, t.number, t.copy) not in winning
    )
    answer = table.apply(state, move(WIN, seat, tile))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_HAND_DOES_NOT_WIN)


def gosterme_table(table: Table, preset: str = "") -> tuple[Position, int]:
    """A fresh deal (under `preset`) and a seat other than the first that holds the
    indicator's twin."""
    for number in range(200):
        state = table.deal(f"gosterme-{number}", preset=preset)
        indicator = table.view(state, 0).indicator
        for seat in range(state.player_count):
            if seat == state.turn_seat:
                continue
            if any(same_face(t, indicator) for t in rack_of(state, seat, table)):
                return state, seat
    raise AssertionError("no deal of 200 gave a seat the indicator's twin")


def test_gosterme_too_late(table: Table) -> None:
    """§8.3: gösterme only before the claimant's first draw (the default)."""
    state, seat = gosterme_table(table)
    state = first_discard(table, state)
    for _ in range(state.player_count):
        if state.turn_seat == seat:
            break
        mover = state.turn_seat
        drew = table.apply(state, move(DRAW, mover))
        state = table.play(drew.state, move(DISCARD, mover, drew.events[0].tile))
    state = table.play(state, move(DRAW, seat))
    answer = table.apply(state, move(GOSTERME, seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_GOSTERME_TOO_LATE)


def test_gosterme_already_shown(table: Table) -> None:
    state, seat = gosterme_table(table)
    shown = table.apply(state, move(GOSTERME, seat))
    assert shown.legal
    (event,) = shown.events
    assert event.kind == game_pb2.EVENT_KIND_GOSTERME
    assert event.seat == seat
    assert shown.status.turn_seat == state.turn_seat, "gösterme does not take the turn"
    assert table.view(shown.state, 0).seats[seat].gosterme
    answer = table.apply(shown.state, move(GOSTERME, seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_GOSTERME_ALREADY_SHOWN)


def test_gosterme_without_tile(table: Table) -> None:
    state = table.deal("gosterme without")
    indicator = table.view(state, 0).indicator
    seat = next(
        s
        for s in range(state.player_count)
        if not any(same_face(t, indicator) for t in rack_of(state, s, table))
    )
    answer = table.apply(state, move(GOSTERME, seat))
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_GOSTERME_WITHOUT_TILE)


def timed_deal(table: Table) -> Position:
    """A deal at NOW with a 45-second move timer."""
    return table.deal(
        "timed", ruleset=ruleset_pb2.Ruleset(move_timer_seconds=45), now=stamp(NOW)
    )


def test_turn_timed_out(table: Table) -> None:
    """§8.6: past the deadline the seat's own move is refused; TIMEOUT plays it."""
    state = timed_deal(table)
    seat = state.turn_seat
    late = NOW + 45_001
    answer = table.apply(state, move(DISCARD, seat, rack_of(state, seat, table)[0]), late)
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_TURN_TIMED_OUT)
    assert [m.kind for m in table.games.LegalMoves(
        game_pb2.LegalMovesRequest(state=state.token, seat=seat, now=stamp(late))
    ).moves if m.seat == seat and m.kind != GOSTERME] == [TIMEOUT]
    played = table.apply(state, move(TIMEOUT, seat), late)
    assert played.legal
    kinds = [event.kind for event in played.events]
    assert kinds == [game_pb2.EVENT_KIND_TURN_TIMED_OUT, game_pb2.EVENT_KIND_DISCARDED]
    okey = table.view(state, seat).okey
    assert not same_face(played.events[1].tile, okey), "an auto-move never throws an okey"
    # The next turn is timed from the caller's clock at the timeout.
    deadline = table.view(played.state, 0).turn_deadline
    assert deadline.ToMilliseconds() == late + 45_000
    assert played.status.turn_deadline == deadline


def test_turn_not_timed_out(table: Table) -> None:
    state = timed_deal(table)
    answer = table.apply(state, move(TIMEOUT, state.turn_seat), NOW + 44_000)
    assert_illegal(answer, game_pb2.ILLEGAL_REASON_TURN_NOT_TIMED_OUT)
    # Without a clock the turn is not timed, so a TIMEOUT is never due.
    untimed = table.apply(table.deal("untimed"), move(TIMEOUT, 1))
    assert_illegal(untimed, game_pb2.ILLEGAL_REASON_TURN_NOT_TIMED_OUT)


def test_every_illegal_reason_has_its_own_test() -> None:
    # The classic engine's reasons (Okey 101's have their own tests).
    names = {reason.name.lower() for reason in CLASSIC_REASONS}
    tests = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    assert names <= tests, sorted(names - tests)


# --- sealed state tokens --------------------------------------------------------------------

INVALID_STATE = "ERROR_REASON_INVALID_STATE"
TOKEN_VERSION = "ERROR_REASON_TOKEN_VERSION"
UNKNOWN_KEY = "ERROR_REASON_UNKNOWN_KEY"
# state.proto / sealing: version byte 1, then a 4-byte key id, then the AES-SIV ciphertext.
KEY_ID_END = 5


def flipped(token: bytes, index: int, bit: int = 0x01) -> bytes:
    changed = bytearray(token)
    changed[index] ^= bit
    return bytes(changed)


def test_a_token_with_any_byte_flipped_is_refused(table: Table) -> None:
    """A state changed anywhere after the server sealed it is INVALID_ARGUMENT on `state`:
    in the version byte it is TOKEN_VERSION, in the key id UNKNOWN_KEY, anywhere in the
    sealed body INVALID_STATE (the seal authenticates every byte)."""
    state = first_discard(table, table.deal("tamper"))
    token = state.token
    assert token[0] == 1
    request = game_pb2.ApplyMoveRequest(state=token, move=move(DRAW, state.turn_seat))
    assert table.games.ApplyMove(request).legal, "the untouched token plays"
    step = max(1, len(token) // 80)
    positions = sorted({*range(KEY_ID_END + 1), *range(0, len(token), step), len(token) - 1})
    for index in positions:
        request.state = flipped(token, index)
        expected = (
            TOKEN_VERSION if index == 0 else UNKNOWN_KEY if index < KEY_ID_END else INVALID_STATE
        )
        assert invalid(table.games.ApplyMove, request) == ("state", expected), index
    assert len(positions) >= 60


def test_a_token_cut_short_or_spliced_from_two_deals_is_refused(table: Table) -> None:
    """The seal covers the whole token: a prefix of it, one deal's token with another's tail,
    or extra bytes after it do not open (INVALID_STATE on `state`)."""
    first = table.deal("splice-a").token
    second = table.deal("splice-b").token
    half = len(first) // 2
    for bad in (
        first[:half],
        first[:KEY_ID_END],
        first[:half] + second[half:],
        first + b"\x00",
    ):
        request = game_pb2.ApplyMoveRequest(state=bad, move=move(DRAW, 0))
        assert invalid(table.games.ApplyMove, request) == ("state", INVALID_STATE)
    assert invalid(table.games.PlayerView, game_pb2.PlayerViewRequest(state=first[:-1])) == (
        "state", INVALID_STATE
    )


def test_a_deal_id_token_is_not_a_state(table: Table) -> None:
    """Tokens are sealed per purpose: a committed deal id, a token under the same key, does
    not open as a state."""
    committed = table.deals.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True))
    raw = base64.urlsafe_b64decode(committed.deal_id + "=" * (-len(committed.deal_id) % 4))
    assert raw[:KEY_ID_END] == table.deal("same key").token[:KEY_ID_END]
    request = game_pb2.LegalMovesRequest(state=raw, seat=0)
    assert invalid(table.games.LegalMoves, request) == ("state", INVALID_STATE)


def test_a_missing_state_or_another_token_version_is_refused(table: Table) -> None:
    """No token: INVALID_STATE. A first byte other than 1 (a token of another format, or
    something that is no token at all): TOKEN_VERSION."""
    assert invalid(table.games.LegalMoves, game_pb2.LegalMovesRequest()) == (
        "state", INVALID_STATE
    )
    token = table.deal("versions").token
    for version in (0, 2, 0xFF):
        request = game_pb2.PlayerViewRequest(state=bytes((version,)) + token[1:])
        assert invalid(table.games.PlayerView, request) == ("state", TOKEN_VERSION)
    garbage = game_pb2.PlayerViewRequest(state=b"{\"seats\": []}")
    assert invalid(table.games.PlayerView, garbage) == ("state", TOKEN_VERSION)


def test_servers_sharing_a_key_accept_each_others_states(
    table: Table, twin: Table, stranger: Table
) -> None:
    """Any instance with the same key continues a round; another key refuses it as a token
    under a key it does not hold (UNKNOWN_KEY), in every call that takes a state."""
    state = table.deal("shared key")
    state = first_discard(twin, state)
    state = table.play(state, move(DRAW, state.turn_seat))
    assert twin.view(state, 0).move_number == 2 == state.move_number
    request = game_pb2.ApplyMoveRequest(state=state.token, move=move(DRAW, state.turn_seat))
    assert invalid(stranger.games.ApplyMove, request) == ("state", UNKNOWN_KEY)
    for call, other in (
        (stranger.games.LegalMoves, game_pb2.LegalMovesRequest(state=state.token)),
        (stranger.games.PlayerView, game_pb2.PlayerViewRequest(state=state.token)),
        (stranger.games.Replay, game_pb2.ReplayRequest(state=state.token)),
    ):
        assert invalid(call, other) == ("state", UNKNOWN_KEY)


def test_a_rotated_key_still_opens_its_tokens_and_new_ones_use_the_new_key(
    make_server, table: Table, stranger: Table
) -> None:
    """--previous-signing-keys: a server sealing with OTHER_KEY that lists KEY as a previous
    key continues a round KEY sealed; the states it issues are sealed under OTHER_KEY, which
    the old server does not hold (the server with OTHER_KEY alone opens them)."""
    _, port = make_server(signing_key=OTHER_KEY, previous_signing_keys=(KEY,))
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
        rotated = Table(channel)
        state = table.deal("rotation")
        assert rotated.view(state, 0).move_number == 0
        after = first_discard(rotated, state)
        assert after.token[1:KEY_ID_END] != state.token[1:KEY_ID_END]
        assert rotated.view(after, 0).move_number == 1
    assert stranger.view(after, 0).move_number == 1
    request = game_pb2.PlayerViewRequest(state=after.token)
    assert invalid(table.games.PlayerView, request) == ("state", UNKNOWN_KEY)


# --- views ----------------------------------------------------------------------------------


def test_player_view_shows_the_own_rack_and_only_counts_of_others(table: Table) -> None:
    """§8.7: own rack, every seat's counts, whole piles only for one's own and the previous
    seat's, top tiles of the others; never another rack or the wall order."""
    state = play_round(table, table.deal(SEEDS[0])).states[21]
    engine = classic_state_from_token(state.token, KEY)
    for seat in range(4):
        view = table.view(state, seat)
        assert codes_of(view.rack) == list(engine.seats[seat].rack)
        assert view.wall_size == len(engine.wall)
        assert [s.rack_size for s in view.seats] == [len(s.rack) for s in engine.seats]
        for shown in view.seats:
            pile = engine.seats[shown.seat].discards
            whole = shown.seat in (seat, (seat - 1) % 4)
            assert shown.whole_pile == whole
            assert shown.discard_count == len(pile)
            assert len(shown.discards) == (len(pile) if whole else min(len(pile), 1))
    fields = invalid(
        table.games.PlayerView, game_pb2.PlayerViewRequest(state=state.token, seat=4)
    )
    assert fields == ("seat", "ERROR_REASON_INVALID_MOVE")


# --- malformed moves ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        (game_pb2.Move(seat=0), "move.kind"),
        (game_pb2.Move(kind=99, seat=0), "move.kind"),  # type: ignore[arg-type]
        (game_pb2.Move(kind=DRAW, seat=4), "move.seat"),
        (game_pb2.Move(kind=DISCARD, seat=1), "move.tile"),
        (game_pb2.Move(kind=DRAW, seat=1, tile=tile_pb2.Tile(color=1, number=3)), "move.tile"),
        (game_pb2.Move(kind=DISCARD, seat=1, tile=tile_pb2.Tile(color=1, number=14)),
         "move.tile.number"),
    ],
)
def test_a_move_no_rule_can_judge_is_invalid_argument(
    table: Table, bad: game_pb2.Move, field: str
) -> None:
    request = game_pb2.ApplyMoveRequest(state=table.deal("bad move").token, move=bad)
    fields = invalid(table.games.ApplyMove, request)
    assert fields[0] == field
    assert fields[-1] == "ERROR_REASON_INVALID_MOVE"


def test_a_clock_before_1970_is_invalid_argument(table: Table) -> None:
    request = game_pb2.ApplyMoveRequest(
        state=table.deal("clock").token, move=move(DRAW, 0), now=stamp(0)
    )
    request.now.seconds = -5
    assert invalid(table.games.ApplyMove, request)[0] == "now"


# --- replay ---------------------------------------------------------------------------------


def logged(moves: list[game_pb2.Move]) -> list[game_pb2.LoggedMove]:
    return [game_pb2.LoggedMove(move=m) for m in moves]


def test_replay_from_the_deal_reaches_the_same_sealed_state(table: Table) -> None:
    """Sealing is deterministic: the replayed round's token equals, byte for byte, the one
    the moves issued, and so does its status."""
    played = play_round(table, table.deal(SEEDS[1]))
    answer = table.games.Replay(
        game_pb2.ReplayRequest(deal=deal_pb2.DealRequest(seed=SEEDS[1]), moves=logged(played.moves))
    )
    assert answer.legal
    assert answer.moves_applied == len(played.moves)
    assert answer.state == played.final.token
    assert answer.status == played.final.status
    assert list(answer.events) == played.events
    from_state = table.games.Replay(
        game_pb2.ReplayRequest(state=played.states[0].token, moves=logged(played.moves))
    )
    assert from_state.state == played.final.token


def test_replay_names_the_first_illegal_move(table: Table) -> None:
    played = play_round(table, table.deal(SEEDS[1]))
    log = logged(played.moves[:10])
    log[6].move.seat = (log[6].move.seat + 1) % 4
    answer = table.games.Replay(
        game_pb2.ReplayRequest(deal=deal_pb2.DealRequest(seed=SEEDS[1]), moves=log)
    )
    assert not answer.legal
    assert answer.illegal_index == 6
    assert answer.moves_applied == 6
    assert answer.reason == game_pb2.ILLEGAL_REASON_NOT_YOUR_TURN
    assert answer.message
    assert answer.state == played.states[6].token
    assert answer.status == played.states[6].status


@pytest.mark.parametrize(
    ("request_fields", "field"),
    [
        ({}, "start"),
        ({"deal": deal_pb2.DealRequest()}, "deal.seed"),
        # A committed deal's seed is secret: it is replayed from its opening state.
        ({"deal": deal_pb2.DealRequest(deal_id="a-committed-deal-id")}, "deal.deal_id"),
        ({"deal": deal_pb2.DealRequest(seed="x", player_count=9)}, "deal.player_count"),
        (
            {"deal": deal_pb2.DealRequest(seed="x"), "moves": [game_pb2.LoggedMove()]},
            "moves[0].move.kind",
        ),
    ],
)
def test_replay_refuses_a_start_or_log_it_cannot_judge(
    table: Table, request_fields: dict[str, object], field: str
) -> None:
    request = game_pb2.ReplayRequest(**request_fields)  # type: ignore[arg-type]
    assert invalid(table.games.Replay, request)[0] == field
