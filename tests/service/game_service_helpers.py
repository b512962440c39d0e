"""Helpers for the GameService tests: a game client, a plain playing policy, tile lookups.

The policy sees what a seat may see (its PlayerView and LegalMoves) and plays
every move through the server, so a round it plays is a round of the service.
A state is an opaque sealed token (state.proto): a `Position` keeps it beside the
RoundStatus the server answered with it, the public facts a table reads instead
of opening the token.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from google.protobuf.timestamp_pb2 import Timestamp
from okey.v1 import (
    deal_pb2,
    deal_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    state_pb2,
    tile_pb2,
)

# The engine tests' positions (tests/unit/game_support.py): a position no short seeded
# game reaches is arranged there and signed with the test server's key. The service tests'
# directory alone is on the path when they run alone.
_UNIT = str(Path(__file__).resolve().parent.parent / "unit")
if _UNIT not in sys.path:
    sys.path.append(_UNIT)

CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
# A round has 106 tiles: ~48 wall draws plus discards; the bound only stops a
# broken server from looping a test forever.
MAX_MOVES = 400
FACES_PER_COLOUR = 13


def stamp(ms: int) -> Timestamp:
    return Timestamp(seconds=ms // 1000, nanos=ms % 1000 * 1_000_000)


def face_of(tile: tile_pb2.Tile) -> int | None:
    """0..51 for a coloured tile (colour-major), None for a false joker."""
    if tile.false_joker:
        return None
    return (tile.color - 1) * FACES_PER_COLOUR + tile.number - 1


def same_face(a: tile_pb2.Tile, b: tile_pb2.Tile) -> bool:
    return a.false_joker == b.false_joker and a.color == b.color and a.number == b.number


@dataclass(frozen=True)
class Position:
    """A sealed state as the server issued it, beside the public facts it answered with."""

    token: bytes
    status: state_pb2.RoundStatus

    @property
    def turn_seat(self) -> int:
        return self.status.turn_seat

    @property
    def phase(self) -> int:
        return self.status.phase

    @property
    def player_count(self) -> int:
        return self.status.player_count

    @property
    def move_number(self) -> int:
        return self.status.move_number

    @property
    def outcome(self) -> state_pb2.RoundOutcome:
        return self.status.outcome

    @property
    def must_finish(self) -> bool:
        return self.status.must_finish


Answered = (
    deal_pb2.DealResponse | game_pb2.ApplyMoveResponse | game_pb2.ReplayResponse
)


def position(answer: Answered) -> Position:
    """The state an answer issued, with the status beside it."""
    assert answer.state, "the answer carries no state"
    return Position(answer.state, answer.status)


def token_of(state: Position | bytes) -> bytes:
    return state.token if isinstance(state, Position) else state


@dataclass
class Table:
    """A GameService and DealService client over one channel."""

    channel: grpc.Channel
    deals: deal_pb2_grpc.DealServiceStub = field(init=False)
    games: game_pb2_grpc.GameServiceStub = field(init=False)

    def __post_init__(self) -> None:
        self.deals = deal_pb2_grpc.DealServiceStub(self.channel)
        self.games = game_pb2_grpc.GameServiceStub(self.channel)

    def deal(self, seed: str, **fields: object) -> Position:
        return position(self.deals.Deal(deal_pb2.DealRequest(seed=seed, **fields)))  # type: ignore[arg-type]

    def apply(
        self, state: Position | bytes, move: game_pb2.Move, now_ms: int | None = None
    ) -> game_pb2.ApplyMoveResponse:
        request = game_pb2.ApplyMoveRequest(state=token_of(state), move=move)
        if now_ms is not None:
            request.now.CopyFrom(stamp(now_ms))
        return self.games.ApplyMove(request)

    def play(
        self, state: Position | bytes, move: game_pb2.Move, now_ms: int | None = None
    ) -> Position:
        """Applies a move that must be legal; the next state."""
        answer = self.apply(state, move, now_ms)
        assert answer.legal, (move, answer.reason, answer.message)
        return position(answer)

    def legal(self, state: Position | bytes, seat: int) -> list[game_pb2.Move]:
        request = game_pb2.LegalMovesRequest(state=token_of(state), seat=seat)
        return list(self.games.LegalMoves(request).moves)

    def view(self, state: Position | bytes, seat: int) -> game_pb2.PlayerViewResponse:
        return self.games.PlayerView(game_pb2.PlayerViewRequest(state=token_of(state), seat=seat))

    def position_of(self, token: bytes) -> Position:
        """A token the test made (an engine position sealed with the server's key), with
        the public facts its seat 0 view shows: what a table that lost the status would
        read back."""
        view = self.view(token, 0)
        status = state_pb2.RoundStatus(
            game=view.ruleset.game,
            player_count=view.player_count,
            dealer_seat=view.dealer_seat,
            round=view.round,
            move_number=view.move_number,
            turn_seat=view.turn_seat,
            phase=view.phase,
            round_over=view.phase == state_pb2.PHASE_ROUND_OVER,
            deal_kind=view.deal_kind,
            commitment=view.commitment,
            seeded_deal_id=view.seeded_deal_id,
        )
        if view.HasField("turn_deadline"):
            status.turn_deadline.CopyFrom(view.turn_deadline)
        if view.HasField("outcome"):
            status.outcome.CopyFrom(view.outcome)
        return Position(token, status)


def move(kind: int, seat: int, tile: tile_pb2.Tile | None = None) -> game_pb2.Move:
    message = game_pb2.Move(kind=kind, seat=seat)  # type: ignore[arg-type]
    if tile is not None:
        message.tile.CopyFrom(tile)
    return message


def connections(tile: tile_pb2.Tile, rack: list[tile_pb2.Tile], okey: tile_pb2.Tile) -> int:
    """How well a tile sits in the rack: neighbours in a run, partners for a set or pair."""
    if same_face(tile, okey):
        return 1_000  # wild: never thrown
    own = face_of(okey) if tile.false_joker else face_of(tile)
    assert own is not None
    colour, number = divmod(own, FACES_PER_COLOUR)
    score = 0
    for other in rack:
        if other is tile or same_face(other, okey):
            continue
        face = face_of(okey) if other.false_joker else face_of(other)
        assert face is not None
        other_colour, other_number = divmod(face, FACES_PER_COLOUR)
        gap = abs(other_number - number)
        if face == own or (other_colour != colour and gap == 0):
            score += 2
        elif other_colour == colour and gap in (1, 2):
            score += 3 - gap
    return score


def policy_move(table: Table, state: Position) -> game_pb2.Move:
    """The seat on turn's move from its own view: win if it can, draw from the wall; with
    the wall empty take the last discard when offered (only a seat that can finish with it
    is, §8.5), else end the round; else throw its least connected tile."""
    seat = state.turn_seat
    legal = table.legal(state, seat)
    by_kind: dict[int, game_pb2.Move] = {}
    for offered in legal:
        by_kind.setdefault(offered.kind, offered)
    for kind in (
        game_pb2.MOVE_KIND_DECLARE_WIN,
        game_pb2.MOVE_KIND_DRAW_FROM_WALL,
        # Offered beside a draw too; reached only when the wall is empty.
        game_pb2.MOVE_KIND_TAKE_DISCARD,
        game_pb2.MOVE_KIND_END_ROUND,
    ):
        if kind in by_kind:
            return by_kind[kind]
    view = table.view(state, seat)
    rack = list(view.rack)
    worst = min(
        range(len(rack)), key=lambda i: (connections(rack[i], rack, view.okey), i)
    )
    return move(game_pb2.MOVE_KIND_DISCARD, seat, rack[worst])


@dataclass
class PlayedRound:
    states: list[Position]
    moves: list[game_pb2.Move]
    events: list[game_pb2.Event]

    @property
    def final(self) -> Position:
        return self.states[-1]


def play_round(table: Table, opening: Position) -> PlayedRound:
    """The round played to its end by `policy_move`, every move through ApplyMove."""
    played = PlayedRound([opening], [], [])
    state = opening
    for _ in range(MAX_MOVES):
        if state.phase == state_pb2.PHASE_ROUND_OVER:
            return played
        chosen = policy_move(table, state)
        answer = table.apply(state, chosen)
        assert answer.legal, (chosen, answer.reason, answer.message)
        state = position(answer)
        played.states.append(state)
        played.moves.append(chosen)
        played.events.extend(answer.events)
    raise AssertionError(f"the round did not end within {MAX_MOVES} moves")
