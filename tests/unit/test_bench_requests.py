"""The RPC benchmark's requests are valid CheckHand requests (so `make bench` cannot rot).

The benchmark is not part of the suite; its request builder is, so a
contract change that breaks it fails here rather than at the next bench run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from okey.v1 import hand_pb2
from okey_server.services.check_hand_request import request_inputs

BENCH = str(Path(__file__).resolve().parents[2] / "bench")


@pytest.fixture(scope="module")
def rpc_bench():
    sys.path.insert(0, BENCH)
    try:
        import rpc_bench

        yield rpc_bench
    finally:
        sys.path.remove(BENCH)


@pytest.mark.parametrize("as_notation", [False, True], ids=["tiles", "notation"])
def test_bench_requests_read_as_the_hands_they_were_built_from(rpc_bench, as_notation):
    hands = rpc_bench.mixed_hands(40, seed=7)
    requests = rpc_bench.check_hand_requests(hands, as_notation)
    for (tiles, okey), request in zip(hands, requests, strict=True):
        parsed = hand_pb2.CheckHandRequest.FromString(request.SerializeToString())
        asked = request_inputs(parsed)
        assert [t.face for t in asked.tiles] == [t.face for t in tiles]
        assert asked.okey.face == okey.face
