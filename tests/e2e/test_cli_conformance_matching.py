"""The conformance runner's matching rules and vector checks (docs/conformance.md), in-process."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from okey.v1 import hand_pb2, tile_pb2
from okey_cli import conformance

RED, YELLOW = tile_pb2.COLOR_RED, tile_pb2.COLOR_YELLOW
ROOT = Path(__file__).resolve().parents[2]


def discard(color: int, number: int, okey: bool = False) -> hand_pb2.WinningDiscard:
    return hand_pb2.WinningDiscard(
        tile=tile_pb2.Tile(color=color, number=number), okey=okey, kind=hand_pb2.WIN_KIND_MELDS
    )


def fifteen_tile_answer() -> hand_pb2.CheckHandResponse:
    return hand_pb2.CheckHandResponse(
        winning=True,
        okey=tile_pb2.Tile(color=RED, number=5),
        winning_discards=[discard(YELLOW, 9), discard(RED, 5, okey=True)],
        okey_discard_wins=True,
        summary="winning",
    )


@pytest.mark.parametrize(
    "expected",
    [
        pytest.param({}, id="empty-subset"),
        pytest.param({"winning": True, "okeyDiscardWins": True}, id="some-fields"),
        pytest.param({"okey": {"number": 5}}, id="nested-subset"),
        pytest.param(
            {"winningDiscards": [{"tile": {"number": 9}}, {"okey": True}]}, id="list-elementwise"
        ),
        pytest.param({"winning_discards": [{}, {}], "okey_discard_wins": True}, id="proto-names"),
        pytest.param({"kind": "WIN_KIND_UNSPECIFIED", "arrangement": None}, id="absent-is-default"),
        pytest.param(
            {"kinds": [], "indicator": {"color": "COLOR_UNSPECIFIED"}}, id="empty-defaults"
        ),
        pytest.param({"okey": {"color": 1}}, id="enum-by-number"),
    ],
)
def test_expected_subset_matches(expected: dict[str, Any]):
    assert conformance.match_response(expected, fifteen_tile_answer()) == []


@pytest.mark.parametrize(
    ("expected", "problem"),
    [
        pytest.param({"winning": False}, "winning: expected false, got true", id="scalar"),
        pytest.param(
            {"winningDiscards": [{}]},
            "winningDiscards: expected 1 elements, got 2",
            id="list-length-must-be-equal",
        ),
        pytest.param(
            {"winningDiscards": [{"tile": {"number": 8}}, {}]},
            "winningDiscards[0].tile.number: expected 8, got 9",
            id="path-to-the-difference",
        ),
        pytest.param(
            {"okey": {"color": "COLOR_BLUE"}},
            'okey.color: expected "COLOR_BLUE", got "COLOR_RED"',
            id="enum-by-name",
        ),
        pytest.param({"okey": None}, "okey: expected no value", id="null-means-unset"),
        pytest.param({"winning": 1}, "winning: expected 1, got true", id="bool-is-not-a-number"),
        pytest.param(
            {"verdict": True},
            "verdict: okey.v1.CheckHandResponse has no such field",
            id="unknown-field",
        ),
        pytest.param({"summary": "win"}, 'summary: expected "win", got "winning"', id="string"),
    ],
)
def test_differences_are_reported_with_their_path(expected: dict[str, Any], problem: str):
    problems = conformance.match_response(expected, fifteen_tile_answer())
    assert len(problems) == 1
    assert problems[0].startswith(problem), problems


@pytest.mark.parametrize(
    ("wanted", "actual", "matches"),
    [
        ("tiles", "tiles", True),
        ("tiles", "tiles[3]", True),
        ("tiles", "tiles[3].number", True),
        ("tiles", "tiles.number", True),
        ("tiles", "hand_notation", False),
        ("tiles[3]", "tiles[3].color", True),
        ("tiles[3]", "tiles[31]", False),
        ("ruleset", "tiles", False),
    ],
)
def test_error_field_matches_itself_or_a_path_below_it(wanted: str, actual: str, matches: bool):
    assert conformance.field_matches(wanted, actual) is matches


def write(directory: Path, name: str, data: dict[str, Any]) -> Path:
    path = directory / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def vector_file(cases: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "suite": "s",
        "source": "docs/rules.md §3",
        "service": "okey.v1.HandService",
        "method": "CheckHand",
        "cases": cases,
    }


def good_case(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "reason": "docs/rules.md §3",
        "request": {"handNotation": "R1", "okeyNotation": "R5"},
        "expect": {"error": {"code": "INVALID_ARGUMENT", "field": "tiles"}},
    }


def test_load_dir_reads_every_json_file_in_name_order(tmp_path: Path):
    write(tmp_path, "b.json", vector_file([good_case("second")]))
    write(tmp_path, "a.json", vector_file([good_case("first-a"), good_case("first-b")]))
    (tmp_path / "notes.txt").write_text("not a vector")
    cases = conformance.load_dir(tmp_path)
    assert [c.name for c in cases] == ["first-a", "first-b", "second"]
    assert cases[0].method.path == "/okey.v1.HandService/CheckHand"
    assert cases[0].request.okey_notation == "R5"


@pytest.mark.parametrize(
    "breakage",
    [
        pytest.param(lambda d: d.pop("source"), id="missing-source"),
        pytest.param(lambda d: d.update(cases=[]), id="no-cases"),
        pytest.param(lambda d: d["cases"][0].update(reason=""), id="empty-reason"),
        pytest.param(lambda d: d["cases"][0].update(expect={}), id="empty-expect"),
        pytest.param(
            lambda d: d["cases"][0].update(expect={"response": {}, "error": {"code": "INTERNAL"}}),
            id="both-response-and-error",
        ),
        pytest.param(
            lambda d: d["cases"][0]["expect"]["error"].update(fields="tiles"),
            id="unknown-error-key",
        ),
        pytest.param(lambda d: d["cases"][0].update(name="two--hyphens"), id="bad-name"),
    ],
)
def test_load_file_rejects_deviations_from_the_format(tmp_path: Path, breakage: Any):
    data = vector_file([good_case("fine")])
    breakage(data)
    path = write(tmp_path, "v.json", data)
    with pytest.raises(conformance.VectorError, match=str(path)):
        conformance.load_file(path)


def test_select_matches_case_name_or_suite_case_insensitively(tmp_path: Path):
    write(tmp_path, "a.json", vector_file([good_case("run-wrap"), good_case("set-colours")]))
    cases = conformance.load_dir(tmp_path)
    assert [c.name for c in conformance.select(cases, "WRAP")] == ["run-wrap"]
    assert len(conformance.select(cases, "s")) == 2  # the suite is "s"
    assert len(conformance.select(cases, None)) == 2


def test_runner_is_generic_over_service_and_method(tmp_path: Path):
    # A Deal vector needs no runner change: the method comes from the descriptor pool.
    data = vector_file([good_case("deal-by-seed") | {"request": {"seed": "7"}}])
    data.update(service="okey.v1.DealService", method="Deal")
    (case,) = conformance.load_file(write(tmp_path, "deal.json", data))
    assert case.method.path == "/okey.v1.DealService/Deal"
    assert case.request.DESCRIPTOR.full_name == "okey.v1.DealRequest"
    assert case.request.seed == "7"


def test_given_state_loads_as_a_replay_request(tmp_path: Path):
    given = {"deal": {"seed": "7"}, "moves": [{"move": {"kind": "MOVE_KIND_DRAW_FROM_WALL"}}]}
    data = vector_file([good_case("draw") | {"request": {"seat": 1}, "given_state": given}])
    data.update(service="okey.v1.GameService", method="LegalMoves")
    (case,) = conformance.load_file(write(tmp_path, "game.json", data))
    assert case.given_state is not None
    assert case.given_state.DESCRIPTOR.full_name == "okey.v1.ReplayRequest"
    assert case.given_state.deal.seed == "7"
    assert len(case.given_state.moves) == 1
    # Without given_state a case has none.
    (plain,) = conformance.load_file(write(tmp_path, "hand.json", vector_file([good_case("x")])))
    assert plain.given_state is None


def test_documented_case_keys_are_the_runners_and_the_node_runners():
    """docs/conformance.md's case-key table, the Python runner and the Node runner
    (clients/node/src/conformance.js) accept the same case keys, given_state and
    given_commitment included."""
    doc = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
    table = doc.split("Each case has exactly these keys", 1)[1].split("\n\n", 2)[1]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    runner = conformance.CASE_KEYS | conformance.OPTIONAL_CASE_KEYS
    node_source = (ROOT / "clients" / "node" / "src" / "conformance.js").read_text("utf-8")
    node_list = re.search(r"export const CASE_KEYS = Object\.freeze\(\[([^\]]*)\]\)", node_source)
    assert node_list is not None
    node = set(re.findall(r"'([a-z_]+)'", node_list.group(1)))
    assert (
        documented
        == runner
        == node
        == {
            "name",
            "reason",
            "request",
            "expect",
            "given_state",
            "given_commitment",
        }
    )


@pytest.mark.parametrize(
    ("service", "method", "path"),
    [
        pytest.param("okey.v1.GameService", "ApplyMove", ("state",), id="applymove-state"),
        pytest.param("okey.v1.GameService", "PlayerView", ("state",), id="playerview-state"),
        pytest.param("okey.v1.GameService", "Replay", ("state",), id="replay-start-state"),
        pytest.param(
            "okey.v1.ScoringService", "ScoreRound", ("round", "state"), id="scoreround-round-state"
        ),
        # A list of rounds has no single place for one state.
        pytest.param("okey.v1.ScoringService", "ScoreGame", None, id="scoregame-none"),
        pytest.param("okey.v1.HandService", "CheckHand", None, id="checkhand-none"),
        pytest.param("okey.v1.DealService", "RevealSeed", ("state",), id="revealseed-state"),
        # A DealRequest has bytes nowhere: no place for a state.
        pytest.param("okey.v1.DealService", "Deal", None, id="deal-none"),
    ],
)
def test_replayed_state_goes_into_the_requests_state_field(
    service: str, method: str, path: tuple[str, ...] | None
):
    """docs/conformance.md: the request's own `bytes state` (the sealed token), else one a
    level down."""
    found = conformance.find_method(service, method)
    assert conformance.state_path(found.request_type.DESCRIPTOR) == path


def test_given_state_for_scoreround_loads_with_its_nested_place(tmp_path: Path):
    given = {"deal": {"seed": "7", "playerCount": 4}, "moves": []}
    data = vector_file([good_case("score") | {"request": {"round": {}}, "given_state": given}])
    data.update(service="okey.v1.ScoringService", method="ScoreRound")
    (case,) = conformance.load_file(write(tmp_path, "scoring.json", data))
    assert case.given_state is not None
    assert case.state_path == ("round", "state")
    # ScoreGame has none: the file breaks the format, naming the request type.
    data.update(method="ScoreGame")
    data["cases"][0]["request"] = {"rounds": []}
    path = write(tmp_path, "scoring.json", data)
    with pytest.raises(conformance.VectorError, match="ScoreGameRequest has no state field"):
        conformance.load_file(path)
