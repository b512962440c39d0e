"""The web table's built files (``web_static/``, from ``web/`` by ``vite build``), served by
the HTTP listener at ``/``: index.html, check.html and ``assets/*``.

Only the files the build wrote are served, each read once at start-up, so a request
names a file from a fixed table and never reaches the file system. Hashed assets (their
names change with their content) are cached for a year; the pages are revalidated every
time so a new build shows at once. RPC paths (``/okey.v1.*``, ``/grpc.*``) are never
looked up here: the listener routes them before asking.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATIC_DIR = Path(__file__).resolve().parent / "web_static"
INDEX = "index.html"
ASSETS_PREFIX = "assets/"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".woff2": "font/woff2",
}
# Vite names every asset by a hash of its content: one name, one content, forever.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# The page loads only its own files and calls only its own origin.
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
)

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str
    cache_control: str


def load(directory: Path = STATIC_DIR) -> dict[str, StaticFile]:
    """Every servable file under `directory` by its URL path ("/", "/assets/x.js");
    empty when the page was not built (the listener then answers 404 at "/")."""
    files: dict[str, StaticFile] = {}
    if not directory.is_dir():
        return files
    for path in sorted(directory.rglob("*")):
        content_type = CONTENT_TYPES.get(path.suffix)
        if not path.is_file() or content_type is None:
            continue
        relative = path.relative_to(directory).as_posix()
        cache = IMMUTABLE if relative.startswith(ASSETS_PREFIX) else REVALIDATE
        files["/" + relative] = StaticFile(path.read_bytes(), content_type, cache)
    if "/" + INDEX in files:
        files["/"] = files["/" + INDEX]
    return files


class WebTable:
    """Answers GET and HEAD for the built files; anything else is not its business."""

    def __init__(self, files: dict[str, StaticFile] | None = None) -> None:
        self._files = load() if files is None else files

    def owns(self, method: str, path: str) -> bool:
        """True for a GET or HEAD of a built file (never an RPC path: none is a file)."""
        return method in ("GET", "HEAD") and path in self._files

    async def serve(self, method: str, path: str, send: Send) -> None:
        found = self._files[path]
        headers = [
            (b"content-type", found.content_type.encode()),
            (b"content-length", str(len(found.body)).encode()),
            (b"cache-control", found.cache_control.encode()),
            *SECURITY_HEADERS,
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        body = b"" if method == "HEAD" else found.body
        await send({"type": "http.response.body", "body": body, "more_body": False})
