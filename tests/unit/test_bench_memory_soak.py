"""The memory benchmark's worst-case requests, the soak's memory verdict, and the manifest's
memory figures as the docs state them (the benchmarks are not in the suite; these helpers are)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from okey.v1 import game_pb2

ROOT = Path(__file__).resolve().parents[2]
BENCH = str(ROOT / "bench")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, BENCH)
    try:
        import memory_bench
        import soak

        yield memory_bench, soak
    finally:
        sys.path.remove(BENCH)


def test_a_worst_case_request_is_a_legal_message_just_under_the_limit(bench) -> None:
    """A repeated message field filled with empty elements, nested in a singular one: here
    ApplyMoveRequest.move.melds (the state used to be the deepest such shape; it is a sealed
    token now, bytes held as they arrive)."""
    memory_bench, _ = bench
    move = game_pb2.ApplyMoveRequest.DESCRIPTOR.fields_by_name["move"]
    path = (move, move.message_type.fields_by_name["melds"])
    size = 64 * 1024
    wire = memory_bench._empty_elements(path, size)
    assert size - 100 < len(wire) <= size
    parsed = game_pb2.ApplyMoveRequest.FromString(wire)
    assert len(parsed.move.melds) == (len(wire) - 4) // 2  # 2 bytes an element, 4 of framing
    assert parsed.SerializeToString() == wire


def test_the_survey_reaches_repeated_fields_through_singular_ones(bench) -> None:
    memory_bench, _ = bench

    def found(request: object) -> set[str]:
        return {".".join(field.name for field in path)
                for path in memory_bench._repeated_paths(request.DESCRIPTOR)}  # type: ignore[attr-defined]

    # Two singular fields deep: a stacked deal inside a Replay request.
    assert {"moves", "deal.stacked.racks", "deal.stacked.wall"} <= found(game_pb2.ReplayRequest)
    # The state is an opaque token (bytes): nothing in it for a client to multiply.
    assert not any(path.startswith("state") for path in found(game_pb2.ApplyMoveRequest))


def test_the_soak_judges_memory_by_the_end_against_the_middle(bench) -> None:
    _, soak = bench
    flat = [(float(t), 80.0 + (t % 3) * 0.5) for t in range(100)]
    mid_mb, end_mb, growth = soak.flatness(flat)
    assert end_mb - mid_mb == growth
    assert abs(growth) <= 1.0
    assert 80 <= mid_mb <= 81
    rising = [(float(t), 80.0 + t * 0.3) for t in range(100)]
    assert soak.flatness(rising)[2] > soak.FLAT_MB  # +0.3 MB a sample: +12 MB, middle to end
    assert soak.flatness([(0.0, 1.0)] * 5) is None  # too few samples to judge


def test_the_docs_state_the_manifests_memory_request_and_limit(bench) -> None:
    """docs/deploy.md and docs/operations.md give the Deployment's memory figures as they are."""
    memory_bench, _ = bench
    figures = memory_bench.manifest_memory_mib()
    stated = f"memory request {figures['requests']} MiB, limit {figures['limits']} MiB"
    for doc in ("deploy.md", "operations.md"):
        text = re.sub(r"\s+", " ", (ROOT / "docs" / doc).read_text())
        assert stated in text, f"docs/{doc} should say: {stated}"
