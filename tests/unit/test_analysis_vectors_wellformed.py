"""tests/conformance/analysis_analyze_hand.json (docs/conformance.md): AnalyzeHand's vectors
are what scripts/derive_vectors.py writes from their case table, parse as the contract's
messages, and each answer holds together (the best discard is the lowest distance)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from google.protobuf import json_format
from okey.v1 import analysis_pb2
from vector_support import CONFORMANCE, KEBAB, assert_derived, assert_header, load_json

PATH = CONFORMANCE / "analysis_analyze_hand.json"
DATA = load_json(PATH)
CASES: list[dict[str, Any]] = DATA["cases"]
IDS = [case["name"] for case in CASES]


def test_file_is_exactly_what_the_deriver_writes_from_its_case_table() -> None:
    assert_derived("analysis", [PATH])


def test_file_header_names_analyzehand() -> None:
    assert_header(DATA, "okey.v1.AnalysisService", "docs/analysis.md")
    assert DATA["method"] == "AnalyzeHand"


def test_vectors_stand_alone_citing_public_documents_only() -> None:
    text = PATH.read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? ?0\d\d|seed-0\d\d|\.\./shared", text)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_parses_and_names_its_rule(case: dict[str, Any]) -> None:
    assert set(case) == {"name", "reason", "request", "expect"}
    assert KEBAB.fullmatch(case["name"])
    assert case["reason"].startswith(("docs/analysis.md", "docs/rules.md"))
    json_format.ParseDict(case["request"], analysis_pb2.AnalyzeHandRequest())
    if "response" in case["expect"]:
        json_format.ParseDict(case["expect"]["response"], analysis_pb2.AnalyzeHandResponse())


@pytest.mark.parametrize("case", [c for c in CASES if c["expect"].get("response", {}).get(
    "discards")], ids=lambda c: c["name"])
def test_the_best_discard_leaves_the_lowest_distance(case: dict[str, Any]) -> None:
    answer = case["expect"]["response"]
    discards = answer["discards"]
    best = discards[answer["bestDiscard"]]
    assert best["distance"]["best"] == min(d["distance"]["best"] for d in discards)
    for discard in discards:
        assert discard["usefulUnseen"] == sum(u["unseen"] for u in discard["usefulDraws"])
