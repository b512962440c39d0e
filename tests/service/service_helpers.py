"""Helpers for the service tests: proto tiles written from notation, error decoding."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import structlog
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from okey.v1 import hand_pb2, tile_pb2

# Written out here rather than taken from the server's converter, so the
# tests do not check the converter against itself.
_COLORS = {
    "R": tile_pb2.COLOR_RED,
    "Y": tile_pb2.COLOR_YELLOW,
    "B": tile_pb2.COLOR_BLUE,
    "K": tile_pb2.COLOR_BLACK,
}


def pb_tile(word: str) -> tile_pb2.Tile:
    """``"R7"`` -> Tile(color=COLOR_RED, number=7); ``"F"`` -> a false joker."""
    if word == "F":
        return tile_pb2.Tile(false_joker=True)
    return tile_pb2.Tile(color=_COLORS[word[0]], number=int(word[1:]))


def pb_tiles(notation: str) -> list[tile_pb2.Tile]:
    return [pb_tile(word) for word in notation.split()]


def notation_of(tile: tile_pb2.Tile) -> str:
    if tile.false_joker:
        return "F"
    letter = {value: letter for letter, value in _COLORS.items()}[tile.color]
    return f"{letter}{tile.number}"


def code_of(tile: tile_pb2.Tile) -> int:
    """The engine's index of a physical tile: copy * 53 + face (face 52: false joker)."""
    face = 52 if tile.false_joker else (tile.color - 1) * 13 + tile.number - 1
    return tile.copy * 53 + face


def codes_of(tiles: object) -> list[int]:
    return [code_of(tile) for tile in tiles]  # type: ignore[attr-defined]


def hand_request(tiles: str, **fields: object) -> hand_pb2.CheckHandRequest:
    """A CheckHand request with `tiles` as messages; other fields as given."""
    return hand_pb2.CheckHandRequest(
        hand=tile_pb2.TileList(tiles=pb_tiles(tiles)), **fields  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class Violation:
    code: grpc.StatusCode
    message: str
    fields: tuple[str, ...]
    descriptions: tuple[str, ...]
    reason: str
    domain: str


def decode_error(error: grpc.RpcError) -> Violation:
    """The google.rpc.Status details of a failed call, as the issue asks clients to read them."""
    status = rpc_status.from_call(error)
    assert status is not None, f"no rich status on {error.code()}: {error.details()}"
    bad_request = error_details_pb2.BadRequest()
    info = error_details_pb2.ErrorInfo()
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            detail.Unpack(bad_request)
        elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
    return Violation(
        code=error.code(),
        message=status.message,
        fields=tuple(v.field for v in bad_request.field_violations),
        descriptions=tuple(v.description for v in bad_request.field_violations),
        reason=info.reason,
        domain=info.domain,
    )


@contextlib.contextmanager
def captured_info_logs() -> Iterator[list[dict[str, object]]]:
    """Log entries at info level and above (the session's servers log at warning)."""
    saved = structlog.get_config()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))
    try:
        with structlog.testing.capture_logs([structlog.contextvars.merge_contextvars]) as logs:
            yield logs
    finally:
        structlog.configure(**saved)
