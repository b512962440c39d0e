"""Conformance vectors (docs/conformance.md): load them, call any okey.v1 method, match answers.

Generic over service and method: a vector file names both, and the method is
looked up in the descriptor pool of the generated okey.v1 modules, so vectors
for a new RPC need no change here. A case with `given_state` (a ReplayRequest)
first plays it through GameService/Replay and sends the sealed state Replay
answers in its request's state field (`state`, or `round.state` in a
ScoreRoundRequest): a sealed state cannot be written into a vector (it opens
under one server key only), only the way to reach it. A case with
`given_commitment` (a CommitSeedRequest) first commits through
DealService/CommitSeed and sends the secret deal id it answers in the
request's `deal_id`, for the same reason.
"""

from __future__ import annotations

import base64
import importlib
import json
import math
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from okey.v1 import errors_pb2

from okey_cli import rpc

FILE_KEYS = frozenset({"suite", "source", "service", "method", "cases"})
OPTIONAL_FILE_KEYS = frozenset({"notes"})
CASE_KEYS = frozenset({"name", "reason", "request", "expect"})
OPTIONAL_CASE_KEYS = frozenset({"given_state", "given_commitment"})
# The RPC that turns a case's `given_state` into a state (docs/conformance.md).
REPLAY_SERVICE = "okey.v1.GameService"
REPLAY_METHOD = "Replay"
# A state travels as an opaque sealed token: a singular `bytes` field named `state`.
STATE_FIELD = "state"
# The RPC that turns a case's `given_commitment` into a secret deal id, and where it goes.
COMMIT_SERVICE = "okey.v1.DealService"
COMMIT_METHOD = "CommitSeed"
DEAL_ID_FIELD = "deal_id"
# The fields of an answer that must repeat CommitSeed's answer (docs/conformance.md).
COMMITTED_ECHOES = ("commitment", "deal_id")
NAME_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
ERROR_REASONS = frozenset(errors_pb2.ErrorReason.DESCRIPTOR.values_by_name)
STATUS_NAMES = frozenset(code.name for code in grpc.StatusCode if code is not grpc.StatusCode.OK)
_SHOWN_CHARS = 300

_INT64_TYPES = frozenset(
    {
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_UINT64,
        FieldDescriptor.TYPE_SINT64,
        FieldDescriptor.TYPE_FIXED64,
        FieldDescriptor.TYPE_SFIXED64,
    }
)
_INT32_TYPES = frozenset(
    {
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_UINT32,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_SFIXED32,
    }
)
_FLOAT_TYPES = frozenset({FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE})


class VectorError(Exception):
    """A vector file that does not follow the format; names the file (and case)."""


class UnreachableError(Exception):
    """The server could not be reached: no verdict on any case is possible."""


@dataclass(frozen=True, slots=True)
class Method:
    """A unary okey.v1 RPC, found by name in the descriptor pool."""

    service: str
    name: str
    request_type: type[Message]
    response_type: type[Message]

    @property
    def path(self) -> str:
        return f"/{self.service}/{self.name}"


@dataclass(frozen=True, slots=True)
class Case:
    file: Path
    suite: str
    name: str
    reason: str
    method: Method
    request: Message
    expect: dict[str, Any]
    # A ReplayRequest whose answer's state goes into the request before the call, at
    # `state_path` (field names from the request down: ("state",) or ("round", "state")).
    given_state: Message | None = None
    state_path: tuple[str, ...] = ()
    # A CommitSeedRequest whose answer's secret deal id goes into the request's deal_id.
    given_commitment: Message | None = None


@dataclass(slots=True)
class CaseResult:
    case: Case
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def _import_generated() -> None:
    """Imports every generated okey.v1 module so its services are in the default pool."""
    package = importlib.import_module("okey.v1")
    for module in pkgutil.iter_modules(package.__path__):
        if module.name.endswith("_pb2"):
            importlib.import_module(f"okey.v1.{module.name}")


def find_method(service: str, method: str) -> Method:
    _import_generated()
    pool = descriptor_pool.Default()
    try:
        service_descriptor = pool.FindServiceByName(service)
    except KeyError:
        raise VectorError(f"unknown service {service!r}") from None
    method_descriptor = service_descriptor.methods_by_name.get(method)
    if method_descriptor is None:
        known = ", ".join(sorted(service_descriptor.methods_by_name))
        raise VectorError(f"{service} has no method {method!r} (it has: {known})")
    if method_descriptor.client_streaming or method_descriptor.server_streaming:
        raise VectorError(f"{service}/{method} is a streaming method; vectors are unary only")
    return Method(
        service=service_descriptor.full_name,
        name=method_descriptor.name,
        request_type=message_factory.GetMessageClass(method_descriptor.input_type),
        response_type=message_factory.GetMessageClass(method_descriptor.output_type),
    )


def _require(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise VectorError(f"{where}: {message}")


def _check_keys(
    data: dict[str, Any], required: frozenset[str], optional: frozenset[str], where: str
) -> None:
    missing = sorted(required - data.keys())
    unknown = sorted(data.keys() - required - optional)
    _require(not missing, where, f"missing {', '.join(missing)}")
    _require(not unknown, where, f"unknown key(s) {', '.join(unknown)}")


def _check_expect(expect: Any, method: Method, where: str) -> None:
    _require(
        isinstance(expect, dict)
        and len(expect) == 1
        and next(iter(expect)) in ("response", "error"),
        where,
        'expect must be {"response": {...}} or {"error": {...}}',
    )
    if "response" in expect:
        response = expect["response"]
        _require(isinstance(response, dict), where, "expect.response must be an object")
        try:
            # A subset of a response is itself valid protobuf JSON of the response
            # type: parsing it catches misspelt fields and enum names up front.
            json_format.ParseDict(response, method.response_type())
        except json_format.ParseError as error:
            raise VectorError(f"{where}: expect.response: {error}") from None
        return
    wanted = expect["error"]
    _require(isinstance(wanted, dict), where, "expect.error must be an object")
    _check_keys(
        wanted, frozenset({"code"}), frozenset({"field", "reason"}), f"{where}: expect.error"
    )
    _require(
        wanted["code"] in STATUS_NAMES,
        where,
        f"expect.error.code {wanted['code']!r} is not a gRPC status name",
    )
    _require(isinstance(wanted.get("field", ""), str), where, "expect.error.field must be a string")
    if "reason" in wanted:
        _require(
            wanted["reason"] in ERROR_REASONS,
            where,
            f"expect.error.reason {wanted['reason']!r} is not an okey.v1.ErrorReason name",
        )


def load_file(path: Path) -> list[Case]:
    """Reads and checks one vector file; raises `VectorError` on any deviation."""
    where = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise VectorError(f"{where}: {error}") from None
    _require(isinstance(data, dict), where, "a vector file is one JSON object")
    _check_keys(data, FILE_KEYS, OPTIONAL_FILE_KEYS, where)
    for key in ("suite", "source", "service", "method"):
        _require(
            isinstance(data[key], str) and data[key] != "",
            where,
            f"{key} must be a non-empty string",
        )
    _require(
        isinstance(data["cases"], list) and data["cases"] != [],
        where,
        "cases must be a non-empty list",
    )
    try:
        method = find_method(data["service"], data["method"])
    except VectorError as error:
        raise VectorError(f"{where}: {error}") from None
    cases = []
    for index, raw in enumerate(data["cases"]):
        at = f"{where}: cases[{index}]"
        _require(isinstance(raw, dict), at, "a case is a JSON object")
        _check_keys(raw, CASE_KEYS, OPTIONAL_CASE_KEYS, at)
        name = raw["name"]
        _require(
            isinstance(name, str) and NAME_RE.fullmatch(name) is not None,
            at,
            f"name {name!r} is not kebab-case (a-z, 0-9, single hyphens)",
        )
        at = f"{where}: {name}"
        _require(
            isinstance(raw["reason"], str) and raw["reason"].strip() != "",
            at,
            "reason must be a non-empty string",
        )
        _require(isinstance(raw["request"], dict), at, "request must be an object")
        try:
            request = json_format.ParseDict(raw["request"], method.request_type())
        except json_format.ParseError as error:
            raise VectorError(f"{at}: request: {error}") from None
        _check_expect(raw["expect"], method, at)
        given: Message | None = None
        state_at: tuple[str, ...] = ()
        if "given_state" in raw:
            given, state_at = _given_state(raw["given_state"], method, at)
        commit: Message | None = None
        if "given_commitment" in raw:
            commit = _given_commitment(raw["given_commitment"], method, at)
        cases.append(
            Case(
                path,
                data["suite"],
                name,
                raw["reason"],
                method,
                request,
                raw["expect"],
                given,
                state_at,
                commit,
            )
        )
    return cases


def _is_state(fd: FieldDescriptor) -> bool:
    # A sealed state is opaque bytes; the name tells it from any other bytes field.
    return fd.name == STATE_FIELD and fd.type == FieldDescriptor.TYPE_BYTES and not _is_repeated(fd)


def _descriptor(message: Message | type[Message]) -> Descriptor:
    """`message`'s descriptor. The stubs type it as the pure-Python class or upb's,
    which have the same attributes (those used here included)."""
    return cast(Descriptor, message.DESCRIPTOR)


def state_path(request: Descriptor) -> tuple[str, ...] | None:
    """Where a replayed state goes in a request (a message descriptor), as field names.

    The request's own state field, a singular `bytes state` (GameService
    requests, RevealSeedRequest), else one
    a level down, in a singular message field of the request (ScoreRoundRequest:
    `round.state`, a member of RoundInput's oneof); fields in number order, the
    first found wins. None when there is none: a list of rounds (ScoreGameRequest)
    has no single place for one state.
    """
    by_number = sorted(request.fields, key=lambda fd: fd.number)
    direct = next((fd for fd in by_number if _is_state(fd)), None)
    if direct is not None:
        return (direct.name,)
    for outer in by_number:
        if outer.message_type is None or _is_repeated(outer) or _is_map(outer):
            continue
        inner = sorted(outer.message_type.fields, key=lambda fd: fd.number)
        found = next((fd for fd in inner if _is_state(fd)), None)
        if found is not None:
            return (outer.name, found.name)
    return None


def _given_state(given: Any, method: Method, where: str) -> tuple[Message, tuple[str, ...]]:
    """A case's `given_state` as a ReplayRequest, and where its state goes in the request."""
    path = state_path(_descriptor(method.request_type))
    _require(
        path is not None,
        where,
        f"given_state: {method.request_type.DESCRIPTOR.full_name} has no {STATE_FIELD} field"
        " to put the replayed state in",
    )
    assert path is not None
    _require(isinstance(given, dict), where, "given_state must be a ReplayRequest object")
    replay = find_method(REPLAY_SERVICE, REPLAY_METHOD)
    try:
        return json_format.ParseDict(given, replay.request_type()), path
    except json_format.ParseError as error:
        raise VectorError(f"{where}: given_state: {error}") from None


def _given_commitment(given: Any, method: Method, where: str) -> Message:
    """A case's `given_commitment` as a CommitSeedRequest; the request must have a deal_id."""
    fd = _descriptor(method.request_type).fields_by_name.get(DEAL_ID_FIELD)
    _require(
        fd is not None and fd.type == FieldDescriptor.TYPE_STRING and not _is_repeated(fd),
        where,
        f"given_commitment: {method.request_type.DESCRIPTOR.full_name} has no {DEAL_ID_FIELD}"
        " field to put the committed deal id in",
    )
    _require(isinstance(given, dict), where, "given_commitment must be a CommitSeedRequest object")
    commit = find_method(COMMIT_SERVICE, COMMIT_METHOD)
    try:
        return json_format.ParseDict(given, commit.request_type())
    except json_format.ParseError as error:
        raise VectorError(f"{where}: given_commitment: {error}") from None


def load_dir(directory: Path) -> list[Case]:
    """Every case of every ``*.json`` file directly in `directory`, files in name order."""
    if not directory.is_dir():
        raise VectorError(f"{directory}: not a directory")
    cases: list[Case] = []
    seen: dict[str, Path] = {}
    for path in sorted(directory.glob("*.json")):
        for case in load_file(path):
            if case.name in seen:
                raise VectorError(
                    f"{path}: case name {case.name!r} is also used in {seen[case.name]}"
                )
            seen[case.name] = path
            cases.append(case)
    return cases


def select(cases: Iterable[Case], substring: str | None) -> list[Case]:
    """The cases whose name or suite contains `substring` (case-insensitive)."""
    if not substring:
        return list(cases)
    needle = substring.lower()
    return [c for c in cases if needle in c.name.lower() or needle in c.suite.lower()]


# --- matching ---------------------------------------------------------------


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def _is_repeated(fd: FieldDescriptor) -> bool:
    flag = getattr(fd, "is_repeated", None)
    if flag is not None:
        return bool(flag)
    # Older protobuf runtimes: no is_repeated; the stubs (protobuf 7) have no label.
    return bool(fd.label == FieldDescriptor.LABEL_REPEATED)  # type: ignore[attr-defined]  # see above


def _is_map(fd: FieldDescriptor) -> bool:
    return fd.message_type is not None and bool(fd.message_type.GetOptions().map_entry)


def _is_well_known(message: Message) -> bool:
    # Well-known types have their own JSON forms (a Timestamp is a string...).
    return bool(message.DESCRIPTOR.full_name.startswith("google.protobuf."))


def _scalar_json(fd: FieldDescriptor, value: Any) -> Any:
    """A scalar field value as protobuf JSON prints it."""
    if fd.type == FieldDescriptor.TYPE_ENUM and fd.enum_type is not None:
        known = fd.enum_type.values_by_number.get(value)
        return known.name if known is not None else value
    if fd.type in _INT64_TYPES:
        return str(value)
    if fd.type == FieldDescriptor.TYPE_BYTES:
        return base64.b64encode(value).decode("ascii")
    if fd.type in _FLOAT_TYPES and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def _scalar_matches(want: Any, fd: FieldDescriptor, value: Any) -> bool:
    if want is None:
        return bool(value == fd.default_value)
    if isinstance(want, bool) or fd.type == FieldDescriptor.TYPE_BOOL:
        return isinstance(want, bool) and fd.type == FieldDescriptor.TYPE_BOOL and want == value
    if fd.type == FieldDescriptor.TYPE_ENUM:
        return bool(want == value if isinstance(want, int) else want == _scalar_json(fd, value))
    if fd.type in _INT64_TYPES or fd.type in _INT32_TYPES:
        try:
            return bool(int(want) == value if not isinstance(want, float) else want == value)
        except (TypeError, ValueError):
            return False
    if fd.type in _FLOAT_TYPES:
        try:
            number = float(want)
        except (TypeError, ValueError):
            return False
        return (math.isnan(number) and math.isnan(value)) or number == value
    if fd.type == FieldDescriptor.TYPE_BYTES:
        try:
            return isinstance(want, str) and base64.b64decode(want, altchars=b"-_") == value
        except ValueError:
            return False
    return bool(want == value)


def _field_named(message: Message, key: str) -> FieldDescriptor | None:
    descriptor = _descriptor(message)
    found = descriptor.fields_by_name.get(key)
    if found is not None:
        return found
    return next((f for f in descriptor.fields if f.json_name == key), None)


def _actual_json(fd: FieldDescriptor, value: Any) -> Any:
    if fd.message_type is not None:
        return json_format.MessageToDict(value)
    return _scalar_json(fd, value)


def _match_json(want: Any, actual: Any, path: str, out: list[str]) -> None:
    """Plain JSON subset matching (for well-known types' special JSON forms)."""
    if isinstance(want, dict) and isinstance(actual, dict):
        for key, sub in want.items():
            if key not in actual:
                out.append(f"{path}.{key}: expected {_show(sub)}, got nothing")
            else:
                _match_json(sub, actual[key], f"{path}.{key}", out)
    elif isinstance(want, list) and isinstance(actual, list) and len(want) == len(actual):
        for index, (sub, got) in enumerate(zip(want, actual, strict=True)):
            _match_json(sub, got, f"{path}[{index}]", out)
    elif want != actual or type(want) is not type(actual):
        out.append(f"{path}: expected {_show(want)}, got {_show(actual)}")


def _match_message(want: Any, message: Message, path: str, out: list[str]) -> None:
    if _is_well_known(message):
        _match_json(want, json_format.MessageToDict(message), path, out)
        return
    if want is None:
        want = {}
    if not isinstance(want, dict):
        got = json_format.MessageToDict(message)
        out.append(f"{path}: expected {_show(want)}, got {_show(got)}")
        return
    for key, sub in want.items():
        sub_path = f"{path}.{key}" if path else key
        fd = _field_named(message, key)
        if fd is None:
            out.append(f"{sub_path}: {message.DESCRIPTOR.full_name} has no such field")
        else:
            _match_field(sub, fd, message, sub_path, out)


def _match_field(
    want: Any, fd: FieldDescriptor, message: Message, path: str, out: list[str]
) -> None:
    value = getattr(message, fd.name)
    if _is_map(fd):
        _match_map(want, fd, value, path, out)
    elif _is_repeated(fd):
        _match_list(want, fd, value, path, out)
    elif fd.message_type is not None:
        if want is None and message.HasField(fd.name):
            out.append(f"{path}: expected no value, got {_show(_actual_json(fd, value))}")
        elif want is not None:
            _match_message(want, value, path, out)
    elif not _scalar_matches(want, fd, value):
        out.append(f"{path}: expected {_show(want)}, got {_show(_scalar_json(fd, value))}")


def _match_list(want: Any, fd: FieldDescriptor, values: Any, path: str, out: list[str]) -> None:
    want = [] if want is None else want
    actual = [_actual_json(fd, v) for v in values]
    if not isinstance(want, list) or len(want) != len(actual):
        count = f"{len(want)} elements" if isinstance(want, list) else _show(want)
        out.append(f"{path}: expected {count}, got {len(actual)}: {_show(actual)}")
        return
    for index, (sub, value) in enumerate(zip(want, values, strict=True)):
        sub_path = f"{path}[{index}]"
        if fd.message_type is not None:
            _match_message(sub, value, sub_path, out)
        elif not _scalar_matches(sub, fd, value):
            out.append(f"{sub_path}: expected {_show(sub)}, got {_show(_scalar_json(fd, value))}")


def _match_map(want: Any, fd: FieldDescriptor, values: Any, path: str, out: list[str]) -> None:
    entry = fd.message_type
    assert entry is not None  # a map field's entry message
    value_fd = entry.fields_by_name["value"]
    # JSON map keys are strings: booleans as "true"/"false", integers in decimal.
    actual = {(str(k).lower() if isinstance(k, bool) else str(k)): v for k, v in values.items()}
    want = {} if want is None else want
    if not isinstance(want, dict):
        out.append(f"{path}: expected {_show(want)}, got a map")
        return
    for key, sub in want.items():
        sub_path = f"{path}[{key!r}]"
        if key not in actual:
            out.append(f"{sub_path}: expected {_show(sub)}, got no entry")
        elif value_fd.message_type is not None:
            _match_message(sub, actual[key], sub_path, out)
        elif not _scalar_matches(sub, value_fd, actual[key]):
            got = _scalar_json(value_fd, actual[key])
            out.append(f"{sub_path}: expected {_show(sub)}, got {_show(got)}")


def match_response(want: dict[str, Any], response: Message) -> list[str]:
    """The differences between an expected subset and an actual response (none: a match).

    Fields absent from the actual message read as their proto defaults.
    """
    out: list[str] = []
    _match_message(want, response, "", out)
    return out


def field_matches(wanted: str, actual: str) -> bool:
    """``tiles`` matches ``tiles``, ``tiles[3]`` and ``tiles.number``, not ``tiles_notation``."""
    return actual == wanted or actual.startswith((f"{wanted}[", f"{wanted}."))


def error_reason(error: grpc.RpcError) -> str:
    """The google.rpc.ErrorInfo reason an error status carries ("" when it carries none)."""
    try:
        # A failed call's RpcError is also its grpc.Call (the stubs keep the two apart).
        status = rpc_status.from_call(cast(grpc.Call, error))
    except ValueError:
        return ""
    if status is None:
        return ""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return str(info.reason)
    return ""


def match_error(want: dict[str, Any], error: grpc.RpcError) -> list[str]:
    out = []
    code = rpc.status_code(error)
    if code.name != want["code"]:
        out.append(
            f"error code: expected {want['code']}, got {code.name}: {rpc.status_details(error)}"
        )
    wanted_field = want.get("field")
    if wanted_field is not None:
        found = rpc.violations(error)
        if not any(field_matches(wanted_field, v.field) for v in found):
            got = ", ".join(repr(v.field) for v in found) or "no field violations"
            out.append(f"error field: expected a violation of {wanted_field!r}, got {got}")
    wanted_reason = want.get("reason")
    if wanted_reason is not None:
        got_reason = error_reason(error) or "no ErrorInfo"
        if got_reason != wanted_reason:
            out.append(f"error reason: expected {wanted_reason}, got {got_reason}")
    return out


# --- running ----------------------------------------------------------------


class Runner:
    """Runs cases against one server, one unary call each, with a deadline."""

    def __init__(self, channel: grpc.Channel, address: str, timeout: float) -> None:
        self.channel = channel
        self.address = address
        self.timeout = timeout
        # Any: methods are found by name at run time, their messages with them.
        self._calls: dict[str, grpc.UnaryUnaryMultiCallable[Any, Any]] = {}

    def _callable(self, method: Method) -> grpc.UnaryUnaryMultiCallable[Any, Any]:
        if method.path not in self._calls:
            self._calls[method.path] = self.channel.unary_unary(
                method.path,
                request_serializer=method.request_type.SerializeToString,
                response_deserializer=method.response_type.FromString,
            )
        return self._calls[method.path]

    def _metadata(self, case: Case) -> tuple[tuple[str, str], ...]:
        # The case name as request id makes the server's log lines easy to find.
        return (("x-request-id", f"conformance-{case.name}"[:128]),)

    def _given_state(self, case: Case, problems: list[str]) -> bytes | None:
        """The sealed state Replay answers for the case's `given_state`, or None after a
        problem line.

        The case fails (and its own method is not called) when Replay fails or
        judges a move of the log illegal: the position it needs was not reached.
        """
        replay = find_method(REPLAY_SERVICE, REPLAY_METHOD)
        where = f"given_state: {replay.service}/{replay.name}"
        try:
            answer = self._callable(replay)(
                case.given_state, timeout=self.timeout, metadata=self._metadata(case)
            )
        except grpc.RpcError as error:
            code = rpc.status_code(error)
            if code is grpc.StatusCode.UNAVAILABLE:
                raise UnreachableError(self.address) from None
            problems.append(f"{where} failed: {code.name}: {rpc.status_details(error)}")
            return None
        if not answer.legal:
            reason = _scalar_json(answer.DESCRIPTOR.fields_by_name["reason"], answer.reason)
            problems.append(
                f"{where} answered legal: false, move {answer.illegal_index} is illegal:"
                f" {reason} ({answer.message})"
            )
            return None
        state: bytes = answer.state
        if not state:
            problems.append(f"{where} answered legal: true without a state")
            return None
        return state

    def _given_commitment(self, case: Case, problems: list[str]) -> Message | None:
        """CommitSeed's answer for the case's `given_commitment`, or None after a problem line."""
        commit = find_method(COMMIT_SERVICE, COMMIT_METHOD)
        try:
            answer: Message = self._callable(commit)(
                case.given_commitment, timeout=self.timeout, metadata=self._metadata(case)
            )
        except grpc.RpcError as error:
            code = rpc.status_code(error)
            if code is grpc.StatusCode.UNAVAILABLE:
                raise UnreachableError(self.address) from None
            problems.append(
                f"given_commitment: {commit.service}/{commit.name} failed: {code.name}:"
                f" {rpc.status_details(error)}"
            )
            return None
        return answer

    def run_case(self, case: Case) -> CaseResult:
        call = self._callable(case.method)
        request = type(case.request)()
        request.CopyFrom(case.request)
        problems: list[str] = []
        committed: Message | None = None
        if case.given_commitment is not None:
            committed = self._given_commitment(case, problems)
            if committed is None:
                return CaseResult(case, problems)
            setattr(request, DEAL_ID_FIELD, getattr(committed, DEAL_ID_FIELD))
        if case.given_state is not None:
            state = self._given_state(case, problems)
            if state is None:
                return CaseResult(case, problems)
            # The replayed state replaces any state the request names; in a oneof
            # (RoundInput.round) setting it also clears the other member (`result`).
            target = request
            for name in case.state_path[:-1]:
                target = getattr(target, name)
            setattr(target, case.state_path[-1], state)
        try:
            response = call(request, timeout=self.timeout, metadata=self._metadata(case))
        except grpc.RpcError as error:
            if rpc.status_code(error) is grpc.StatusCode.UNAVAILABLE:
                raise UnreachableError(self.address) from None
            return CaseResult(case, self._error_problems(case, error))
        if "error" in case.expect:
            wanted = case.expect["error"]["code"]
            got = _show(json_format.MessageToDict(response))
            return CaseResult(case, [f"expected error {wanted}, got a response: {got}"])
        problems = match_response(case.expect["response"], response)
        if committed is not None:
            problems.extend(_committed_echoes(committed, response))
        return CaseResult(case, problems)

    def _error_problems(self, case: Case, error: grpc.RpcError) -> list[str]:
        if "error" in case.expect:
            return match_error(case.expect["error"], error)
        code = rpc.status_code(error).name
        problem = f"expected a response, got {code}: {rpc.status_details(error)}"
        found = rpc.violations(error)
        if found:
            problem += f" ({'; '.join(str(v) for v in found)})"
        return [problem]

    def run(self, cases: Iterable[Case]) -> list[CaseResult]:
        return [self.run_case(case) for case in cases]


def _committed_echoes(committed: Message, response: Message) -> list[str]:
    """A deal made (or revealed) under a commitment carries that commitment and deal id:
    each of COMMITTED_ECHOES the response type has must equal CommitSeed's answer. The
    vector cannot pin them itself: they are new at every CommitSeed."""
    out = []
    for name in COMMITTED_ECHOES:
        if name not in response.DESCRIPTOR.fields_by_name:
            continue
        want, got = getattr(committed, name), getattr(response, name)
        if want != got:
            out.append(f"{name}: expected CommitSeed's {_show(want)}, got {_show(got)}")
    return out
