"""Maps engine exceptions to gRPC statuses: bad input -> INVALID_ARGUMENT + BadRequest.

The one transport module for errors. The engine raises `InvalidInputError`
(with a proto field path in `.field`); here it becomes a google.rpc.Status
carrying a BadRequest field violation and an ErrorInfo, which any gRPC client
decodes (Python: ``grpc_status.rpc_status.from_call``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import grpc
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from okey.v1 import errors_pb2
from okey_rules.dealing.deal_fairness import CommitmentMismatchError
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
    "client_seeds": errors_pb2.ERROR_REASON_INVALID_SEED,
    "state": errors_pb2.ERROR_REASON_INVALID_STATE,
    "move": errors_pb2.ERROR_REASON_INVALID_MOVE,
    "moves": errors_pb2.ERROR_REASON_INVALID_MOVE,
    "seat": errors_pb2.ERROR_REASON_INVALID_MOVE,
    "round": errors_pb2.ERROR_REASON_INVALID_ROUND,
    "rounds": errors_pb2.ERROR_REASON_INVALID_ROUND,
    "table": errors_pb2.ERROR_REASON_INVALID_SCORES,
}
# A state inside a scoring request (``round.state.mac``, ``rounds[2].state``)
# is judged as a state.
_NESTED_STATE = re.compile(r"^(round|rounds\[\d+\])\.state(\.|$)")
REASONS: dict[str, str] = {
    field: errors_pb2.ErrorReason.Name(value) for field, value in _REASON_BY_FIELD.items()
}
COMMITMENT_MISMATCH = errors_pb2.ErrorReason.Name(errors_pb2.ERROR_REASON_COMMITMENT_MISMATCH)
DEFAULT_REASON = errors_pb2.ErrorReason.Name(errors_pb2.ERROR_REASON_INVALID_INPUT)
NESTED_DEAL = "deal."
_ROOT = re.compile(r"[^.\[]*")

# How much client text an error may quote: see `bounded_description`. Each character
# counts as long as its ASCII escape (ö 4, 😀 10; `_width`), so that the trailers stay
# as small as when everything was sent escaped: a letter sent as itself costs them less
# (percent-encoded in grpc-message, base64 in the details) than its escape would.
EXCERPT_CHARS = 40
DESCRIPTION_CHARS = 120
FIELD_CHARS = 48
ELLIPSIS = "\u2026"
# A quoted string as Python's repr writes it ('...' or "...", backslash escapes inside).
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'" + r'|"(?:[^"\\]|\\.)*"', re.DOTALL)


def reason_for(field: str) -> str:
    """The ErrorInfo reason for a field path.

    ``hand.tiles[3].number`` -> ``ERROR_REASON_INVALID_TILES``.
    """
    if _NESTED_STATE.match(field):
        return REASONS["state"]
    if field.startswith(NESTED_DEAL):  # Replay's deal: judged as a DealRequest's field
        return reason_for(field[len(NESTED_DEAL):])
    match = _ROOT.match(field)
    return REASONS.get(match.group() if match else field, DEFAULT_REASON)


def _escaped(char: str) -> str:
    """`char` itself when printable (letters of any script: "gösterme" keeps its "ö"),
    else its Python escape (a line break ``\\n``, a control or bidi-override character)."""
    return char if char.isprintable() else ascii(char)[1:-1]


def _width(piece: str) -> int:
    """`piece`'s length were it escaped to ASCII (what a bound counts; see EXCERPT_CHARS)."""
    return sum(1 if char.isascii() else len(ascii(char)) - 2 for char in piece)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` with what is not printable escaped, cut to a `_width` of `limit`; a cut ends
    in an ellipsis."""
    pieces: list[str] = []
    size = 0
    for char in text:
        piece = _escaped(char)
        size += _width(piece)
        if size > limit:
            return "".join(pieces) + ELLIPSIS
        pieces.append(piece)
    return "".join(pieces)


def bounded_description(description: str) -> str:
    """A description fit to send back: quoted client text cut short, what is not printable
    escaped, bounded.

    Descriptions quote what the caller sent (``cannot read 'X3' as a tile``);
    a request of kilobytes would otherwise come back in the message and again
    in the details, beyond what a client accepts as trailers.
    """
    shortened = _QUOTED.sub(
        lambda match: match[0][0] + excerpt(match[0][1:-1]) + match[0][-1], description
    )
    return excerpt(shortened, DESCRIPTION_CHARS)


def bounded_field(field: str) -> str:
    """A field path fit to send back (paths may carry map keys or option names a caller chose)."""
    return excerpt(field, FIELD_CHARS)


class Status(NamedTuple):
    code: grpc.StatusCode
    details: str
    trailing_metadata: Metadata


def invalid_input_status(exc: InvalidInputError, trailing_metadata: Metadata = ()) -> Status:
    """INVALID_ARGUMENT with one BadRequest field violation naming `exc.field`.

    Field and description are bounded (`bounded_field`, `bounded_description`):
    the whole status stays well under 1 KB whatever the request held.
    """
    field = bounded_field(exc.field)
    description = bounded_description(exc.description)
    # A sealed token that does not open says why in its own reason, and so does a
    # deal that strays from its commitment, whatever field it names.
    if isinstance(exc, CommitmentMismatchError):
        reason = COMMITMENT_MISMATCH
    else:
        reason = getattr(exc, "reason", None) or reason_for(field)
    bad_request = error_details_pb2.BadRequest(
        field_violations=[
            error_details_pb2.BadRequest.FieldViolation(
                field=field, description=description, reason=reason
            )
        ]
    )
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata={"field": field})
    status = status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT, message=f"invalid {field}: {description}"
    )
    status.details.add().Pack(bad_request)
    status.details.add().Pack(info)
    grpc_status = rpc_status.to_status(status)
    # An abort replaces the trailing metadata, so extra entries ride along here.
    return Status(grpc_status.code, grpc_status.details,
                  (*grpc_status.trailing_metadata, *trailing_metadata))


def status_for(exc: Exception, trailing_metadata: Metadata = ()) -> Status:
    """The status `exc` deserves, carrying `trailing_metadata`.

    Input problems are INVALID_ARGUMENT. A handler that is not written yet is
    UNIMPLEMENTED. Anything else is a bug in this server, not in the request:
    the caller logs it with its traceback; it is reported as INTERNAL without details.
    """
    if isinstance(exc, InvalidInputError):
        return invalid_input_status(exc, trailing_metadata)
    if isinstance(exc, NotImplementedError):
        return Status(grpc.StatusCode.UNIMPLEMENTED, "not implemented yet by this server",
                      trailing_metadata)
    return Status(grpc.StatusCode.INTERNAL, "internal server error (see the server log)",
                  trailing_metadata)
