"""The README's grpcurl session, replayed by scripts/reflection_session.py against a live server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from okey.v1 import hand_pb2, hand_pb2_grpc

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "reflection_session.py"
README = ROOT / "README.md"
README_ADDRESS = "127.0.0.1:50051"
SECTION = "## Calling it by hand (grpcurl)"
ELISION = "..."
# A bound for the script to finish, not a timing assertion.
RUN_DEADLINE_S = 60
# docs/rules.md §3-4: R1-R3, R9-R12 with the okey (R5, indicator R4) as R13, 1s, 7s.
FOUR_MELDS_WITH_WILD = {
    "handNotation": "R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5",
    "indicatorNotation": "R4",
}


def session_script(server: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--server", server, *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=RUN_DEADLINE_S,
        check=False,
    )


def readme_session() -> list[str]:
    """The lines of the first console block of the README's grpcurl section."""
    text = README.read_text(encoding="utf-8")
    assert SECTION in text, f"README.md lacks the section {SECTION!r}"
    section = text.split(SECTION, 1)[1]
    match = re.search(r"```console\n(.*?)```", section, re.DOTALL)
    assert match, "the grpcurl section has no ```console block"
    return match.group(1).rstrip("\n").split("\n")


def matches_with_elisions(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each "..." line standing for any run of lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ELISION:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return expected == actual
    first, *middle, last = parts
    if actual[: len(first)] != first or len(actual) < len(first) + len(last):
        return False
    if last and actual[-len(last) :] != last:
        return False
    position, end = len(first), len(actual) - len(last)
    for part in middle:
        found = next(
            (i for i in range(position, end - len(part) + 1) if actual[i : i + len(part)] == part),
            None,
        )
        if found is None:
            return False
        position = found + len(part)
    return True


def test_list_shows_the_okey_services_health_and_reflection(grpc_server):
    result = session_script(grpc_server, "list")
    assert result.returncode == 0, result.stderr
    services = result.stdout.split()
    assert services == sorted(services)
    expected = ["okey.v1.HandService", "grpc.health.v1.Health"]
    expected.append("grpc.reflection.v1alpha.ServerReflection")
    assert [name for name in expected if name not in services] == []


def test_list_of_a_service_names_its_methods(grpc_server):
    result = session_script(grpc_server, "list", "okey.v1.HandService")
    assert result.returncode == 0, result.stderr
    # In the order hand.proto declares them.
    assert result.stdout.split() == [
        "okey.v1.HandService.CheckHand", "okey.v1.HandService.BestOpening"
    ]


def test_check_hand_with_json_answers_as_the_generated_stubs_do(grpc_server):
    result = session_script(
        grpc_server, "call", "okey.v1.HandService/CheckHand", "-d", json.dumps(FOUR_MELDS_WITH_WILD)
    )
    assert result.returncode == 0, result.stderr
    by_reflection = json.loads(result.stdout)
    assert by_reflection["winning"] is True
    with grpc.insecure_channel(grpc_server, options=(("grpc.so_reuseport", 0),)) as channel:
        request = json_format.ParseDict(FOUR_MELDS_WITH_WILD, hand_pb2.CheckHandRequest())
        by_stub = hand_pb2_grpc.HandServiceStub(channel).CheckHand(request)
    assert by_reflection == json_format.MessageToDict(by_stub)


def test_a_malformed_hand_is_invalid_argument_naming_the_field(grpc_server):
    request = json.dumps({"handNotation": "R1 R14", "indicatorNotation": "R4"})
    result = session_script(grpc_server, "call", "okey.v1.HandService/CheckHand", "-d", request)
    assert result.returncode == 1
    assert "Code: INVALID_ARGUMENT" in result.stderr
    assert "Field violation: hand_notation" in result.stderr


def test_the_readme_session_is_what_the_server_answers(grpc_server):
    result = session_script(grpc_server, "session")
    assert result.returncode == 0, result.stderr
    actual = result.stdout.replace(grpc_server, README_ADDRESS).rstrip("\n").split("\n")
    expected = readme_session()
    assert matches_with_elisions(expected, actual), (
        "README.md's grpcurl session differs from the live answer; the session now reads:\n"
        + "\n".join(actual)
    )


@pytest.mark.parametrize(
    ("expected", "actual", "match"),
    [
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"], True),
        (["a", "...", "x", "...", "e"], ["a", "b", "c", "d", "e"], False),
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "b", "c"], False),
        (["a", "...", "a"], ["a"], False),
    ],
)
def test_elision_matching_of_the_readme_block(expected, actual, match):
    assert matches_with_elisions(expected, actual) is match
