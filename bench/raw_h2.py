"""A raw HTTP/2 client (the `h2` package) for behaviour no gRPC library will produce.

Used by bench/limits_bench.py and tests/e2e/test_misbehaving_clients.py to
play the client that misbehaves: streams that send their headers and never a
body, more streams than the server allows, a flood of PINGs, streams opened
and reset at once. A thread reads the connection all along (acknowledging
the server's SETTINGS and PINGs, as any HTTP/2 client does) and records how
each stream ended: its grpc-status, or the RST_STREAM code, or the GOAWAY.
Loopback only; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from dataclasses import dataclass, field

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings

CHECK_HAND = "/okey.v1.HandService/CheckHand"
READ_BYTES = 1 << 16
DEADLINE_S = 10.0


@dataclass
class Ended:
    """How the server ended streams: grpc-status by stream, RST_STREAM codes, GOAWAY."""

    statuses: dict[int, str] = field(default_factory=dict)
    resets: dict[int, int] = field(default_factory=dict)
    goaway: tuple[int, bytes] | None = None
    closed: bool = False


class RawConnection:
    """One HTTP/2 connection to host:port, driven by hand."""

    def __init__(self, host: str, port: int) -> None:
        self.authority = f"{host}:{port}"
        self.sock = socket.create_connection((host, port), timeout=DEADLINE_S)
        self.h2 = h2.connection.H2Connection(
            h2.config.H2Configuration(client_side=True, header_encoding="utf-8")
        )
        self.lock = threading.Lock()
        self.ended = Ended()
        self.settings_seen = threading.Event()
        self.pings_acked = 0
        self.h2.initiate_connection()
        self._flush()
        self._reader = threading.Thread(target=self._read, name="raw-h2", daemon=True)
        self._reader.start()
        if not self.settings_seen.wait(DEADLINE_S):
            raise TimeoutError("the server sent no SETTINGS")
        # Let our ACK of the server's SETTINGS arrive before any stream: gRPC
        # counts streams against its limit once it knows the client has it.
        self.ping_and_wait()

    def _flush(self) -> None:
        data = self.h2.data_to_send()
        if data:
            self.sock.sendall(data)

    def _read(self) -> None:
        while True:
            try:
                data = self.sock.recv(READ_BYTES)
            except OSError:
                data = b""
            with self.lock:
                if not data:
                    self.ended.closed = True
                    return
                try:
                    events = self.h2.receive_data(data)
                except h2.exceptions.ProtocolError:
                    self.ended.closed = True
                    return
                for event in events:
                    self._note(event)
                try:
                    self._flush()  # SETTINGS and PING acknowledgements
                except OSError:
                    self.ended.closed = True
                    return

    def _note(self, event: h2.events.Event) -> None:
        if isinstance(event, h2.events.RemoteSettingsChanged):
            self.settings_seen.set()
        elif isinstance(event, h2.events.TrailersReceived | h2.events.ResponseReceived):
            status = dict(event.headers).get("grpc-status")
            if status is not None:
                self.ended.statuses[event.stream_id] = status
        elif isinstance(event, h2.events.StreamReset):
            self.ended.resets[event.stream_id] = int(event.error_code)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.ended.goaway = (int(event.error_code), bytes(event.additional_data or b""))
        elif isinstance(event, h2.events.PingAckReceived):
            self.pings_acked += 1

    def ping_and_wait(self) -> None:
        """One PING, and its acknowledgement awaited: everything sent before it was read."""
        with self.lock:
            before = self.pings_acked
            self.h2.ping(b"okeyping")
            self._flush()
        deadline = time.monotonic() + DEADLINE_S
        while self.pings_acked == before and time.monotonic() < deadline:
            if self.ended.closed:
                return
            time.sleep(0.01)

    def ignore_stream_limit(self) -> None:
        """From now on h2 opens streams past the server's MAX_CONCURRENT_STREAMS."""
        with self.lock:
            settings = self.h2.remote_settings
            settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = 2**31 - 1
            settings.acknowledge()

    def open_streams(self, count: int, path: str = CHECK_HAND, reset: bool = False) -> list[int]:
        """`count` streams that send their headers only (no message, no end of stream);
        with `reset`, each is cancelled (RST_STREAM CANCEL) right after its headers."""
        headers = [
            (":method", "POST"), (":scheme", "http"), (":path", path),
            (":authority", self.authority), ("content-type", "application/grpc"),
            ("te", "trailers"),
        ]
        opened = []
        with self.lock:
            for _ in range(count):
                stream_id = self.h2.get_next_available_stream_id()
                self.h2.send_headers(stream_id, headers)
                if reset:
                    self.h2.reset_stream(stream_id, h2.errors.ErrorCodes.CANCEL)
                opened.append(stream_id)
            self._flush()
        return opened

    def send_pings(self, count: int) -> None:
        with self.lock:
            for index in range(count):
                self.h2.ping(index.to_bytes(8, "big"))
            self._flush()

    @property
    def max_concurrent_streams(self) -> int:
        return int(self.h2.remote_settings.max_concurrent_streams)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._reader.join(DEADLINE_S)
