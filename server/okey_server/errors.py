"""Maps engine exceptions to gRPC statuses: bad input -> INVALID_ARGUMENT + BadRequest.

The one transport module for errors. The engine raises `InvalidInputError`
(with a proto field path in `.field`); here it becomes a google.rpc.Status
carrying a BadRequest field violation and an ErrorInfo, which any gRPC client
decodes (Python: ``grpc_status.rpc_status.from_call``).
"""

from __future__ import annotations

import re
from typing import NoReturn

import grpc
import structlog
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from okey_rules.errors import InvalidInputError

DOMAIN = "okey-rules"
Metadata = tuple[tuple[str, str | bytes], ...]

# ErrorInfo.reason by the top-level request field at fault; UPPER_SNAKE, stable API.
REASONS: dict[str, str] = {
    "tiles": "INVALID_TILES",
    "tiles_notation": "INVALID_TILES",
    "indicator": "INVALID_INDICATOR",
    "indicator_notation": "INVALID_INDICATOR",
    "okey": "INVALID_OKEY",
    "okey_notation": "INVALID_OKEY",
    "preset": "INVALID_RULESET",
    "ruleset": "INVALID_RULESET",
    "request": "MALFORMED_REQUEST",
    "player_count": "INVALID_DEAL",
    "dealer_seat": "INVALID_DEAL",
    "method": "INVALID_DEAL",
    "dice": "INVALID_DICE",
    "seed": "INVALID_SEED",
    "deal_id": "INVALID_SEED",
}
DEFAULT_REASON = "INVALID_INPUT"
_ROOT = re.compile(r"[^.\[]*")

_log = structlog.get_logger("okey_server.errors")


def reason_for(field: str) -> str:
    """The ErrorInfo reason for a field path: ``tiles[3].number`` -> ``INVALID_TILES``."""
    match = _ROOT.match(field)
    return REASONS.get(match.group() if match else field, DEFAULT_REASON)


def invalid_input_status(exc: InvalidInputError, trailing_metadata: Metadata = ()) -> grpc.Status:
    """INVALID_ARGUMENT with one BadRequest field violation naming `exc.field`."""
    reason = reason_for(exc.field)
    bad_request = error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(
                field=exc.field, description=exc.description, reason=reason
            )
        ]
    )
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata={"field": exc.field})
    status = status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT, message=f"invalid {exc.field}: {exc.description}"
    )
    status.details.add().Pack(bad_request)
    status.details.add().Pack(info)
    grpc_status = rpc_status.to_status(status)
    # abort_with_status replaces the trailing metadata, so extra entries ride along here.
    return grpc_status._replace(trailing_metadata=(*grpc_status.trailing_metadata,
                                                   *trailing_metadata))


def abort_for_exception(
    context: grpc.ServicerContext, exc: Exception, trailing_metadata: Metadata = ()
) -> NoReturn:
    """Ends the RPC with the status `exc` deserves; never returns.

    Input problems are INVALID_ARGUMENT. A handler that is not written yet is
    UNIMPLEMENTED. Anything else is a bug in this server, not in the request:
    it is logged with its traceback, then reported as INTERNAL without details.
    """
    if isinstance(exc, InvalidInputError):
        context.abort_with_status(invalid_input_status(exc, trailing_metadata))
    elif isinstance(exc, NotImplementedError):
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "not implemented yet by this server")
    else:
        _log.error("unhandled exception in handler", exc_info=exc)
        context.abort(grpc.StatusCode.INTERNAL, "internal server error (see the server log)")
    raise AssertionError("unreachable: context.abort raises")  # pragma: no cover
