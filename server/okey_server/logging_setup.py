"""structlog set-up: one JSON object per line on stderr, request context merged in."""

from __future__ import annotations

import logging
import sys
from typing import Any, TextIO

import structlog

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


def configure_logging(level: str = "info", stream: TextIO | None = None) -> None:
    """Routes every structlog logger to JSON lines on `stream` (default stderr).

    Info-level lines carry no tiles, racks or walls: callers log names and codes
    only; request contents may appear at debug level at most.
    """
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS[level]),
        logger_factory=structlog.WriteLoggerFactory(file=stream or sys.stderr),
        # Not cached: tests and `main` may reconfigure after a logger was created.
        cache_logger_on_first_use=False,
    )


def lifecycle_logger() -> Any:
    """A logger that ignores the level: start-up and shutdown lines always print.

    With ``--port 0`` the startup line is how callers learn the port, so even
    ``--log-level error`` must not hide it.
    """
    return structlog.wrap_logger(
        None,
        wrapper_class=structlog.make_filtering_bound_logger(logging.NOTSET),
    )
