"""google.protobuf.Timestamp <-> the engine's clock (integer milliseconds since the Unix epoch)."""

from __future__ import annotations

from google.protobuf import timestamp_pb2


def timestamp_ms(stamp: timestamp_pb2.Timestamp) -> int:
    """Whole milliseconds since the epoch (sub-millisecond parts are dropped)."""
    return stamp.seconds * 1000 + stamp.nanos // 1_000_000


def ms_timestamp(ms: int) -> timestamp_pb2.Timestamp:
    seconds, millis = divmod(ms, 1000)
    return timestamp_pb2.Timestamp(seconds=seconds, nanos=millis * 1_000_000)
