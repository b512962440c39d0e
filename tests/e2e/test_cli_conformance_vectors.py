"""Every conformance vector in tests/conformance against this project's own server (issue 4):
HandService, DealService, GameService and ScoringService, GameService and ScoreRound cases
reaching their state through `given_state` (docs/conformance.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from okey_cli import conformance

pytestmark = pytest.mark.e2e

VECTOR_DIR = Path(__file__).resolve().parents[1] / "conformance"
DEADLINE_S = 30.0  # per call; a bound, not a timing assertion


def _collect() -> list[object]:
    """One pytest param per case, so a failure names its case; a broken file fails loudly."""
    try:
        cases = conformance.load_dir(VECTOR_DIR)
    except conformance.VectorError as error:
        return [pytest.param(error, id="vector-files-follow-the-format")]
    if not cases:
        missing = conformance.VectorError(f"{VECTOR_DIR}: no conformance case found")
        return [pytest.param(missing, id="vector-files-exist")]
    return [pytest.param(case, id=f"{case.suite}/{case.name}") for case in cases]


@pytest.fixture(scope="module")
def runner(grpc_server: str) -> Iterator[conformance.Runner]:
    with grpc.insecure_channel(grpc_server, options=(("grpc.so_reuseport", 0),)) as channel:
        yield conformance.Runner(channel, grpc_server, DEADLINE_S)


@pytest.mark.parametrize("case", _collect())
def test_conformance_vector(runner: conformance.Runner, case: object):
    if isinstance(case, conformance.VectorError):
        pytest.fail(str(case))
    assert isinstance(case, conformance.Case)
    result = runner.run_case(case)
    assert result.passed, f"{case.reason}\n" + "\n".join(result.problems)


def test_the_vectors_cover_every_gameservice_method_through_given_state():
    """The run above would pass silently if the GameService files went missing."""
    cases = conformance.load_dir(VECTOR_DIR)
    for method in ("ApplyMove", "LegalMoves", "PlayerView", "Replay"):
        game = [c for c in cases if c.method.path == f"/okey.v1.GameService/{method}"]
        assert game, f"no GameService/{method} vectors in {VECTOR_DIR}"
        assert any(c.given_state is not None for c in game), method


def test_the_vectors_cover_scoringservice_scoring_finished_states_through_given_state():
    """ScoreRound and ScoreGame vectors are there; ScoreRound scores finished states too."""
    cases = conformance.load_dir(VECTOR_DIR)
    for method in ("ScoreRound", "ScoreGame"):
        scoring = [c for c in cases if c.method.path == f"/okey.v1.ScoringService/{method}"]
        assert scoring, f"no ScoringService/{method} vectors in {VECTOR_DIR}"
    from_states = [
        c
        for c in cases
        if c.method.path == "/okey.v1.ScoringService/ScoreRound" and c.given_state is not None
    ]
    assert from_states
    assert {c.state_path for c in from_states} == {("round", "state")}
