"""The fuzz harness (tests/fuzz/fuzz_harness.py): a short run in `make test`, and proof it bites.

The short run fuzzes a real `okey-server` process with a fixed seed; any
INTERNAL or UNKNOWN answer, hang or crash fails it, over gRPC and then over the HTTP
listener (Connect JSON and binary, gRPC-Web; any HTTP 5xx fails it too). The other tests give the
harness servers with a deliberate fault and check it reports each one, so a
quiet run cannot come from a harness that sees nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses

import grpc
import pytest
from fuzz_harness import (
    VALID_BUILDERS,
    CoverageError,
    Fuzzer,
    Settings,
    all_targets,
    check_coverage,
    describe,
    okey_targets,
    server_process,
)
from http_fuzz import HttpAnswer, HttpCase, HttpFuzzer, http_targets, judge
from okey.v1 import hand_pb2
from okey_server.rpc import server as server_module
from okey_server.rpc.logging_setup import configure_logging
from okey_server.services.hand_servicer import HandServicer

SHORT_RUN_S = 8.0
HTTP_RUN_S = 3.0  # the HTTP listener's share, after the gRPC port's


def test_every_rpc_of_every_okey_service_is_fuzzed() -> None:
    services = {t.service for t in okey_targets()}
    assert services == {
        "okey.v1.HandService", "okey.v1.DealService", "okey.v1.GameService",
        "okey.v1.ScoringService", "okey.v1.AnalysisService",
    }
    check_coverage(all_targets(), VALID_BUILDERS)


def test_an_rpc_without_a_valid_request_builder_is_refused() -> None:
    known = okey_targets()[0]
    invented = dataclasses.replace(known, method="NoBuilderYet")
    with pytest.raises(CoverageError, match="NoBuilderYet"):
        check_coverage([*okey_targets(), invented], VALID_BUILDERS)


def test_short_fuzz_run_against_okey_server_gets_only_documented_answers() -> None:
    settings = Settings(seed=15, seconds=SHORT_RUN_S, concurrency=2, timeout=10.0,
                        progress_every=3600, warmup_seconds=3600)
    lines: list[str] = []
    with server_process() as served:
        fuzzer = Fuzzer(served.address, settings)
        try:
            report = fuzzer.run(served.process, log=lines.append)
            # The HTTP listener's share (Connect JSON and binary, gRPC-Web), same server.
            over_http = HttpFuzzer(served.http_address,
                                   dataclasses.replace(settings, seconds=HTTP_RUN_S),
                                   fuzzer.corpus)
            http_report, http_failures = over_http.run(served.process, log=lines.append)
        finally:
            fuzzer.close()
        alive = served.process.poll() is None
        # A refusal logged as a server fault is a bug even when the client got it right.
        server_errors = served.error_lines()
    assert not report.harness_errors
    assert not report.failures, "\n".join(lines)
    assert not http_report.harness_errors
    assert not http_failures, "\n".join(lines)
    assert alive
    assert not server_errors, server_errors[:3]
    # Not vacuous: every RPC was called, and both answers and refusals came back.
    assert set(report.by_target) == {t.path for t in fuzzer.targets}
    assert report.codes["OK"] > 0
    assert report.codes["INVALID_ARGUMENT"] > 0
    assert report.calls > 500
    assert set(http_report.by_target) == {t.path for t in over_http.targets}
    assert set(http_report.by_mode) == {"connect_json", "connect_proto", "grpc_web", "odd"}
    assert http_report.codes["200"] > 0
    assert http_report.codes["400 invalid_argument"] > 0
    assert http_report.calls > 500


class _RaisingCheckHand(HandServicer):
    async def CheckHand(self, request, context):  # noqa: N802
        if request.omit_arrangements:
            raise KeyError("a deliberate bug")
        return await super().CheckHand(request, context)


class _BareInvalidArgument(HandServicer):
    async def CheckHand(self, request, context):  # noqa: N802
        if request.omit_arrangements:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "no details")
        return await super().CheckHand(request, context)


class _HangingCheckHand(HandServicer):
    async def CheckHand(self, request, context):  # noqa: N802
        if request.omit_arrangements:
            await asyncio.sleep(30)
        return await super().CheckHand(request, context)


@pytest.mark.parametrize(
    ("servicer", "problem", "minimise"),
    [
        (_RaisingCheckHand, "server fault INTERNAL", True),
        (_BareInvalidArgument, "INVALID_ARGUMENT without a google.rpc.BadRequest", True),
        (_HangingCheckHand, "no answer within the deadline", False),
    ],
    ids=["exception-is-internal", "invalid-argument-without-field", "hang-past-deadline"],
)
def test_the_harness_reports_a_faulty_server(
    make_server, monkeypatch, servicer, problem, minimise
) -> None:
    configure_logging("warning")  # as the session's servers: no line per call
    monkeypatch.setattr(server_module, "HandServicer", servicer)
    _, port = make_server()
    settings = Settings(seed=3, seconds=60.0, max_cases=600, concurrency=1, timeout=1.0,
                        max_failures=1, minimise=minimise, progress_every=3600, live_moves=12)
    lines: list[str] = []
    fuzzer = Fuzzer(f"127.0.0.1:{port}", settings)
    try:
        report = fuzzer.run(log=lines.append)
        again = fuzzer.case(report.failures[0].case.index) if report.failures else None
    finally:
        fuzzer.close()
    assert not report.harness_errors
    assert len(report.failures) == 1, "\n".join(lines)
    failure = report.failures[0]
    assert failure.case.target.path == "/okey.v1.HandService/CheckHand"
    assert failure.problem.startswith(problem)
    # The report names the seed and case, and the case comes out the same again.
    assert f"--seed 3 --case {failure.case.index}" in lines[0]
    assert again == failure.case
    if minimise:
        # Every field but the one that trips the bug is gone.
        assert failure.minimal is not None
        minimal = hand_pb2.CheckHandRequest.FromString(failure.minimal)
        assert minimal == hand_pb2.CheckHandRequest(omit_arrangements=True)
        assert describe(failure.case.target, failure.minimal) == "omit_arrangements: true"


def test_the_http_verdict_refuses_server_faults_5xx_and_bare_refusals() -> None:
    """The HTTP share's judge, on answers a faulty listener would give (no server needed)."""
    target = next(t for t in http_targets() if t.path == "/okey.v1.HandService/CheckHand")
    case = HttpCase(0, target, "connect_json", "POST", target.path,
                    (("Content-Type", "application/json"),), b"{}", "random")
    json_type = {"content-type": "application/json"}
    assert judge(case, HttpAnswer(200, json_type, b'{"winning": false}')) is None
    internal = HttpAnswer(500, json_type, b'{"code": "internal", "message": "boom"}')
    assert (judge(case, internal) or "").startswith("HTTP 500")
    bare = HttpAnswer(400, json_type, b'{"code": "invalid_argument", "message": "no details"}')
    assert judge(case, bare) == "invalid_argument without a google.rpc.BadRequest field violation"
    grpc_web = HttpAnswer(200, {"content-type": "application/grpc-web+proto",
                                "grpc-status": "13"}, b"")
    assert judge(case, grpc_web) == "server fault internal"
    assert judge(case, HttpAnswer(415, {}, b"")) is not None  # not an odd content type
