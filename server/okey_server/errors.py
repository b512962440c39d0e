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
from okey.v1 import errors_pb2
from okey_rules.errors import InvalidInputError

DOMAIN = "okey-rules"
Metadata = tuple[tuple[str, str | bytes], ...]

# ErrorInfo.reason by the top-level request field at fault: the name of an
# okey.v1.ErrorReason value, a stable API clients switch on.
_REASON_BY_FIELD: dict[str, int] = {
    "hand": errors_pb2.ERROR_REASON_INVALID_TILES,
    "hand_notation": errors_pb2.ERROR_REASON_INVALID_TILES,
    "indicator": errors_pb2.ERROR_REASON_INVALID_INDICATOR,
    "indicator_notation": errors_pb2.ERROR_REASON_INVALID_INDICATOR,
    "okey": errors_pb2.ERROR_REASON_INVALID_OKEY,
    "okey_notation": errors_pb2.ERROR_REASON_INVALID_OKEY,
    "preset": errors_pb2.ERROR_REASON_INVALID_RULESET,
    "ruleset": errors_pb2.ERROR_REASON_INVALID_RULESET,
    "request": errors_pb2.ERROR_REASON_MALFORMED_REQUEST,
    "player_count": errors_pb2.ERROR_REASON_INVALID_DEAL,
    "dealer_seat": errors_pb2.ERROR_REASON_INVALID_DEAL,
    "method": errors_pb2.ERROR_REASON_INVALID_DEAL,
    "dice": errors_pb2.ERROR_REASON_INVALID_DICE,
    "seed": errors_pb2.ERROR_REASON_INVALID_SEED,
    "deal_id": errors_pb2.ERROR_REASON_INVALID_SEED,
}
REASONS: dict[str, str] = {
    field: errors_pb2.ErrorReason.Name(value) for field, value in _REASON_BY_FIELD.items()
}
DEFAULT_REASON = errors_pb2.ErrorReason.Name(errors_pb2.ERROR_REASON_INVALID_INPUT)
_ROOT = re.compile(r"[^.\[]*")

_log = structlog.get_logger("okey_server.errors")


def reason_for(field: str) -> str:
    """The ErrorInfo reason for a field path.

    ``hand.tiles[3].number`` -> ``ERROR_REASON_INVALID_TILES``.
    """
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
