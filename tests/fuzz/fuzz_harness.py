"""Fuzz and soak harness: random and structure-aware requests to every RPC of a real okey server.

Three kinds of request go to every method of every okey.v1 service (found in
the generated descriptors, so a new RPC is fuzzed without a change here) and
to health and reflection:

- ``bytes``: random bytes, or random protobuf wire records (unknown field
  numbers, wrong wire types, bad lengths), as the request body;
- ``random``: a random message of the request type built from its descriptor
  (random oneof members, repeated and nested fields, unknown enum numbers,
  extreme integers, unicode and over-long strings, tile notation);
- ``mutate``: a valid request (a conformance vector, or one taken from games
  played against the server while the harness starts) with one to three
  mutations: a field set, cleared or pushed to an extreme, a repeated field
  duplicated, cut or shuffled, the sealed state token bit-flipped, cut,
  emptied or given another version or key id, a state swapped in from
  another deal, a field spliced from another request, the encoding
  truncated, bit-flipped or concatenated with another.

Every answer must be one the server documents as a normal refusal: OK,
INVALID_ARGUMENT carrying a google.rpc.BadRequest field violation,
RESOURCE_EXHAUSTED only for a body over the receive limit, NOT_FOUND only
from the health Check of an unknown service. INTERNAL, UNKNOWN, a missing
answer within the deadline or a dead server is a failure: the harness prints
the seed, the case number, the request (base64 and text) and a minimised
request that still fails.

Case ``i`` of seed ``s`` is generated from its own ``Random(f"{s}:{i}")``
and the valid requests from games dealt from seeds derived from ``s``, so a
case can be generated again with ``--seed s --case i``. (A committed deal's
secret seed and deal id are drawn by the server: the requests built on one
differ from run to run; a failure prints its request in full.)

Run as a script (``make fuzz``) it starts ``okey-server --port 0`` with a
fixed signing key, fuzzes for ``--seconds`` with ``--concurrency`` client
channels, and prints calls per second, the status-code histogram and the
server's resident memory after warm-up and at the end.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import importlib
import itertools
import json
import math
import os
import pkgutil
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import grpc
from google.protobuf import message_factory, text_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2
from grpc_reflection.v1alpha import reflection_pb2
from okey.v1 import analysis_pb2, deal_pb2, game_pb2, hand_pb2, scoring_pb2, state_pb2
from okey_cli import conformance

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "conformance"
OKEY_PACKAGE = "okey.v1"
STATUS_DETAILS_KEY = "grpc-status-details-bin"
# The server's default receive limit (okey_server.rpc.config.DEFAULT_MAX_RECEIVE_BYTES):
# only a body over it may be refused with RESOURCE_EXHAUSTED.
MAX_RECEIVE_BYTES = 256 * 1024
# A fixed key so the valid requests (their sealed states) are the same every run.
SIGNING_KEY = "okey-rules fuzz harness signing key"
CHANNEL_OPTIONS = (
    ("grpc.so_reuseport", 0),
    # Bodies a little over the server's limit are sent on purpose.
    ("grpc.max_send_message_length", 2 * MAX_RECEIVE_BYTES),
    ("grpc.max_receive_message_length", 16 * 1024 * 1024),
)
SERVER_FAULTS = frozenset(
    {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
)
MODES = ("bytes", "random", "mutate")
MODE_WEIGHTS = (1, 2, 5)
# Moves one live round may take before the harness stops playing it (a classic
# round ends when the wall runs out, well within this).
MAX_LIVE_MOVES = 400
# The live committed round's client seeds, one per seat in seat order: CommitSeed binds their
# hashes, and Deal under the commitment must repeat them exactly.
CLIENT_SEEDS = ("alice", "bob\u00fc", "çay", "🀄")
# A sealed token's header (okey_server.wire.sealing): the version byte, then a 4-byte key id.
TOKEN_VERSION = 1
TOKEN_HEADER_BYTES = 5
STARTUP_DEADLINE_S = 30.0


# --- the RPCs ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """One RPC the harness calls: its path, request and answer types and shape."""

    service: str
    method: str
    request: Descriptor
    response: Descriptor
    client_streaming: bool
    server_streaming: bool

    @property
    def path(self) -> str:
        return f"/{self.service}/{self.method}"

    @property
    def okey(self) -> bool:
        return self.service.startswith(OKEY_PACKAGE + ".")


def _target(method: MethodDescriptor) -> Target:
    return Target(
        service=method.containing_service.full_name,
        method=method.name,
        request=method.input_type,
        response=method.output_type,
        client_streaming=method.client_streaming,
        server_streaming=method.server_streaming,
    )


def okey_targets() -> list[Target]:
    """Every method of every service in the generated okey.v1 modules, in name order."""
    package = importlib.import_module(OKEY_PACKAGE)
    targets: dict[str, Target] = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        if not module_info.name.endswith("_pb2"):
            continue
        module = importlib.import_module(f"{OKEY_PACKAGE}.{module_info.name}")
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                found = _target(method)
                targets[found.path] = found
    return [targets[path] for path in sorted(targets)]


def infra_targets() -> list[Target]:
    """Health (Check, Watch) and reflection, which every okey server also serves."""
    health = health_pb2.DESCRIPTOR.services_by_name["Health"]
    reflection = reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"]
    return [_target(m) for m in (*health.methods, *reflection.methods)]


def all_targets() -> list[Target]:
    return [*okey_targets(), *infra_targets()]


REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def served_services(channel: grpc.Channel, timeout: float) -> list[str]:
    """The services the server lists through reflection (v1alpha)."""
    ask = channel.stream_stream(
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    answers = ask(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                  timeout=timeout)
    return [s.name for a in answers for s in a.list_services_response.service]


def served_targets(channel: grpc.Channel, timeout: float) -> list[Target]:
    """`all_targets`, plus reflection v1 when the server serves it (its messages are
    v1alpha's on the wire). Raises CoverageError for any other served service the
    harness does not know."""
    targets = all_targets()
    served = served_services(channel, timeout)
    if REFLECTION_V1 in served:
        alpha = reflection_pb2.DESCRIPTOR.services_by_name["ServerReflection"].methods[0]
        targets.append(Target(REFLECTION_V1, alpha.name, alpha.input_type, alpha.output_type,
                              client_streaming=True, server_streaming=True))
    unknown = sorted(set(served) - {t.service for t in targets})
    if unknown:
        raise CoverageError(f"the server serves {', '.join(unknown)}, which the harness does"
                            " not fuzz (add it to tests/fuzz/fuzz_harness.py)")
    return targets


def message_class(descriptor: Descriptor) -> type[Message]:
    return message_factory.GetMessageClass(descriptor)  # type: ignore[no-any-return]


# --- random values -----------------------------------------------------------

_COLORS = "RYBK"
TILE_WORDS = [f"{c}{n}" for c in _COLORS for n in range(1, 14)] + ["F"]
BAD_TILE_WORDS = ["R0", "R14", "X3", "r7", "R07", "K-1", "FF", "Y1.0", "B99999999999", "\u0130"]
PRESETS = ["classic", "tournament", "points-limit", "okey.gg", "penalty", "101"]
ODD_STRINGS = [
    "", " ", "\x00", "\u00fc\u011f\u015f", "\U0001f600" * 3, "\u202e", "\ufeffR1",
    "R1,R2", "R1  R2\tR3\n", "classic\x00", "CLASSIC", "0" * 32, "f" * 64, "G" * 32,
    "../../etc/passwd", "%s%n", "\\u0000",
]
INT_EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 52, 53, 54, 105, 106, 107, 255, 256]
UINT32_MAX = 2**32 - 1
INT32 = (-(2**31), 2**31 - 1)
UINT64_MAX = 2**64 - 1
INT64 = (-(2**63), 2**63 - 1)
_UNSIGNED = {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32}
_UNSIGNED64 = {FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64}
_SIGNED = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32}
_SIGNED64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED64}
MAX_DEPTH = 5


def _is_repeated(fd: FieldDescriptor) -> bool:
    flag = getattr(fd, "is_repeated", None)  # newer protobuf; `label` is deprecated there
    if flag is not None:
        return bool(flag)
    return bool(fd.label == FieldDescriptor.LABEL_REPEATED)


def _is_map(fd: FieldDescriptor) -> bool:
    return fd.message_type is not None and bool(fd.message_type.GetOptions().map_entry)


def _real_oneof(fd: FieldDescriptor) -> Any:
    """The field's oneof, unless it is the synthetic one of a proto3 `optional`."""
    oneof = fd.containing_oneof
    if oneof is None or (len(oneof.fields) == 1 and oneof.name == f"_{fd.name}"):
        return None
    return oneof


class Values:
    """Random field values from one seeded Random: edges and domain words over uniform noise."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, fd: FieldDescriptor) -> int:
        rng = self.rng
        if fd.type in _UNSIGNED:
            low, high = 0, UINT32_MAX
        elif fd.type in _UNSIGNED64:
            low, high = 0, UINT64_MAX
        elif fd.type in _SIGNED:
            low, high = INT32
        else:
            low, high = INT64
        roll = rng.random()
        if roll < 0.6:
            value = rng.choice(INT_EDGES)
            if low < 0 and rng.random() < 0.3:
                value = -value
        elif roll < 0.8:
            value = rng.choice([low, high, high - 1, low + 1, 2**31, 2**31 - 1, 2**32 - 1, 2**53])
        else:
            value = rng.randint(low, high)
        return max(low, min(high, value))

    def tile_text(self) -> str:
        rng = self.rng
        count = rng.choice([0, 1, 13, 14, 14, 15, 15, 16, 21, rng.randint(0, 120)])
        words = [rng.choice(TILE_WORDS) for _ in range(count)]
        if words and rng.random() < 0.3:
            words[rng.randrange(len(words))] = rng.choice(BAD_TILE_WORDS)
        return rng.choice([" ", " ", ",", "  ", "\t"]).join(words)

    def text(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            return self.tile_text()
        if roll < 0.45:
            return rng.choice(PRESETS)
        if roll < 0.6:
            return rng.choice(ODD_STRINGS)
        if roll < 0.7:
            return "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice([31, 32, 64])))
        if roll < 0.8:
            return rng.choice(["x", "\U0001f600", "\u00e9", "R1 "]) * rng.choice([64, 257, 3000])
        # Any code point but the surrogates (a proto string must be valid UTF-8).
        points = [rng.choice([rng.randint(32, 126), rng.randint(0x80, 0xD7FF),
                              rng.randint(0xE000, 0x10FFFF)]) for _ in range(rng.randint(0, 40))]
        return "".join(map(chr, points))

    def raw(self, size: int | None = None) -> bytes:
        rng = self.rng
        if size is None:
            size = rng.choice([0, 1, 2, 5, 16, 64, 300, rng.randint(0, 4096)])
        return bytes(rng.getrandbits(8) for _ in range(size))

    def scalar(self, fd: FieldDescriptor) -> Any:
        kind = fd.type
        if kind == FieldDescriptor.TYPE_BOOL:
            return self.rng.random() < 0.5
        if kind == FieldDescriptor.TYPE_STRING:
            return self.text()
        if kind == FieldDescriptor.TYPE_BYTES:
            return self.raw()
        if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return self.rng.choice([0.0, -0.0, 1.5, -1.0, 1e308, math.inf, -math.inf, math.nan])
        if kind == FieldDescriptor.TYPE_ENUM:
            known = [v.number for v in fd.enum_type.values]
            if self.rng.random() < 0.8:
                return self.rng.choice(known)
            # Open enums keep numbers the schema does not name: the server must refuse them.
            return self.rng.choice([max(known) + 1, 99, -1, INT32[1], INT32[0]])
        return self.integer(fd)

    def set_field(self, message: Message, fd: FieldDescriptor, depth: int) -> None:
        """Gives `fd` of `message` a random value (a random count of them if repeated)."""
        rng = self.rng
        if _is_map(fd):
            key_fd = fd.message_type.fields_by_name["key"]
            value_fd = fd.message_type.fields_by_name["value"]
            target = getattr(message, fd.name)
            for _ in range(rng.randint(0, 4)):
                key = self.scalar(key_fd)
                if value_fd.message_type is not None:
                    self.fill(target[key], depth + 1)
                else:
                    target[key] = self.scalar(value_fd)
            return
        if _is_repeated(fd):
            target = getattr(message, fd.name)
            count = rng.choice([0, 1, 2, 3, 4, 14, 15, rng.randint(0, 30)])
            if fd.message_type is None and rng.random() < 0.05:
                count = rng.randint(100, 3000)
            if fd.message_type is not None and depth >= MAX_DEPTH:
                count = min(count, 1)
            for _ in range(count):
                if fd.message_type is not None:
                    self.fill(target.add(), depth + 1)
                else:
                    target.append(self.scalar(fd))
            return
        if fd.message_type is not None:
            child = getattr(message, fd.name)
            child.SetInParent()
            self.fill(child, depth + 1)
            return
        setattr(message, fd.name, self.scalar(fd))

    def fill(self, message: Message, depth: int = 0) -> Message:
        """Sets a random selection of `message`'s fields, one member at most per oneof."""
        rng = self.rng
        if depth > MAX_DEPTH:
            return message
        chosen: dict[str, FieldDescriptor] = {}
        for oneof in message.DESCRIPTOR.oneofs:
            members = list(oneof.fields)
            if _real_oneof(members[0]) is not None and rng.random() < 0.8:
                chosen[oneof.name] = rng.choice(members)
        density = rng.choice([0.2, 0.5, 0.8])
        for fd in message.DESCRIPTOR.fields:
            oneof = _real_oneof(fd)
            if oneof is not None:
                if chosen.get(oneof.name) is not fd:
                    continue
            elif rng.random() > density:
                continue
            self.set_field(message, fd, depth)
        return message

    def message(self, descriptor: Descriptor) -> Message:
        return self.fill(message_class(descriptor)())

    def wire(self) -> bytes:
        """Random protobuf wire records: any field number, any wire type, lengths that lie."""
        rng = self.rng
        out = bytearray()
        for _ in range(rng.randint(1, 12)):
            number = rng.choice([1, 2, 3, 4, 5, 6, 7, 15, 16, 100, 2**29 - 1, rng.randint(1, 64)])
            wire_type = rng.choice([0, 1, 2, 5, 3, 4, 6, 7])
            out += _varint(number << 3 | wire_type)
            if wire_type == 0:
                out += _varint(rng.choice([0, 1, 13, 2**32, 2**64 - 1, rng.getrandbits(35)]))
            elif wire_type == 1:
                out += self.raw(8)
            elif wire_type == 5:
                out += self.raw(4)
            elif wire_type == 2:
                body = self.raw(rng.randint(0, 40))
                length = len(body) + rng.choice([0, 0, 0, 1, -1, 1000])
                out += _varint(max(0, length)) + body
        return bytes(out)


def _varint(value: int) -> bytes:
    value &= UINT64_MAX
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


# --- valid requests ------------------------------------------------------------


@dataclass
class LiveRound:
    """A round played against the server: its deal request, every state (the sealed token
    and its public RoundStatus, as the answers gave them) and the moves."""

    deal: deal_pb2.DealRequest
    dealt: deal_pb2.DealResponse
    states: list[bytes] = field(default_factory=list)
    statuses: list[state_pb2.RoundStatus] = field(default_factory=list)
    moves: list[game_pb2.Move] = field(default_factory=list)
    legal: list[tuple[bytes, list[game_pb2.Move]]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return bool(self.statuses[-1].round_over)


class Rpc:
    """Plain unary calls for building the corpus: anything but OK is an error."""

    def __init__(self, channel: grpc.Channel, timeout: float) -> None:
        self.channel = channel
        self.timeout = timeout

    def __call__(self, service: str, method: str, request: Message, answer: type[Message]) -> Any:
        call = self.channel.unary_unary(
            f"/{service}/{method}",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=answer.FromString,
        )
        return call(request, timeout=self.timeout)


def play_round(rpc: Rpc, rng: random.Random, deal: deal_pb2.DealRequest,
               max_moves: int = MAX_LIVE_MOVES) -> LiveRound:
    """Deals `deal` and plays random legal moves of the seat on turn until the round is over
    (or `max_moves` moves)."""
    dealt = rpc("okey.v1.DealService", "Deal", deal, deal_pb2.DealResponse)
    live = LiveRound(deal, dealt, [dealt.state], [dealt.status])
    for _ in range(max_moves):
        state, status = live.states[-1], live.statuses[-1]
        if status.round_over:
            break
        # The token is opaque: whose turn it is comes from the answer's RoundStatus.
        listed = rpc("okey.v1.GameService", "LegalMoves",
                     game_pb2.LegalMovesRequest(state=state, seat=status.turn_seat),
                     game_pb2.LegalMovesResponse)
        moves = list(listed.moves)
        if not moves:
            break
        live.legal.append((state, moves))
        # Winning and ending moves are rare in the list; prefer them sometimes so
        # the corpus holds finished rounds of both kinds.
        enders = [m for m in moves if m.kind in (game_pb2.MOVE_KIND_DECLARE_WIN,
                                                 game_pb2.MOVE_KIND_END_ROUND)]
        move = rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(moves)
        applied = rpc("okey.v1.GameService", "ApplyMove",
                      game_pb2.ApplyMoveRequest(state=state, move=move),
                      game_pb2.ApplyMoveResponse)
        if not applied.legal:
            raise RuntimeError(f"a listed move was refused: {move} ({applied.message})")
        live.moves.append(move)
        live.states.append(applied.state)
        live.statuses.append(applied.status)
    return live


@dataclass
class Live:
    """Rounds played while the harness starts, the raw material of the valid requests."""

    rounds: list[LiveRound]
    committed: LiveRound  # dealt under `commit`, with CLIENT_SEEDS
    commit: deal_pb2.CommitSeedRequest
    # A commitment nothing was dealt under (3 seats, no client seeds).
    other_commit: deal_pb2.CommitSeedRequest
    other_commit_id: str

    @property
    def states(self) -> list[bytes]:
        return [s for r in (*self.rounds, self.committed) for s in r.states]

    @property
    def positions(self) -> list[tuple[bytes, state_pb2.RoundStatus]]:
        """Every state with its public facts."""
        return [
            pair for r in (*self.rounds, self.committed)
            for pair in zip(r.states, r.statuses, strict=True)
        ]

    @property
    def finished(self) -> list[LiveRound]:
        """The rounds played to the end; all rounds when none was (a short set-up)."""
        every = [*self.rounds, self.committed]
        return [r for r in every if r.over] or every


def play_live(rpc: Rpc, seed: int, max_moves: int = MAX_LIVE_MOVES) -> Live:
    rng = random.Random(f"{seed}:live")
    deals = [
        deal_pb2.DealRequest(seed=f"fuzz-{seed}-classic", player_count=4),
        deal_pb2.DealRequest(seed=f"fuzz-{seed}-two", player_count=2, dealer_seat=1,
                             preset="tournament"),
        deal_pb2.DealRequest(seed=f"fuzz-{seed}-formal", method=deal_pb2.DEAL_METHOD_FORMAL,
                             preset="okey.gg", round=3),
        deal_pb2.DealRequest(seed=f"fuzz-{seed}-101", preset="101"),
    ]
    rounds = [play_round(rpc, rng, deal, max_moves) for deal in deals]
    rounds.append(play_round(rpc, rng, stacked_request(rounds[0].dealt), max_moves))
    # The committed flow: CommitSeed (binding each seat's client seed hash), then Deal under
    # its secret deal id with the same inputs and the client seeds in seat order.
    commit = deal_pb2.CommitSeedRequest(
        client_seed_hashes=[hashlib.sha256(c.encode()).hexdigest() for c in CLIENT_SEEDS]
    )
    committed_id = rpc("okey.v1.DealService", "CommitSeed", commit,
                       deal_pb2.CommitSeedResponse).deal_id
    committed = play_round(
        rpc, rng, deal_pb2.DealRequest(deal_id=committed_id, client_seeds=CLIENT_SEEDS),
        max_moves,
    )
    other = deal_pb2.CommitSeedRequest(player_count=3, dealer_seat=2, no_client_seeds=True)
    other_id = rpc("okey.v1.DealService", "CommitSeed", other,
                   deal_pb2.CommitSeedResponse).deal_id
    return Live(rounds, committed, commit, other, other_id)


def stacked_request(dealt: deal_pb2.DealResponse) -> deal_pb2.DealRequest:
    """A stacked deal of the tiles `dealt` placed (a position given tile by tile)."""
    request = deal_pb2.DealRequest(player_count=dealt.player_count,
                                   dealer_seat=dealt.dealer_seat)
    for rack in dealt.racks:
        request.stacked.racks.add().tiles.extend(rack.tiles)
    request.stacked.wall.extend(dealt.wall)
    request.stacked.indicator.CopyFrom(dealt.indicator)
    return request


def _hand(tiles: Any, indicator: Any, omit: bool) -> hand_pb2.CheckHandRequest:
    request = hand_pb2.CheckHandRequest(indicator=indicator, omit_arrangements=omit)
    request.hand.tiles.extend(tiles)
    return request


def _check_hand(live: Live) -> list[Message]:
    out: list[Message] = []
    for played in live.rounds[:3]:
        for rack in played.dealt.racks:
            out.append(_hand(rack.tiles, played.dealt.indicator, omit=rack.seat % 2 == 0))
            out.append(hand_pb2.CheckHandRequest(
                hand_notation=rack.notation, okey=played.dealt.okey, omit_arrangements=True))
    return out


def _best_opening(live: Live) -> list[Message]:
    played = live.rounds[3]
    out: list[Message] = []
    for rack in played.dealt.racks:
        request = hand_pb2.BestOpeningRequest(preset="101", indicator=played.dealt.indicator)
        request.hand.tiles.extend(rack.tiles)
        out.append(request)
    return out


def _analyze(live: Live) -> list[Message]:
    """Classic hands and an Okey 101 rack as given, and seats of the live rounds' states."""
    out: list[Message] = []
    for played in live.rounds[:2]:
        out += [analysis_pb2.AnalyzeHandRequest(hand_notation=rack.notation,
                                                okey=played.dealt.okey)
                for rack in played.dealt.racks]
    out += [analysis_pb2.AnalyzeHandRequest(preset="101", hand_notation=rack.notation,
                                            indicator=live.rounds[3].dealt.indicator)
            for rack in live.rounds[3].dealt.racks[:2]]
    out += [analysis_pb2.AnalyzeHandRequest(state=state, seat=status.turn_seat)
            for state, status in live.positions[::9]]
    return out


def _suggest(live: Live) -> list[Message]:
    return [analysis_pb2.SuggestMoveRequest(state=state, seat=status.turn_seat,
                                            level=1 + index % 3)
            for index, (state, status) in enumerate(live.positions[::7])]


def _deal(live: Live) -> list[Message]:
    return [
        *(r.deal for r in live.rounds),
        live.committed.deal,
        deal_pb2.DealRequest(deal_id=live.other_commit_id, player_count=3, dealer_seat=2),
        deal_pb2.DealRequest(seed="x", method=deal_pb2.DEAL_METHOD_FORMAL, dice=[3, 5]),
        deal_pb2.DealRequest(seed="y", client_seeds=["alice", "bob\u00fc"]),
    ]


def _commit(live: Live) -> list[Message]:
    return [
        live.commit,
        live.other_commit,
        deal_pb2.CommitSeedRequest(preset="101", method=deal_pb2.DEAL_METHOD_INFORMAL, round=4,
                                   client_seed_hashes=live.commit.client_seed_hashes),
    ]


def _reveal(live: Live) -> list[Message]:
    committed = live.committed
    return [
        deal_pb2.RevealSeedRequest(deal_id=committed.dealt.deal_id, state=committed.states[-1]),
        deal_pb2.RevealSeedRequest(deal_id=committed.dealt.deal_id, state=committed.states[0]),
        deal_pb2.RevealSeedRequest(deal_id=live.other_commit_id, state=committed.states[-1]),
    ]


def _apply(live: Live) -> list[Message]:
    return [
        game_pb2.ApplyMoveRequest(state=state, move=move)
        for r in live.rounds for state, moves in r.legal[:: max(1, len(r.legal) // 12)]
        for move in moves[:3]
    ]


def _legal(live: Live) -> list[Message]:
    return [game_pb2.LegalMovesRequest(state=state, seat=status.turn_seat)
            for state, status in live.positions[::7]]


def _view(live: Live) -> list[Message]:
    return [game_pb2.PlayerViewRequest(state=s, seat=(i % 4)) for i, s in
            enumerate(live.states[::5])]


def _replay(live: Live) -> list[Message]:
    out: list[Message] = []
    for played in live.rounds:
        request = game_pb2.ReplayRequest(deal=played.deal)
        request.moves.extend(game_pb2.LoggedMove(move=m) for m in played.moves)
        out.append(request)
        from_state = game_pb2.ReplayRequest(state=played.states[0])
        from_state.moves.extend(game_pb2.LoggedMove(move=m) for m in played.moves[:10])
        out.append(from_state)
    return out


def _score_round(live: Live) -> list[Message]:
    out: list[Message] = []
    for played in live.finished:
        request = scoring_pb2.ScoreRoundRequest(preset=played.deal.preset)
        request.round.state = played.states[-1]
        out.append(request)
    return out


def _score_game(live: Live) -> list[Message]:
    out: list[Message] = []
    finished = [r for r in live.finished if r.deal.preset != "101"]
    if finished:
        request = scoring_pb2.ScoreGameRequest()
        for played in finished:
            request.rounds.add().state = played.states[-1]
        out.append(request)
    return out


def _health_check(_live: Live) -> list[Message]:
    services = ["", "okey.v1.HandService", "okey.v1.GameService", "no.such.Service"]
    return [health_pb2.HealthCheckRequest(service=s) for s in services]


def _reflection(_live: Live) -> list[Message]:
    request = reflection_pb2.ServerReflectionRequest
    return [
        request(list_services=""),
        request(file_containing_symbol="okey.v1.HandService"),
        request(file_by_filename="okey/v1/state.proto"),
        request(file_containing_symbol="okey.v1.RoundStatus"),
        # Gone from the contract (the state is a sealed token): a NOT_FOUND error response.
        request(file_containing_symbol="okey.v1.GameState"),
        request(all_extension_numbers_of_type="okey.v1.Tile"),
    ]


# The valid requests of every RPC. The harness refuses to start when a served
# RPC has no entry: a new RPC must say how to build a valid request for it.
VALID_BUILDERS: dict[str, Callable[[Live], list[Message]]] = {
    "/okey.v1.HandService/CheckHand": _check_hand,
    "/okey.v1.HandService/BestOpening": _best_opening,
    "/okey.v1.DealService/Deal": _deal,
    "/okey.v1.DealService/CommitSeed": _commit,
    "/okey.v1.DealService/RevealSeed": _reveal,
    "/okey.v1.GameService/ApplyMove": _apply,
    "/okey.v1.GameService/LegalMoves": _legal,
    "/okey.v1.GameService/PlayerView": _view,
    "/okey.v1.GameService/Replay": _replay,
    "/okey.v1.ScoringService/ScoreRound": _score_round,
    "/okey.v1.ScoringService/ScoreGame": _score_game,
    "/okey.v1.AnalysisService/AnalyzeHand": _analyze,
    "/okey.v1.AnalysisService/SuggestMove": _suggest,
    "/grpc.health.v1.Health/Check": _health_check,
    "/grpc.health.v1.Health/Watch": _health_check,
    "/grpc.health.v1.Health/List": lambda _live: [health_pb2.HealthListRequest()],
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": _reflection,
    f"/{REFLECTION_V1}/ServerReflectionInfo": _reflection,
}


class CoverageError(Exception):
    """An RPC the harness cannot build valid requests for."""


def check_coverage(targets: list[Target], builders: dict[str, Any]) -> None:
    missing = [t.path for t in targets if t.path not in builders]
    if missing:
        raise CoverageError(
            "no valid-request builder for " + ", ".join(missing)
            + " (add one to VALID_BUILDERS in tests/fuzz/fuzz_harness.py)"
        )


class Corpus:
    """Valid requests by RPC path: the live games' and the conformance vectors'.

    A vector with `given_state` is replayed (once, on first use) to put its
    state into the request, and one with `given_commitment` commits first to put
    the secret deal id into it, as the conformance runner does.
    """

    def __init__(self, live: Live, targets: list[Target], rpc: Rpc) -> None:
        check_coverage(targets, VALID_BUILDERS)
        self.rpc = rpc
        self.requests: dict[str, list[Message]] = {}
        for target in targets:
            built = VALID_BUILDERS[target.path](live)
            if not built:
                raise CoverageError(f"the builder of {target.path} gave no request")
            self.requests[target.path] = built
        self.vectors: dict[str, list[conformance.Case]] = {}
        for case in conformance.load_dir(VECTORS):
            self.vectors.setdefault(case.method.path, []).append(case)
        self.states = live.states
        self._resolved: dict[tuple[str, str], Message] = {}
        self._lock = threading.Lock()

    def _resolve(self, case: conformance.Case) -> Message:
        key = (case.method.path, case.name)
        with self._lock:
            known = self._resolved.get(key)
        if known is not None:
            return known
        request = type(case.request)()
        request.CopyFrom(case.request)
        if case.given_commitment is not None:
            committed = self.rpc("okey.v1.DealService", "CommitSeed", case.given_commitment,
                                 deal_pb2.CommitSeedResponse)
            request.deal_id = committed.deal_id  # type: ignore[attr-defined]
        if case.given_state is not None:
            replayed = self.rpc(conformance.REPLAY_SERVICE, conformance.REPLAY_METHOD,
                                case.given_state, game_pb2.ReplayResponse)
            holder = request
            for name in case.state_path[:-1]:
                holder = getattr(holder, name)
            setattr(holder, case.state_path[-1], replayed.state)
        with self._lock:
            self._resolved[key] = request
        return request

    def pick(self, rng: random.Random, path: str) -> Message:
        """A copy of one valid request of `path`, a vector's or a live game's."""
        cases = self.vectors.get(path, [])
        if cases and rng.random() < 0.5:
            chosen = self._resolve(rng.choice(cases))
        else:
            chosen = rng.choice(self.requests[path])
        copy = type(chosen)()
        copy.CopyFrom(chosen)
        return copy


# --- mutations --------------------------------------------------------------------


def _positions(message: Message, depth: int = 0) -> Iterator[tuple[Message, FieldDescriptor]]:
    """Every (message, field) pair reachable through set message fields."""
    for fd in message.DESCRIPTOR.fields:
        yield message, fd
        if fd.message_type is None or _is_map(fd) or depth > MAX_DEPTH:
            continue
        if _is_repeated(fd):
            for child in getattr(message, fd.name):
                yield from _positions(child, depth + 1)
        elif message.HasField(fd.name):
            yield from _positions(getattr(message, fd.name), depth + 1)


def _state_fields(message: Message) -> list[tuple[Message, FieldDescriptor]]:
    """Where `message` carries a sealed state token: every set `bytes state` field (a
    request's state, a Replay's start, a scored round's state)."""
    return [
        (parent, fd) for parent, fd in _positions(message)
        if fd.name == "state" and fd.type == FieldDescriptor.TYPE_BYTES
        and getattr(parent, fd.name)
    ]


class Mutator:
    """Applies named mutations to a valid request (a message, or its bytes at the end)."""

    def __init__(self, rng: random.Random, corpus: Corpus) -> None:
        self.rng = rng
        self.values = Values(rng)
        self.corpus = corpus

    def apply(self, path: str, message: Message) -> tuple[Message | bytes, list[str]]:
        rng = self.rng
        applied: list[str] = []
        result: Message | bytes = message
        for _ in range(rng.choice([1, 1, 2, 3])):
            if isinstance(result, bytes):
                break
            name = rng.choice(_MUTATIONS)
            result = getattr(self, f"m_{name}")(path, result)
            applied.append(name)
        return result, applied

    def m_set_field(self, path: str, message: Message) -> Message | bytes:
        positions = list(_positions(message))
        if not positions:  # a message without fields (CommitSeedRequest): unknown ones
            return self.m_insert_wire(path, message)
        parent, fd = self.rng.choice(positions)
        if _real_oneof(fd) is not None or not _is_repeated(fd):
            parent.ClearField(fd.name)
        self.values.set_field(parent, fd, depth=MAX_DEPTH - 1)
        return message

    def m_extreme_int(self, _path: str, message: Message) -> Message:
        numeric = [(p, fd) for p, fd in _positions(message)
                   if fd.cpp_type in (FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_INT32,
                                      FieldDescriptor.CPPTYPE_UINT64, FieldDescriptor.CPPTYPE_INT64,
                                      FieldDescriptor.CPPTYPE_ENUM)
                   and not _is_repeated(fd)]
        if numeric:
            parent, fd = self.rng.choice(numeric)
            setattr(parent, fd.name, self.values.scalar(fd))
        return message

    def m_clear_field(self, _path: str, message: Message) -> Message:
        present = [(p, fd) for p, fd in _positions(message)
                   if (_is_repeated(fd) and len(getattr(p, fd.name)))
                   or (not _is_repeated(fd) and fd.message_type is not None and p.HasField(fd.name))
                   or (not _is_repeated(fd) and fd.message_type is None
                       and getattr(p, fd.name) != fd.default_value)]
        if present:
            parent, fd = self.rng.choice(present)
            parent.ClearField(fd.name)
        return message

    def _repeated(self, message: Message) -> tuple[Message, FieldDescriptor] | None:
        filled = [(p, fd) for p, fd in _positions(message)
                  if _is_repeated(fd) and not _is_map(fd) and len(getattr(p, fd.name))]
        return self.rng.choice(filled) if filled else None

    def m_repeat_entry(self, _path: str, message: Message) -> Message:
        found = self._repeated(message)
        if found:
            parent, fd = found
            items = getattr(parent, fd.name)
            chosen = items[self.rng.randrange(len(items))]
            for _ in range(self.rng.choice([1, 1, 2, 13])):
                if fd.message_type is not None:
                    items.add().CopyFrom(chosen)
                else:
                    items.append(chosen)
        return message

    def m_drop_entries(self, _path: str, message: Message) -> Message:
        found = self._repeated(message)
        if found:
            parent, fd = found
            items = getattr(parent, fd.name)
            if self.rng.random() < 0.5:
                del items[self.rng.randrange(len(items))]
            else:
                del items[self.rng.randrange(len(items)):]
        return message

    def m_shuffle_entries(self, _path: str, message: Message) -> Message:
        found = self._repeated(message)
        if found:
            parent, fd = found
            items = getattr(parent, fd.name)
            copies = list(items)
            if fd.message_type is not None:
                copies = [type(c)() for c in items]
                for copy, item in zip(copies, items, strict=True):
                    copy.CopyFrom(item)
            self.rng.shuffle(copies)
            del items[:]
            items.extend(copies)
        return message

    def m_state_bytes(self, _path: str, message: Message) -> Message | bytes:
        """The sealed state changed as a client might: a bit flipped (in the header, the
        SIV tag or the ciphertext), cut short, grown, emptied, or another version byte or
        key id."""
        found = _state_fields(message)
        if not found:
            return self.m_byte_flip(_path, message)
        parent, fd = self.rng.choice(found)
        token = bytearray(getattr(parent, fd.name))
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:
            token[rng.randrange(len(token))] ^= 1 << rng.randrange(8)
        elif roll < 0.55:
            del token[rng.randrange(len(token)):]
        elif roll < 0.65:
            token += rng.randbytes(rng.choice([1, 16, 300]))
        elif roll < 0.75:
            token[0] = rng.choice([0, TOKEN_VERSION + 1, 0x0A, 0xFF])
        elif roll < 0.9:
            token[1:TOKEN_HEADER_BYTES] = rng.randbytes(TOKEN_HEADER_BYTES - 1)
        else:
            token.clear()
        setattr(parent, fd.name, bytes(token))
        return message

    def m_swap_state(self, _path: str, message: Message) -> Message:
        found = _state_fields(message)
        if found and self.corpus.states:
            parent, fd = self.rng.choice(found)
            setattr(parent, fd.name, self.rng.choice(self.corpus.states))
        return message

    def m_splice(self, path: str, message: Message) -> Message:
        other = self.corpus.pick(self.rng, path)
        present = [fd for fd in other.DESCRIPTOR.fields
                   if (_is_repeated(fd) and len(getattr(other, fd.name)))
                   or (not _is_repeated(fd)
                       and (fd.message_type is None or other.HasField(fd.name)))]
        if present:
            fd = self.rng.choice(present)
            message.ClearField(fd.name)
            if _is_repeated(fd) or fd.message_type is not None:
                getattr(message, fd.name).MergeFrom(getattr(other, fd.name))
            else:
                setattr(message, fd.name, getattr(other, fd.name))
        return message

    def m_byte_flip(self, _path: str, message: Message) -> bytes:
        encoded = bytearray(message.SerializeToString())
        for _ in range(self.rng.choice([1, 1, 2, 8])):
            if encoded:
                encoded[self.rng.randrange(len(encoded))] = self.rng.getrandbits(8)
        return bytes(encoded)

    def m_truncate(self, _path: str, message: Message) -> bytes:
        encoded = message.SerializeToString()
        return encoded[: self.rng.randrange(len(encoded) + 1)]

    def m_concat(self, path: str, message: Message) -> bytes:
        # Protobuf merges concatenated messages: repeated fields add up, the last scalar wins.
        other = self.corpus.pick(self.rng, path)
        return message.SerializeToString() + other.SerializeToString()

    def m_insert_wire(self, _path: str, message: Message) -> bytes:
        encoded = message.SerializeToString()
        at = self.rng.randrange(len(encoded) + 1)
        return encoded[:at] + self.values.wire() + encoded[at:]


_MUTATIONS = sorted(name[2:] for name in vars(Mutator) if name.startswith("m_"))


# --- one call and its verdict ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    code: grpc.StatusCode
    details: str
    violations: tuple[str, ...]  # BadRequest field paths, for INVALID_ARGUMENT
    answer: bytes | None  # a unary OK answer


def _violations(error: grpc.RpcError) -> tuple[str, ...]:
    for key, value in error.trailing_metadata() or ():  # type: ignore[attr-defined]
        if key != STATUS_DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        fields: list[str] = []
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                fields.extend(v.field for v in bad.field_violations)
        return tuple(fields)
    return ()


def invoke(channel: grpc.Channel, target: Target, body: bytes, timeout: float) -> Outcome:
    """Sends `body` as the request of `target` and reads the answer (a stream's first one)."""
    try:
        if target.client_streaming:
            stream = channel.stream_stream(target.path)(iter([body]), timeout=timeout)
            for _ in stream:
                pass
            return Outcome(grpc.StatusCode.OK, "", (), None)
        if target.server_streaming:
            # Health Watch never ends by itself: the first answer is the verdict.
            stream = channel.unary_stream(target.path)(body, timeout=timeout)
            with contextlib.suppress(StopIteration):
                next(stream)
            stream.cancel()
            return Outcome(grpc.StatusCode.OK, "", (), None)
        answer = channel.unary_unary(target.path)(body, timeout=timeout)
        return Outcome(grpc.StatusCode.OK, "", (), answer)
    except grpc.RpcError as error:
        code = error.code()  # type: ignore[attr-defined]
        details = error.details() or ""  # type: ignore[attr-defined]
        if target.server_streaming and code == grpc.StatusCode.CANCELLED:
            return Outcome(grpc.StatusCode.OK, "", (), None)  # cancelled by us, after an answer
        return Outcome(code, details, _violations(error), None)


def judge(target: Target, body: bytes, outcome: Outcome) -> str | None:
    """Why `outcome` is not an answer the server documents, or None when it is."""
    code = outcome.code
    if code in SERVER_FAULTS:
        return f"server fault {code.name}: {outcome.details}"
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return "no answer within the deadline (a hang)"
    if code == grpc.StatusCode.UNAVAILABLE:
        return f"server unavailable (crashed?): {outcome.details}"
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        if not outcome.violations or not all(outcome.violations):
            return "INVALID_ARGUMENT without a google.rpc.BadRequest field violation"
        return None
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        if len(body) > MAX_RECEIVE_BYTES:
            return None
        return f"RESOURCE_EXHAUSTED for a {len(body)}-byte request: {outcome.details}"
    if code == grpc.StatusCode.NOT_FOUND:
        if target.path == "/grpc.health.v1.Health/Check":
            return None  # the documented answer for a service the server does not know
        return f"NOT_FOUND: {outcome.details}"
    if code == grpc.StatusCode.OK:
        if outcome.answer is not None:
            try:
                message_class(target.response).FromString(outcome.answer)
            except DecodeError as error:
                return f"OK answer does not decode as {target.response.full_name}: {error}"
        return None
    return f"unexpected {code.name}: {outcome.details}"


# --- cases, failures, minimising -----------------------------------------------------------


def request_body(rng: random.Random, target: Target, corpus: Corpus) -> tuple[
        str, bytes, tuple[str, ...]]:
    """One request of `target` as protobuf bytes, of a kind drawn from MODES: (the kind, the
    bytes, the mutations applied). The HTTP listener's fuzzing (http_fuzz) encodes these
    for its protocols."""
    mode = rng.choices(MODES, MODE_WEIGHTS)[0]
    values = Values(rng)
    if mode == "bytes":
        roll = rng.random()
        if roll < 0.45:
            return mode, values.raw(), ()
        if roll < 0.97:
            return mode, values.wire(), ()
        return mode, values.raw(MAX_RECEIVE_BYTES + rng.randint(1, 4096)), ()
    if mode == "random":
        return mode, values.message(target.request).SerializeToString(), ()
    mutated, names = Mutator(rng, corpus).apply(target.path, corpus.pick(rng, target.path))
    body = mutated if isinstance(mutated, bytes) else mutated.SerializeToString()
    return mode, body, tuple(names)


@dataclass(frozen=True, slots=True)
class Case:
    index: int
    target: Target
    mode: str
    body: bytes
    mutations: tuple[str, ...] = ()


@dataclass
class Failure:
    seed: int
    case: Case
    problem: str
    minimal: bytes | None = None

    def report(self) -> str:
        target = self.case.target
        lines = [
            f"FAILURE {target.path}: {self.problem}",
            f"  seed {self.seed}, case {self.case.index}, mode {self.case.mode}"
            + (f" ({', '.join(self.case.mutations)})" if self.case.mutations else ""),
            f"  again: python tests/fuzz/fuzz_harness.py --seed {self.seed} --case "
            f"{self.case.index}",
            f"  request ({len(self.case.body)} bytes, base64): "
            + base64.b64encode(self.case.body).decode(),
        ]
        shown = self.minimal if self.minimal is not None else self.case.body
        label = "minimised request" if self.minimal is not None else "request"
        lines.append(f"  {label} as text: {describe(target, shown)}")
        if self.minimal is not None:
            lines.append(f"  minimised ({len(self.minimal)} bytes, base64): "
                         + base64.b64encode(self.minimal).decode())
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "case": self.case.index,
            "path": self.case.target.path,
            "mode": self.case.mode,
            "mutations": list(self.case.mutations),
            "problem": self.problem,
            "request_base64": base64.b64encode(self.case.body).decode(),
            "minimal_base64": None if self.minimal is None
            else base64.b64encode(self.minimal).decode(),
        }


def describe(target: Target, body: bytes) -> str:
    """The request in protobuf text format, or a note that it does not decode."""
    try:
        message = message_class(target.request).FromString(body)
    except DecodeError:
        return f"(does not decode as {target.request.full_name})"
    text = text_format.MessageToString(message, as_one_line=True)
    return text if len(text) <= 4000 else text[:4000] + " ..."


def _same_problem(first: str, second: str | None) -> bool:
    return second is not None and second.split(":", 1)[0] == first.split(":", 1)[0]


def minimise(channel: grpc.Channel, target: Target, body: bytes, problem: str,
             timeout: float, budget: int = 150) -> bytes:
    """A smaller request with the same problem: fields cleared, repeated entries dropped,
    or (for bytes that do not decode) chunks cut. Greedy and bounded by `budget` calls."""
    calls = 0

    def fails(candidate: bytes) -> bool:
        nonlocal calls
        calls += 1
        return _same_problem(problem, judge(target, candidate,
                                            invoke(channel, target, candidate, timeout)))

    try:
        message = message_class(target.request).FromString(body)
    except DecodeError:
        message = None
    if message is None:
        chunk = max(1, len(body) // 2)
        while chunk >= 1 and calls < budget:
            start, shrunk = 0, False
            while start < len(body) and calls < budget:
                candidate = body[:start] + body[start + chunk:]
                if fails(candidate):
                    body, shrunk = candidate, True
                else:
                    start += chunk
            if not shrunk:
                chunk //= 2
        return body
    while calls < budget:
        for path in list(_reductions(message)):
            if calls >= budget:
                break
            candidate = _reduced(message, path)
            if fails(candidate.SerializeToString()):
                message = candidate
                break  # the paths after this one may no longer exist: list them again
        else:
            break  # no reduction keeps the problem
    return message.SerializeToString()


Step = tuple[str, int | None]


def _reductions(message: Message, prefix: tuple[Step, ...] = ()) -> Iterator[tuple[Step, ...]]:
    """Paths to what can be taken out of `message`, larger parts first: a path's last step
    is cleared (a field) or deleted (a repeated entry); the steps before it lead there."""
    nested: list[tuple[Message, tuple[Step, ...]]] = []
    for fd in message.DESCRIPTOR.fields:
        if _is_repeated(fd):
            items = getattr(message, fd.name)
            if not len(items):
                continue
            yield (*prefix, (fd.name, None))
            if len(items) > 1:
                for index in reversed(range(len(items))):
                    yield (*prefix, (fd.name, index))
            if fd.message_type is not None and not _is_map(fd):
                nested.extend((item, (*prefix, (fd.name, i))) for i, item in enumerate(items))
        elif fd.message_type is not None:
            if message.HasField(fd.name):
                yield (*prefix, (fd.name, None))
                nested.append((getattr(message, fd.name), (*prefix, (fd.name, None))))
        elif getattr(message, fd.name) != fd.default_value:
            yield (*prefix, (fd.name, None))
    for child, path in nested:
        yield from _reductions(child, path)


def _reduced(message: Message, path: tuple[Step, ...]) -> Message:
    copy = type(message)()
    copy.CopyFrom(message)
    holder = copy
    for name, index in path[:-1]:
        holder = getattr(holder, name) if index is None else getattr(holder, name)[index]
    name, index = path[-1]
    if index is None:
        holder.ClearField(name)
    else:
        del getattr(holder, name)[index]
    return copy


# --- the run ------------------------------------------------------------------------


@dataclass
class Settings:
    seed: int = 1
    seconds: float = 60.0
    max_cases: int | None = None
    concurrency: int = 2
    timeout: float = 10.0
    progress_every: float = 30.0
    warmup_seconds: float = 30.0
    max_failures: int = 5
    only_case: int | None = None
    minimise: bool = True
    # Moves per round of the games played for valid requests (fewer: a quicker start).
    live_moves: int = MAX_LIVE_MOVES


@dataclass
class Report:
    calls: int = 0
    elapsed: float = 0.0
    codes: Counter[str] = field(default_factory=Counter)
    by_target: Counter[str] = field(default_factory=Counter)
    by_mode: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    rss_kb: dict[str, int] = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)
    harness_errors: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.calls / self.elapsed if self.elapsed else 0.0

    def summary(self) -> str:
        lines = [
            f"calls {self.calls} in {self.elapsed:.1f} s ({self.rate:.0f}/s), "
            f"failures {len(self.failures)}",
            "codes: " + ", ".join(f"{k} {v}" for k, v in self.codes.most_common()),
            "modes: " + ", ".join(f"{k} {v}" for k, v in sorted(self.by_mode.items())),
            "per RPC: " + ", ".join(f"{short_path(k)} {self.by_target[k]}"
                                    for k in self.targets),
        ]
        if self.rss_kb:
            lines.append("server RSS: " + ", ".join(
                f"{k} {v / 1024:.1f} MiB" for k, v in self.rss_kb.items()))
            if "warm" in self.rss_kb and "end" in self.rss_kb:
                lines.append(f"RSS growth after warm-up: "
                             f"{(self.rss_kb['end'] - self.rss_kb['warm']) / 1024:+.1f} MiB")
        return "\n".join(lines)


def short_path(path: str) -> str:
    """``/okey.v1.HandService/CheckHand`` -> ``HandService/CheckHand`` (grpc. dropped too)."""
    return path.lstrip("/").removeprefix(f"{OKEY_PACKAGE}.").removeprefix("grpc.")


def rss_kb(pid: int) -> int | None:
    """The resident set of process `pid` in KiB (Linux /proc), None when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class Fuzzer:
    """Generates cases from the seed and runs them against one server address."""

    def __init__(self, address: str, settings: Settings,
                 targets: list[Target] | None = None) -> None:
        self.address = address
        self.settings = settings
        self._channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        setup_timeout = max(settings.timeout, 30.0)
        self.targets = (targets if targets is not None
                        else served_targets(self._channel, setup_timeout))
        rpc = Rpc(self._channel, setup_timeout)
        self.corpus = Corpus(play_live(rpc, settings.seed, settings.live_moves), self.targets,
                             rpc)

    def close(self) -> None:
        self._channel.close()

    def case(self, index: int) -> Case:
        rng = random.Random(f"{self.settings.seed}:{index}")
        target = self.targets[index % len(self.targets)]
        mode, body, names = request_body(rng, target, self.corpus)
        return Case(index, target, mode, body, names)

    def run(self, server: subprocess.Popen[bytes] | None = None,
            log: Callable[[str], None] = print) -> Report:
        settings = self.settings
        report = Report(targets=[t.path for t in self.targets])
        lock = threading.Lock()
        stop = threading.Event()
        indices = itertools.count() if settings.only_case is None else iter([settings.only_case])
        started = time.perf_counter()
        deadline = started + settings.seconds
        if server is not None and (boot := rss_kb(server.pid)) is not None:
            report.rss_kb["start"] = boot

        def worker() -> None:
            try:
                work()
            except Exception as exc:  # a harness bug must not pass for a quiet run
                with lock:
                    report.harness_errors.append(f"{type(exc).__name__}: {exc}")
                log(f"HARNESS ERROR: {type(exc).__name__}: {exc}")
                stop.set()
                raise

        def work() -> None:
            with grpc.insecure_channel(self.address, options=CHANNEL_OPTIONS) as channel:
                while not stop.is_set() and time.perf_counter() < deadline:
                    with lock:
                        index = next(indices, None)
                    if index is None or (settings.max_cases is not None
                                         and index >= settings.max_cases):
                        return
                    case = self.case(index)
                    outcome = invoke(channel, case.target, case.body, settings.timeout)
                    problem = judge(case.target, case.body, outcome)
                    if problem is not None and server is not None and server.poll() is not None:
                        problem = f"the server exited ({server.returncode}): {problem}"
                    with lock:
                        report.calls += 1
                        report.codes[outcome.code.name] += 1
                        report.by_target[case.target.path] += 1
                        report.by_mode[case.mode] += 1
                    if problem is None:
                        continue
                    failure = Failure(settings.seed, case, problem)
                    if settings.minimise and "exited" not in problem:
                        failure.minimal = minimise(channel, case.target, case.body, problem,
                                                   settings.timeout)
                    log(failure.report())
                    with lock:
                        report.failures.append(failure)
                        if len(report.failures) >= settings.max_failures:
                            stop.set()
                    if "exited" in problem:
                        stop.set()

        threads = [threading.Thread(target=worker, name=f"fuzz-{n}", daemon=True)
                   for n in range(settings.concurrency)]
        for thread in threads:
            thread.start()
        next_tick = started + settings.progress_every
        warm_at = started + settings.warmup_seconds
        while any(t.is_alive() for t in threads):
            for thread in threads:
                thread.join(0.2)
            now = time.perf_counter()
            if server is not None and "warm" not in report.rss_kb and now >= warm_at:
                warm = rss_kb(server.pid)
                if warm is not None:
                    report.rss_kb["warm"] = warm
            if now >= next_tick:
                next_tick += settings.progress_every
                rss = rss_kb(server.pid) if server is not None else None
                log(f"[{now - started:6.0f} s] calls {report.calls} "
                    f"({report.calls / (now - started):.0f}/s), failures {len(report.failures)}"
                    + (f", server RSS {rss / 1024:.1f} MiB" if rss else ""))
        report.elapsed = time.perf_counter() - started
        if server is not None and (end := rss_kb(server.pid)) is not None:
            report.rss_kb["end"] = end
        return report


# --- the server process ----------------------------------------------------------------


class Served(NamedTuple):
    process: subprocess.Popen[bytes]
    address: str  # the gRPC port's host:port
    http_address: str  # the HTTP listener's host:port
    log_path: Path

    def error_lines(self) -> list[str]:
        """The server's log lines at error level so far (a server fault, whatever the
        client was answered), and tracebacks."""
        return [line for line in self.log_path.read_text(errors="replace").splitlines()
                if '"level": "error"' in line or "Traceback" in line]


@contextlib.contextmanager
def server_process(extra_flags: tuple[str, ...] = ()) -> Iterator[Served]:
    """``okey-server --port 0 --http-port 0`` with the harness's signing key; yields it and
    its two addresses."""
    executable = ROOT / ".venv" / "bin" / "okey-server"
    command = [str(executable)] if executable.exists() else [sys.executable, "-m",
                                                             "okey_server.main"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["OKEY_SIGNING_KEY"] = SIGNING_KEY
    with tempfile.TemporaryDirectory(prefix="okey-fuzz-") as scratch:
        log_path = Path(scratch) / "server.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [*command, "--host", "127.0.0.1", "--port", "0", "--http-port", "0",
                 "--log-level", "warning", "--grace", "1", *extra_flags],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
            )
        try:
            startup = _startup_line(process, log_path)
            yield Served(process, f"127.0.0.1:{startup['port']}",
                         f"127.0.0.1:{startup['http_port']}", log_path)
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=STARTUP_DEADLINE_S)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=STARTUP_DEADLINE_S)
            errors = [line for line in log_path.read_text(errors="replace").splitlines()
                      if '"level": "error"' in line or "Traceback" in line]
            if errors:
                print(f"server log: {len(errors)} error line(s), first: {errors[0][:400]}")


def _startup_line(process: subprocess.Popen[bytes], log_path: Path) -> dict[str, Any]:
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            if line.startswith("{"):
                entry = json.loads(line)
                if entry.get("event") == "serving":
                    return dict(entry)
        if process.poll() is not None:
            raise RuntimeError(f"okey-server exited early:\n{log_path.read_text()}")
        time.sleep(0.05)
    raise RuntimeError("okey-server printed no startup line")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=2, help="client channels")
    parser.add_argument("--timeout", type=float, default=10.0, help="deadline per call, s")
    parser.add_argument("--progress", type=float, default=30.0, help="seconds between lines")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds before the warm RSS sample (default: a tenth, <= 60)")
    parser.add_argument("--case", type=int, default=None, help="run this one case only")
    parser.add_argument("--address", default=None,
                        help="fuzz a running server (host:port) instead of starting one")
    parser.add_argument("--http", action="store_true",
                        help="fuzz the HTTP listener (Connect JSON and binary, gRPC-Web) "
                             "instead of the gRPC port; valid requests still come over gRPC")
    parser.add_argument("--http-address", default=None,
                        help="with --address and --http: the running server's HTTP listener")
    parser.add_argument("--json", type=Path, default=None, help="write the report here")
    args = parser.parse_args(argv)
    if args.http and args.address and not args.http_address:
        parser.error("--http with --address needs --http-address")
    settings = Settings(
        seed=args.seed, seconds=args.seconds, max_cases=args.cases,
        concurrency=args.concurrency if args.case is None else 1, timeout=args.timeout,
        progress_every=args.progress,
        warmup_seconds=args.warmup if args.warmup is not None else min(60.0, args.seconds / 10),
        only_case=args.case,
    )

    def go(address: str, http_address: str | None,
           process: subprocess.Popen[bytes] | None) -> tuple[Report, list[dict[str, Any]]]:
        begun = time.perf_counter()
        fuzzer = Fuzzer(address, settings)
        over = (f"the HTTP listener at {http_address}" if args.http
                else f"{len(fuzzer.targets)} RPCs")
        print(f"fuzz: seed {settings.seed}, {over}, "
              f"{sum(len(v) for v in fuzzer.corpus.requests.values())} live and "
              f"{sum(len(v) for v in fuzzer.corpus.vectors.values())} vector requests "
              f"(set up in {time.perf_counter() - begun:.1f} s), {settings.concurrency} "
              f"connections, {settings.seconds:.0f} s", flush=True)
        try:
            if args.http:
                # Here, not at the top: http_fuzz imports this module.
                from http_fuzz import HttpFuzzer

                assert http_address is not None
                report, failures = HttpFuzzer(http_address, settings, fuzzer.corpus).run(
                    process, log=lambda line: print(line, flush=True))
                return report, [{"case": f.case.index, "path": f.case.path,
                                 "problem": f.problem, "request": f.case.describe()}
                                for f in failures]
            report = fuzzer.run(process, log=lambda line: print(line, flush=True))
            return report, [f.as_json() for f in report.failures]
        finally:
            fuzzer.close()

    if args.address:
        report, failures = go(args.address, args.http_address, None)
    else:
        with server_process() as served:
            report, failures = go(served.address, served.http_address, served.process)
    print(report.summary() + (f"\nHTTP failures {len(failures)}" if args.http else ""))
    if args.json:
        args.json.write_text(json.dumps({
            "calls": report.calls, "seconds": round(report.elapsed, 1),
            "calls_per_s": round(report.rate, 1), "codes": dict(report.codes),
            "per_rpc": dict(report.by_target), "modes": dict(report.by_mode),
            "rss_kib": report.rss_kb, "failures": failures,
        }, indent=2) + "\n")
    if report.harness_errors:
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
