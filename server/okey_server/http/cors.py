"""CORS for browser frontends (``--http-cors-origin``): which origins may call, and the
headers that let a browser send Connect and gRPC-Web requests and read their answers.

No origin is allowed unless configured. A call from an origin that is not allowed is
still answered (CORS binds browsers, not servers) but without the headers, so the
browser keeps the answer from the page; its preflight is refused (403).
"""

from __future__ import annotations

from collections.abc import Iterable

Headers = list[tuple[bytes, bytes]]

ANY_ORIGIN = "*"
# Request headers Connect and gRPC-Web clients (connect-es, grpc-web) send.
ALLOWED_HEADERS = (
    "content-type", "connect-protocol-version", "connect-timeout-ms",
    "connect-accept-encoding", "connect-content-encoding", "content-encoding",
    "grpc-timeout", "grpc-accept-encoding", "grpc-encoding", "x-grpc-web", "x-user-agent",
    "x-request-id",
)
# Response headers a page may read: gRPC-Web's status (trailers-only answers carry it
# in the headers), Connect's, and the request id.
EXPOSED_HEADERS = (
    "grpc-status", "grpc-message", "grpc-status-details-bin", "connect-content-encoding",
    "content-encoding", "x-request-id",
)
METHODS = "POST, GET, OPTIONS"
# How long a browser may keep a preflight's answer (seconds; browsers cap it lower).
MAX_AGE_S = 7200


class Cors:
    """The allowed origins and the headers for each kind of answer."""

    def __init__(self, origins: Iterable[str]) -> None:
        self._origins = frozenset(origins)
        self._any = ANY_ORIGIN in self._origins

    def allows(self, origin: str | None) -> bool:
        return origin is not None and (self._any or origin in self._origins)

    def response_headers(self, origin: str | None) -> Headers:
        """Headers for an actual call's answer (none unless the origin is allowed)."""
        if not self.allows(origin):
            return []
        assert origin is not None
        return [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-expose-headers", ", ".join(EXPOSED_HEADERS).encode()),
            (b"vary", b"Origin"),
        ]

    def preflight_headers(self, origin: str) -> Headers:
        """Headers for the answer to an allowed origin's preflight (OPTIONS)."""
        return [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-allow-methods", METHODS.encode()),
            (b"access-control-allow-headers", ", ".join(ALLOWED_HEADERS).encode()),
            (b"access-control-max-age", str(MAX_AGE_S).encode()),
            (b"vary", b"Origin"),
        ]
