"""The opening benchmark's racks and requests hold to the BestOpening contract (so `make bench`
cannot rot or quietly measure something else: refused racks, classic rules, other racks).

The benchmark is not part of the suite; its corpora and request builder are. No timing here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from okey.v1 import hand_pb2
from okey_rules import preset
from okey_rules.search.opening import check_rack
from okey_server.wire.convert_opening import opening_inputs

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
OKEY_101 = preset("101")


@pytest.fixture(scope="module")
def opening_bench():
    sys.path.insert(0, BENCH)
    try:
        import opening_bench

        yield opening_bench
    finally:
        sys.path.remove(BENCH)


@pytest.fixture(scope="module")
def corpora(opening_bench):
    return {
        "dealt": opening_bench.dealt_racks(40, seed=7),
        "built": opening_bench.built_racks(40, seed=7),
    }


@pytest.mark.parametrize("corpus", ["dealt", "built"])
def test_bench_racks_are_21_or_22_tiles_a_101_table_can_deal(corpora, corpus):
    racks = corpora[corpus]
    assert len(racks) == 40
    for tiles, okey in racks:
        assert len(tiles) in (21, 22)
        check_rack(tiles, okey, OKEY_101)  # raises for a rack no table can deal


def test_dealt_racks_are_the_seats_of_seeded_101_deals_and_repeat(opening_bench, corpora):
    racks = corpora["dealt"]
    # Seat i % 4 of deal i; the dealer (seat 0) holds 22.
    assert [len(tiles) for tiles, _ in racks[:4]] == [22, 21, 21, 21]
    again = opening_bench.dealt_racks(40, seed=7)
    assert [[t.code for t in tiles] for tiles, _ in again] == [
        [t.code for t in tiles] for tiles, _ in racks
    ]
    other = opening_bench.dealt_racks(40, seed=8)
    assert [t.code for t in other[0][0]] != [t.code for t in racks[0][0]]


@pytest.mark.parametrize("corpus", ["dealt", "built"])
@pytest.mark.parametrize("as_notation", [False, True], ids=["tiles", "notation"])
def test_bench_requests_read_as_the_racks_they_were_built_from(
    opening_bench, corpora, corpus, as_notation
):
    racks = corpora[corpus]
    requests = opening_bench.opening_requests(racks, as_notation)
    for (tiles, okey), request in zip(racks, requests, strict=True):
        sent = hand_pb2.BestOpeningRequest.FromString(request.SerializeToString())
        asked = opening_inputs(sent)
        assert [t.face for t in asked.tiles] == [t.face for t in tiles]
        assert asked.okey.face == okey.face
        assert asked.rules == OKEY_101


def test_the_bench_measures_best_opening_against_the_health_check(opening_bench):
    assert opening_bench.BEST_OPENING == "/okey.v1.HandService/BestOpening"
    service = hand_pb2.DESCRIPTOR.services_by_name["HandService"]
    assert "BestOpening" in service.methods_by_name
    assert opening_bench.RACKS == 1_000
