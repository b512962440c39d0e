"""The round's enums as okey.v1 numbers, both ways, for both games (phase, move and event
kinds, illegal reasons, openings, penalties, meld kinds)."""

from __future__ import annotations

from okey.v1 import game_pb2, hand_pb2, state_pb2
from okey_rules.play.round_types import (
    EventKind,
    IllegalReason,
    MoveKind,
    Opened,
    Penalty,
    Phase,
)
from okey_rules.search.hand_types import MeldKind

from okey_server.wire.proto_enum import enum_value

PHASE_TO_PROTO: dict[Phase, state_pb2.Phase] = {
    phase: enum_value(state_pb2.Phase, f"PHASE_{phase.name}") for phase in Phase
}
PHASE_TO_DOMAIN: dict[int, Phase] = {value: phase for phase, value in PHASE_TO_PROTO.items()}
MOVE_KIND_TO_PROTO: dict[MoveKind, game_pb2.MoveKind] = {
    kind: enum_value(game_pb2.MoveKind, f"MOVE_KIND_{kind.name}") for kind in MoveKind
}
MOVE_KIND_TO_DOMAIN: dict[int, MoveKind] = {
    value: kind for kind, value in MOVE_KIND_TO_PROTO.items()
}
REASON_TO_PROTO: dict[IllegalReason, game_pb2.IllegalReason] = {
    reason: enum_value(game_pb2.IllegalReason, f"ILLEGAL_REASON_{reason.name}")
    for reason in IllegalReason
}
EVENT_KIND_TO_PROTO: dict[EventKind, game_pb2.EventKind] = {
    kind: enum_value(game_pb2.EventKind, f"EVENT_KIND_{kind.name}") for kind in EventKind
}
OPENED_TO_PROTO: dict[Opened | None, game_pb2.Opened] = {
    None: game_pb2.OPENED_UNSPECIFIED,
    Opened.MELDS: game_pb2.OPENED_MELDS,
    Opened.PAIRS: game_pb2.OPENED_PAIRS,
}
OPENED_TO_DOMAIN: dict[int, Opened | None] = {
    value: opened for opened, value in OPENED_TO_PROTO.items()
}
PENALTY_TO_PROTO: dict[Penalty, game_pb2.Penalty] = {
    penalty: enum_value(game_pb2.Penalty, f"PENALTY_{penalty.name}") for penalty in Penalty
}
PENALTY_TO_DOMAIN: dict[int, Penalty] = {
    value: penalty for penalty, value in PENALTY_TO_PROTO.items()
}
MELD_KIND_TO_PROTO: dict[MeldKind, hand_pb2.MeldKind] = {
    kind: enum_value(hand_pb2.MeldKind, f"MELD_KIND_{kind.name}") for kind in MeldKind
}
MELD_KIND_TO_DOMAIN: dict[int, MeldKind] = {
    value: kind for kind, value in MELD_KIND_TO_PROTO.items()
}
