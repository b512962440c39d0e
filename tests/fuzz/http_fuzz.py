"""The fuzz harness's HTTP share: mutated Connect JSON, Connect binary and gRPC-Web calls to
every method the HTTP listener serves (okey-server --http-port).

Each case takes a request of the method as fuzz_harness makes them (random bytes, a random
message, a mutated valid request: `request_body`) and sends it in one protocol:

- ``connect_json``: the message as proto3 JSON, often spoiled: a value of the wrong type,
  numbers past every integer type (``1e400``, ``2**70``), deep nesting, an unknown field,
  ``null``, a body that is not an object, truncated JSON, bytes that are not UTF-8, invalid
  base64 in a ``bytes`` field, an enum name the schema lacks; or the raw bytes as they are;
- ``connect_proto``: the bytes as the body;
- ``grpc_web``: the bytes in one frame, now and then with a length that lies, other flags,
  no frame, two frames or trailing bytes;

and now and then with odd headers (a bad ``Connect-Timeout-Ms`` or ``Grpc-Timeout``, a
protocol version, gzip bodies good and bad, an encoding the server lacks), or as an odd
request altogether: a content type the listener does not serve, a method other than POST,
a path that is no method.

Every answer must be one the listener documents (docs/http.md, docs/fuzzing.md): a 200 that
decodes as the response type (gRPC-Web: one message, then status 0), or a refusal whose code
fits what was sent: ``invalid_argument`` (with a BadRequest field violation when the body
was well-formed at the protocol level, so the server's own checks answered),
``resource_exhausted`` only for a body over the receive limit, ``not_found`` only from the
health check, ``unimplemented`` only for a gRPC-Web body without exactly one message, a path
that is no method or an encoding the server lacks, 404/405/415 only for an odd path, method
or content type. ``internal``, ``unknown``, ``data_loss``, any other HTTP 5xx (no drain
happens during a run), no answer within the deadline or a dropped connection is a failure.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import http.client
import itertools
import json
import random
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fuzz_harness import (
    MAX_RECEIVE_BYTES,
    Corpus,
    Report,
    Settings,
    Target,
    all_targets,
    message_class,
    request_body,
    rss_kb,
)
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

# What the listener serves: every okey.v1 method (all unary) and the health Check.
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
PROTOCOLS = ("connect_json", "connect_proto", "grpc_web", "odd")
PROTOCOL_WEIGHTS = (5, 2, 3, 1)
CONTENT_TYPES = {
    "connect_json": "application/json",
    "connect_proto": "application/proto",
    "grpc_web": "application/grpc-web+proto",
}
# Content types the listener does not serve: 415 (one is gRPC over HTTP/1.1, which needs
# HTTP/2's trailers).
ODD_CONTENT_TYPES = ("text/plain", "application/xml", "application/grpc-web-text",
                     "application/connect+json", "application/x-www-form-urlencoded",
                     "multipart/form-data", "application/grpc", "")
ODD_METHODS = ("GET", "PUT", "DELETE", "PATCH")
GRPC_WEB_STATUS_NAMES = {0: "ok", 1: "canceled", 2: "unknown", 3: "invalid_argument",
                         4: "deadline_exceeded", 5: "not_found", 6: "already_exists",
                         7: "permission_denied", 8: "resource_exhausted",
                         9: "failed_precondition", 10: "aborted", 11: "out_of_range",
                         12: "unimplemented", 13: "internal", 14: "unavailable",
                         15: "data_loss", 16: "unauthenticated"}
SERVER_FAULTS = frozenset({"internal", "unknown", "data_loss"})
# Deeper than any JSON parser's default recursion allows.
DEEP = 5000


def http_targets() -> list[Target]:
    return [t for t in all_targets()
            if t.okey or t.path == HEALTH_CHECK]


@dataclass(frozen=True, slots=True)
class HttpCase:
    index: int
    target: Target
    protocol: str
    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    mode: str
    mutations: tuple[str, ...] = ()
    # The protocol layer is sound (framing, headers): the server's own checks answer, so
    # an invalid_argument must name a field.
    well_formed: bool = True
    # Answers only this case may get: "404", "405", "415", "unimplemented".
    allowed: frozenset[str] = frozenset()

    def describe(self) -> str:
        headers = ", ".join(f"{k}: {v}" for k, v in self.headers)
        return (f"{self.method} {self.path} [{headers}] ({self.protocol}, {self.mode}"
                + (f", {', '.join(self.mutations)}" if self.mutations else "") + ")")


@dataclass
class HttpAnswer:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass
class HttpFailure:
    seed: int
    case: HttpCase
    problem: str

    def report(self) -> str:
        return "\n".join([
            f"FAILURE (HTTP) {self.case.target.path}: {self.problem}",
            f"  seed {self.seed}, case {self.case.index}: {self.case.describe()}",
            f"  again: python tests/fuzz/fuzz_harness.py --http --seed {self.seed} --case "
            f"{self.case.index}",
            f"  body ({len(self.case.body)} bytes, base64): "
            + base64.b64encode(self.case.body[:4000]).decode()
            + (" ..." if len(self.case.body) > 4000 else ""),
        ])


# --- encoding a request for HTTP -------------------------------------------------------


def _json_document(target: Target, body: bytes, rng: random.Random) -> Any:
    """The request as a JSON document, when the bytes decode as the message; else None."""
    try:
        message = message_class(target.request).FromString(body)
    except (DecodeError, RecursionError):
        return None
    try:
        return json_format.MessageToDict(message,
                                         preserving_proto_field_name=rng.random() < 0.3)
    except (json_format.Error, ValueError, RecursionError):
        return None  # a value JSON cannot hold (a timestamp out of range): sent as bytes


def _paths(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key or index path in a JSON document."""
    found: list[tuple[Any, ...]] = []
    if isinstance(document, dict):
        for key, value in document.items():
            found.append((*prefix, key))
            found.extend(_paths(value, (*prefix, key)))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found.append((*prefix, index))
            found.extend(_paths(value, (*prefix, index)))
    return found


def _odd_value(rng: random.Random) -> Any:
    return rng.choice([
        None, True, 1e400, -1e400, 2**70, -(2**64), 1.5, -1, 0.0, "1e3", "NaN", "Infinity",
        "-0", "0x10", "", "\u0000", "not base64 !", "ENUM_NAME_NOBODY_HAS", [], {}, [1, "a"],
        {"nested": {"deeper": [None]}}, "x" * 3000, "\U0001f600" * 50, "\ud800", "a\udfffb",
    ])


def _spoil_json(document: Any, rng: random.Random) -> tuple[Any, str]:
    """One mutation of a JSON document (a copy) and its name."""
    document = json.loads(json.dumps(document))
    paths = _paths(document)
    roll = rng.random()
    if roll < 0.35 and paths:
        path = rng.choice(paths)
        holder = document
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = _odd_value(rng)
        return document, "json_wrong_value"
    if roll < 0.5:
        if not isinstance(document, dict):
            document = {}
        document[rng.choice(["handNotaton", "unknownField", "@type", "", "state_"])] = (
            _odd_value(rng))
        return document, "json_unknown_field"
    if roll < 0.6:
        # Written as text: Python's own encoder would hit its recursion limit.
        depth = rng.choice([50, 500, DEEP])
        opening = "".join(rng.choice(['[', '{"a":']) for _ in range(depth))
        closing = "".join("]" if c == "[" else "}" for c in reversed(opening) if c in "[{")
        nested = RawJson(opening + rng.choice(["1", "[]", "{}", '"x"']) + closing)
        if isinstance(document, dict) and paths and rng.random() < 0.7:
            document[str(rng.choice(paths)[0])] = DEEP_MARK
            return RawJson(json.dumps(document).replace(json.dumps(DEEP_MARK), nested, 1)), (
                "json_deep_field")
        return nested, "json_deep"
    if roll < 0.75:
        return rng.choice([[document], 7, "text", None, True, [], 1e400]), "json_not_object"
    if roll < 0.85 and paths:
        path = rng.choice(paths)
        holder = document
        for step in path[:-1]:
            holder = holder[step]
        value = holder[path[-1]]
        holder[path[-1]] = rng.choice([[value] * rng.choice([2, 100]), {"v": value},
                                       str(value), None])
        return document, "json_wrapped_value"
    return document, "json_as_is"


class RawJson(str):
    """JSON text made by hand (deep nesting), sent as it is."""


DEEP_MARK = "\x00deep nesting goes here\x00"


def _json_bytes(document: Any, rng: random.Random) -> bytes:
    text = (document if isinstance(document, RawJson)
            else json.dumps(document, ensure_ascii=rng.random() < 0.5))  # inf -> Infinity
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes UTF-8 refuses
    roll = rng.random()
    if roll < 0.05 and data:
        return data[: rng.randrange(len(data))]
    if roll < 0.08:
        return b"\xef\xbb\xbf" + data  # a byte-order mark
    if roll < 0.1:
        return data + b"\xff\xfe"
    if roll < 0.12:
        return data[:-1] + b',"dup":1,"dup":2}' if data.endswith(b"}") else data
    return data


def _grpc_web_frame(body: bytes, rng: random.Random) -> tuple[bytes, str | None, set[str]]:
    """The body in gRPC-Web framing, sometimes broken: (bytes, broken how, answers allowed)."""
    framed = struct.pack(">BI", 0, len(body)) + body
    roll = rng.random()
    if roll > 0.25:
        return framed, None, set()
    choice = rng.choice(["length_longer", "length_shorter", "flags", "empty", "two_frames",
                         "trailing", "short_header"])
    if choice == "length_longer":
        # A frame that claims more than the receive limit may be refused for that alone.
        return struct.pack(">BI", 0, len(body) + rng.choice([1, 100, 2**31])) + body, choice, {
            "resource_exhausted"}
    if choice == "length_shorter":
        # The bytes left over read as a second frame, whose length may be over the limit.
        return (struct.pack(">BI", 0, max(0, len(body) - rng.choice([1, 5]))) + body, choice,
                {"unimplemented", "resource_exhausted"})
    if choice == "flags":
        flags = rng.choice([0x01, 0x02, 0x80, 0x81, 0xFF])
        return struct.pack(">BI", flags, len(body)) + body, choice, set()
    if choice == "empty":
        return b"", choice, {"unimplemented"}
    if choice == "two_frames":
        return framed + framed, choice, {"unimplemented"}
    if choice == "trailing":
        return framed + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8))), choice, {
            "unimplemented", "resource_exhausted"}
    return framed[: rng.randint(1, 4)], choice, set()


OddHeaders = tuple[list[tuple[str, str]], bytes, str, bool, set[str]]


def _odd_headers(protocol: str, body: bytes, rng: random.Random) -> OddHeaders:
    """A header mutation: (headers, the body, its name, well-formed still, answers allowed)."""
    if protocol == "grpc_web":
        choice = rng.choice(["grpc_timeout_bad", "grpc_timeout_ok", "grpc_encoding_unknown"])
        if choice == "grpc_timeout_bad":
            value = rng.choice(["xx", "1x", "-1S", "999999999999S", ""])
            return [("Grpc-Timeout", value)], body, choice, False, set()
        if choice == "grpc_timeout_ok":
            return [("Grpc-Timeout", "20S")], body, choice, True, set()
        value = rng.choice(["br", "snappy", "x"])
        return [("Grpc-Encoding", value)], body, choice, False, {"unimplemented"}
    choice = rng.choice(["timeout_bad", "timeout_ok", "protocol_version", "gzip", "gzip_bad",
                         "encoding_unknown"])
    if choice == "timeout_bad":
        value = rng.choice(["abc", "-1", "1.5", "99999999999", "", " 5"])
        return [("Connect-Timeout-Ms", value)], body, choice, False, set()
    if choice == "timeout_ok":
        return [("Connect-Timeout-Ms", "20000")], body, choice, True, set()
    if choice == "protocol_version":
        value = rng.choice(["2", "0", "x"])
        return [("Connect-Protocol-Version", value)], body, choice, False, set()
    if choice == "gzip":
        # Small when compressed, maybe over the receive limit once read.
        over = {"resource_exhausted"} if len(body) > MAX_RECEIVE_BYTES else set()
        return [("Content-Encoding", "gzip")], gzip.compress(body), choice, True, over
    if choice == "gzip_bad":
        return [("Content-Encoding", "gzip")], body, choice, False, set()
    # Connect: an encoding the server lacks is `unimplemented` (HTTP 501) by the protocol.
    value = rng.choice(["br", "zstd", "x-unknown"])
    return [("Content-Encoding", value)], body, choice, False, {"unimplemented", "501"}


def make_case(index: int, seed: int, targets: list[Target], corpus: Corpus) -> HttpCase:
    rng = random.Random(f"{seed}:http:{index}")
    target = targets[index % len(targets)]
    protocol = rng.choices(PROTOCOLS, PROTOCOL_WEIGHTS)[0]
    mode, raw, mutations = request_body(rng, target, corpus)
    names = list(mutations)
    allowed: set[str] = set()
    well_formed = True
    headers: list[tuple[str, str]] = []
    method, path = "POST", target.path
    if protocol == "odd":
        odd = rng.choice(["content_type", "method", "path"])
        names.append(f"odd_{odd}")
        content_type = CONTENT_TYPES[rng.choice(list(CONTENT_TYPES))]
        body = raw
        if odd == "content_type":
            content_type = rng.choice(ODD_CONTENT_TYPES)
            allowed |= {"415"}
        elif odd == "method":
            method = rng.choice(ODD_METHODS)
            allowed |= {"405"}
        else:
            service = path.rpartition("/")[0]
            path = rng.choice([f"{service}/NoSuchMethod", "/okey.v1.NoService/CheckHand",
                               f"{path}/", path.lower(), f"{service}/", "/okey.v1.HandService"])
            allowed |= {"404", "unimplemented"}
        if content_type:
            headers.append(("Content-Type", content_type))
        return HttpCase(index, target, "odd", method, path, tuple(headers), body, mode,
                        tuple(names), False, frozenset(allowed))
    content_type = CONTENT_TYPES[protocol]
    if protocol == "connect_json":
        document = _json_document(target, raw, rng)
        if document is None or rng.random() < 0.1:
            body = raw  # not JSON at all (or bytes that happen to be)
            names.append("json_raw_bytes")
        else:
            if rng.random() < 0.6:
                document, spoiled = _spoil_json(document, rng)
                names.append(spoiled)
            body = _json_bytes(document, rng)
        if rng.random() < 0.1:
            content_type = "application/json; charset=utf-8"
    elif protocol == "grpc_web":
        body, broken, framing_allowed = _grpc_web_frame(raw, rng)
        if broken is not None:
            names.append(f"frame_{broken}")
            well_formed = False
            allowed |= framing_allowed
    else:
        body = raw
    headers.append(("Content-Type", content_type))
    if rng.random() < 0.1:
        extra, body, name, sound, header_allowed = _odd_headers(protocol, body, rng)
        headers.extend(extra)
        names.append(name)
        well_formed = well_formed and sound
        allowed |= header_allowed
    return HttpCase(index, target, protocol, method, path, tuple(headers), body, mode,
                    tuple(names), well_formed, frozenset(allowed))


# --- the verdict ---------------------------------------------------------------------------


def _b64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def _bad_request_fields(details: list[tuple[str, bytes]]) -> tuple[str, ...]:
    fields: list[str] = []
    for type_name, value in details:
        if type_name.rpartition("/")[2] == "google.rpc.BadRequest":
            bad = error_details_pb2.BadRequest.FromString(value)
            fields.extend(v.field for v in bad.field_violations)
    return tuple(fields)


def _grpc_web_outcome(answer: HttpAnswer) -> tuple[str, tuple[str, ...], list[bytes]] | str:
    """(code, BadRequest fields, messages) of a gRPC-Web answer, or what is wrong with it."""
    messages: list[bytes] = []
    trailers: dict[str, str] = {}
    body, at = answer.body, 0
    while at < len(body):
        if at + 5 > len(body):
            return "a gRPC-Web answer with a cut frame header"
        flags, size = body[at], struct.unpack(">I", body[at + 1:at + 5])[0]
        payload = body[at + 5:at + 5 + size]
        at += 5 + size
        if flags & 0x80:
            for line in payload.decode("latin-1").split("\r\n"):
                if line:
                    name, _, value = line.partition(":")
                    trailers[name.strip().lower()] = value.strip()
        else:
            messages.append(payload)
    if not trailers:
        trailers = {k: v for k, v in answer.headers.items() if k.startswith("grpc-")}
    if "grpc-status" not in trailers:
        return "a gRPC-Web answer without grpc-status"
    code = GRPC_WEB_STATUS_NAMES.get(int(trailers["grpc-status"]), "?")
    fields: tuple[str, ...] = ()
    if "grpc-status-details-bin" in trailers:
        status = status_pb2.Status.FromString(_b64(trailers["grpc-status-details-bin"]))
        fields = _bad_request_fields([(d.type_url, d.value) for d in status.details])
    return code, fields, messages


def _connect_outcome(answer: HttpAnswer) -> tuple[str, tuple[str, ...]] | str:
    """(code, BadRequest fields) of a Connect error answer, or what is wrong with it."""
    if not answer.headers.get("content-type", "").startswith("application/json"):
        return f"HTTP {answer.status}"  # a bare status: 404, 405, 415
    try:
        error = json.loads(answer.body)
        details = [(d["type"], _b64(d["value"])) for d in error.get("details", ())]
        return str(error["code"]), _bad_request_fields(details)
    except (ValueError, KeyError, TypeError) as exc:
        return f"HTTP {answer.status} with an error body that does not parse: {exc}"


def _decodes(case: HttpCase, data: bytes, as_json: bool) -> str | None:
    response = message_class(case.target.response)
    try:
        if as_json:
            json_format.ParseDict(json.loads(data), response(), ignore_unknown_fields=False)
        else:
            response.FromString(data)
    except (ValueError, DecodeError, json_format.ParseError) as exc:
        return f"the OK answer does not decode as {case.target.response.full_name}: {exc}"
    return None


def judge(case: HttpCase, answer: HttpAnswer) -> str | None:
    """Why `answer` is not one the listener documents for `case`, or None."""
    status = answer.status
    if status >= 500 and not (status == 501 and "501" in case.allowed):
        return f"HTTP {status}: {answer.body[:300]!r}"
    grpc_web = answer.headers.get("content-type", "").startswith("application/grpc") or (
        "grpc-status" in answer.headers)
    plain = not grpc_web and not answer.headers.get("content-type", "").startswith(
        "application/json")
    if status in (404, 405, 415) and plain:
        return None if str(status) in case.allowed else f"HTTP {status} for {case.describe()}"
    if grpc_web:
        if status != 200:
            return f"a gRPC-Web answer with HTTP {status}"
        outcome = _grpc_web_outcome(answer)
        if isinstance(outcome, str):
            return outcome
        code, fields, messages = outcome
        if code == "ok":
            if len(messages) != 1:
                return f"status 0 with {len(messages)} messages"
            json_framing = answer.headers.get("content-type", "").endswith("+json")
            return _decodes(case, messages[0], json_framing)
    elif status == 200:
        return _decodes(case, answer.body,
                        answer.headers.get("content-type", "").startswith("application/json"))
    else:
        connect = _connect_outcome(answer)
        if isinstance(connect, str):
            return connect
        code, fields = connect
    return _judge_code(case, code, fields)


def _judge_code(case: HttpCase, code: str, fields: tuple[str, ...]) -> str | None:
    if code in SERVER_FAULTS:
        return f"server fault {code}"
    if code == "invalid_argument":
        if case.well_formed and (not fields or not all(fields)):
            return "invalid_argument without a google.rpc.BadRequest field violation"
        return None
    if code == "resource_exhausted":
        if len(case.body) > MAX_RECEIVE_BYTES or "resource_exhausted" in case.allowed:
            return None
        return f"resource_exhausted for a {len(case.body)}-byte body"
    if code == "not_found":
        return None if case.target.path == HEALTH_CHECK and case.path == HEALTH_CHECK else (
            "not_found")
    if code == "unimplemented":
        return None if "unimplemented" in case.allowed else "unimplemented"
    return f"unexpected {code}"


# --- the run -------------------------------------------------------------------------------


def send(connection: http.client.HTTPConnection, case: HttpCase) -> HttpAnswer:
    connection.request(case.method, case.path, body=case.body, headers=dict(case.headers))
    response = connection.getresponse()
    body = response.read()
    return HttpAnswer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)


@dataclass
class HttpFuzzer:
    """Cases for the HTTP listener at `address` from the gRPC fuzzer's corpus."""

    address: str
    settings: Settings
    corpus: Corpus
    targets: list[Target] = field(default_factory=http_targets)

    def case(self, index: int) -> HttpCase:
        return make_case(index, self.settings.seed, self.targets, self.corpus)

    def _connect(self) -> http.client.HTTPConnection:
        host, _, port = self.address.rpartition(":")
        return http.client.HTTPConnection(host, int(port), timeout=self.settings.timeout)

    def call(self, connection: http.client.HTTPConnection, case: HttpCase) -> tuple[
            str | None, str]:
        """(the problem or None, the outcome's label for the histogram)."""
        try:
            try:
                answer = send(connection, case)
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # A kept-alive connection the server had closed (after a body over the
                # limit, or idle): HTTP clients send again on a new one, and so does this.
                connection.close()
                answer = send(connection, case)
        except TimeoutError:
            return "no answer within the deadline (a hang)", "hang"
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            # The listener may stop reading a body over its limit and close: its answer
            # may then be lost with the unsent rest. Anything else is a crash or a bug.
            if len(case.body) > MAX_RECEIVE_BYTES:
                return None, "closed (body over the limit)"
            return f"connection dropped: {type(exc).__name__}: {exc}", "dropped"
        problem = judge(case, answer)
        label = str(answer.status)
        if answer.headers.get("grpc-status") is not None:
            label += f" grpc-status {answer.headers['grpc-status']}"
        elif answer.body[:1] == b"{" and answer.status != 200:
            with contextlib.suppress(ValueError):
                label += " " + str(json.loads(answer.body).get("code"))
        if answer.headers.get("connection", "").lower() == "close":
            connection.close()
        return problem, label

    def run(self, server: Any = None, log: Callable[[str], None] = print) -> tuple[
            Report, list[HttpFailure]]:
        settings = self.settings
        report = Report(targets=[t.path for t in self.targets])
        failures: list[HttpFailure] = []
        lock = threading.Lock()
        stop = threading.Event()
        indices = itertools.count() if settings.only_case is None else iter([settings.only_case])
        started = time.perf_counter()
        deadline = started + settings.seconds
        if server is not None and (boot := rss_kb(server.pid)) is not None:
            report.rss_kb["start"] = boot

        def work() -> None:
            connection = self._connect()
            try:
                while not stop.is_set() and time.perf_counter() < deadline:
                    with lock:
                        index = next(indices, None)
                    if index is None or (settings.max_cases is not None
                                         and index >= settings.max_cases):
                        return
                    case = self.case(index)
                    problem, label = self.call(connection, case)
                    if problem is not None or label in ("closed (body over the limit)",):
                        connection.close()
                        connection = self._connect()
                    if problem is not None and server is not None and server.poll() is not None:
                        problem = f"the server exited ({server.returncode}): {problem}"
                    with lock:
                        report.calls += 1
                        report.codes[label] += 1
                        report.by_target[case.target.path] += 1
                        report.by_mode[case.protocol] += 1
                        if problem is not None:
                            failure = HttpFailure(settings.seed, case, problem)
                            failures.append(failure)
                            log(failure.report())
                            if len(failures) >= settings.max_failures or "exited" in problem:
                                stop.set()
            except Exception as exc:  # a harness bug must not pass for a quiet run
                with lock:
                    report.harness_errors.append(f"{type(exc).__name__}: {exc}")
                log(f"HARNESS ERROR: {type(exc).__name__}: {exc}")
                stop.set()
                raise
            finally:
                connection.close()

        threads = [threading.Thread(target=work, name=f"fuzz-http-{n}", daemon=True)
                   for n in range(settings.concurrency)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        report.elapsed = time.perf_counter() - started
        if server is not None and (end := rss_kb(server.pid)) is not None:
            report.rss_kb["end"] = end
        return report, failures
