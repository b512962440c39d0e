"""`okey conformance run` through a subprocess on small temporary vector sets (issue 4 point 2),
including cases that reach their state through `given_state` (docs/conformance.md): into
`state` for GameService, into `round.state` for ScoringService/ScoreRound, from a seeded or a
stacked deal; cases that deal under a commitment through `given_commitment`; and refusals
pinned by their ErrorReason (`expect.error.reason`)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from okey_rules.dealing.deal import deal
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import TILE_OF_CODE

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
RUN_DEADLINE_S = 60  # a bound for a CLI run, not a timing assertion

MELDS = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
THIRTEEN = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12"


def case(name: str, request: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "reason": f"test case {name}", "request": request, "expect": expect}


def hand_request(tiles: str, indicator: str = "R4") -> dict[str, Any]:
    return {"handNotation": tiles, "indicatorNotation": indicator}


# A seeded deal for the given_state cases: dealer 0, so seat 1 opens (docs/rules.md §8.1).
GAME_DEAL = {"seed": "runner-given-state", "playerCount": 4}
DRAW = "MOVE_KIND_DRAW_FROM_WALL"


def opening_tile() -> dict[str, Any]:
    """The first tile of seat 1's dealt rack, as a Tile in protobuf JSON."""
    tile = TILE_OF_CODE[deal(Ruleset(), 4, 0, seed=GAME_DEAL["seed"]).racks[1][0]]
    assert tile.color is not None
    return {"color": f"COLOR_{tile.color.name}", "number": tile.number, "copy": tile.copy}


def game_case(
    name: str, given: Any, request: dict[str, Any], expect: dict[str, Any]
) -> dict[str, Any]:
    return case(name, request, expect) | {"given_state": given}


GAME = {"service": "okey.v1.GameService", "method": "ApplyMove"}


def write_vectors(
    directory: Path, filename: str, cases: list[dict[str, Any]], **overrides: Any
) -> Path:
    data = {
        "suite": filename.removesuffix(".json"),
        "source": "docs/rules.md",
        "service": "okey.v1.HandService",
        "method": "CheckHand",
        "cases": cases,
        **overrides,
    }
    path = directory / filename
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    return subprocess.run(
        [*COMMAND, "conformance", "run", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=RUN_DEADLINE_S,
        check=False,
    )


@pytest.fixture
def vectors(tmp_path: Path) -> Path:
    """One passing and one deliberately failing CheckHand case."""
    write_vectors(
        tmp_path,
        "hand.json",
        [
            case(
                "melds-hand-wins",
                hand_request(MELDS),
                {"response": {"winning": True, "kind": "WIN_KIND_MELDS"}},
            ),
            # Deliberately wrong: this hand wins.
            case("melds-hand-said-to-lose", hand_request(MELDS), {"response": {"winning": False}}),
        ],
    )
    return tmp_path


@pytest.fixture
def closed_address() -> Iterator[str]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"127.0.0.1:{sock.getsockname()[1]}"


def test_pass_and_fail_per_case_with_diff_and_summary_line(grpc_server, vectors):
    result = run("--server", grpc_server, "--dir", str(vectors))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "PASS melds-hand-wins" in lines
    assert any(line.startswith("FAIL melds-hand-said-to-lose") for line in lines)
    assert "     - winning: expected false, got true" in lines
    assert lines[-1] == "1 passed, 1 failed"


def test_filter_selects_cases_and_all_passing_exits_0(grpc_server, vectors):
    result = run("--server", grpc_server, "--dir", str(vectors), "--filter", "wins")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["PASS melds-hand-wins", "1 passed, 0 failed"]


def test_filter_matching_nothing_is_a_failed_run(grpc_server, vectors):
    result = run("--server", grpc_server, "--dir", str(vectors), "--filter", "no-such-case")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "0 passed, 0 failed"


def test_error_expectations_match_code_and_field(grpc_server, tmp_path):
    write_vectors(
        tmp_path,
        "errors.json",
        [
            case(
                "thirteen-tiles-bad-tiles",
                hand_request(THIRTEEN),
                {"error": {"code": "INVALID_ARGUMENT", "field": "hand_notation"}},
            ),
            case(
                "thirteen-tiles-wrong-code",
                hand_request(THIRTEEN),
                {"error": {"code": "NOT_FOUND"}},
            ),
            case(
                "thirteen-tiles-wrong-field",
                hand_request(THIRTEEN),
                {"error": {"code": "INVALID_ARGUMENT", "field": "ruleset"}},
            ),
            case(
                "winning-hand-is-no-error",
                hand_request(MELDS),
                {"error": {"code": "INVALID_ARGUMENT"}},
            ),
            case(
                "bad-hand-is-no-response", hand_request(THIRTEEN), {"response": {"winning": False}}
            ),
        ],
    )
    result = run("--server", grpc_server, "--dir", str(tmp_path))
    assert result.returncode == 1
    out = result.stdout
    assert "PASS thirteen-tiles-bad-tiles" in out.splitlines()
    assert "error code: expected NOT_FOUND, got INVALID_ARGUMENT" in out
    assert "error field: expected a violation of 'ruleset'" in out
    assert "expected error INVALID_ARGUMENT, got a response" in out
    assert "expected a response, got INVALID_ARGUMENT" in out
    assert out.splitlines()[-1] == "1 passed, 4 failed"


def test_json_report_and_summary_on_stderr(grpc_server, vectors):
    result = run("--server", grpc_server, "--dir", str(vectors), "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert (report["passed"], report["failed"]) == (1, 1)
    by_name = {c["name"]: c for c in report["cases"]}
    assert by_name["melds-hand-wins"]["passed"] is True
    assert by_name["melds-hand-said-to-lose"]["problems"] == ["winning: expected false, got true"]
    assert result.stderr.splitlines()[-1] == "1 passed, 1 failed"


def test_given_state_is_replayed_into_the_request_state(grpc_server, tmp_path):
    opened = {"move": {"kind": "MOVE_KIND_DISCARD", "seat": 1, "tile": opening_tile()}}
    at_deal = {"deal": GAME_DEAL, "moves": []}
    after_opening = {"deal": GAME_DEAL, "moves": [opened]}
    refused = {"response": {"legal": False, "reason": "ILLEGAL_REASON_MUST_DISCARD_FIRST"}}
    write_vectors(
        tmp_path,
        "game.json",
        [
            # Without the replayed state the call would be INVALID_ARGUMENT on state.
            game_case(
                "opening-draw-refused", at_deal, {"move": {"kind": DRAW, "seat": 1}}, refused
            ),
            game_case(
                "draw-after-the-opening",
                after_opening,
                {"move": {"kind": DRAW, "seat": 2}},
                {"response": {"legal": True, "events": [{"kind": "EVENT_KIND_DREW_FROM_WALL"}]}},
            ),
            game_case(
                "a-written-state-is-replaced",
                at_deal,
                # A token no server issued (base64 of "forged"), replaced by the replayed one.
                {"state": "Zm9yZ2Vk", "move": {"kind": DRAW, "seat": 1}},
                refused,
            ),
            game_case(
                "given-log-is-illegal",
                {"deal": GAME_DEAL, "moves": [{"move": {"kind": DRAW, "seat": 3}}]},
                {"move": {"kind": DRAW, "seat": 1}},
                refused,
            ),
            game_case(
                "given-replay-is-refused",
                {"deal": {"playerCount": 4}, "moves": []},
                {"move": {"kind": DRAW, "seat": 1}},
                refused,
            ),
            # Deliberately wrong: the opening seat may not draw.
            game_case(
                "opening-draw-said-legal",
                at_deal,
                {"move": {"kind": DRAW, "seat": 1}},
                {"response": {"legal": True}},
            ),
        ],
        **GAME,
    )
    result = run("--server", grpc_server, "--dir", str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    lines = out.splitlines()
    for passing in (
        "opening-draw-refused",
        "draw-after-the-opening",
        "a-written-state-is-replaced",
    ):
        assert f"PASS {passing}" in lines
    # A position that cannot be reached fails its case, naming the move or the refusal.
    assert (
        "     - given_state: okey.v1.GameService/Replay answered legal: false, move 0 is illegal:"
        " ILLEGAL_REASON_NOT_YOUR_TURN ("
    ) in out
    assert "     - given_state: okey.v1.GameService/Replay failed: INVALID_ARGUMENT: " in out
    assert "     - legal: expected true, got false" in lines
    assert lines[-1] == "3 passed, 3 failed"


def stacked_deal() -> dict[str, Any]:
    """A stacked DealRequest (deal.proto, DealRequest.stacked): dealer 0, the indicator R5,
    every other tile in code order (seat 1 takes 15, seats 2, 3, 0 14 each, the wall the
    rest)."""

    def tile(code: int) -> dict[str, Any]:
        found = TILE_OF_CODE[code]
        if found.is_false_joker:
            return {"falseJoker": True, "copy": found.copy}
        assert found.color is not None
        return {"color": f"COLOR_{found.color.name}", "number": found.number, "copy": found.copy}

    indicator = 4  # R5, copy 0
    rest = [c for c in range(106) if c != indicator]
    racks = {1: rest[:15], 2: rest[15:29], 3: rest[29:43], 0: rest[43:57]}
    return {
        "playerCount": 4,
        "stacked": {
            "racks": [{"tiles": [tile(c) for c in racks[seat]]} for seat in range(4)],
            "wall": [tile(c) for c in rest[57:]],
            "indicator": tile(indicator),
        },
    }


def test_given_state_may_start_from_a_stacked_deal(grpc_server, tmp_path):
    """docs/conformance.md: given_state's deal may be a stacked DealRequest; the status of
    the answer says so."""
    stacked = stacked_deal()
    first = stacked["stacked"]["racks"][1]["tiles"][0]
    write_vectors(
        tmp_path,
        "game.json",
        [
            game_case(
                "stacked-opening-discard",
                {"deal": stacked, "moves": []},
                {"move": {"kind": "MOVE_KIND_DISCARD", "seat": 1, "tile": first}},
                {
                    "response": {
                        "legal": True,
                        "status": {"dealKind": "DEAL_KIND_STACKED", "turnSeat": 2},
                    }
                },
            ),
        ],
        **GAME,
    )
    result = run("--server", grpc_server, "--dir", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == "PASS stacked-opening-discard"


DEAL = {"service": "okey.v1.DealService", "method": "Deal"}
HASHES = [
    "2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90",  # SHA-256 of "alice"
    "81b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9",  # "bob"
]


def committed_case(name: str, request: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    commit = {"playerCount": 2, "clientSeedHashes": HASHES}
    return case(name, request, expect) | {"given_commitment": commit}


def test_given_commitment_deals_under_commitseeds_deal_id(grpc_server, tmp_path):
    """docs/conformance.md: given_commitment is sent to CommitSeed first and its deal id goes
    into the request; refusals are matched on code, field and ErrorInfo reason."""
    two = {"playerCount": 2, "clientSeeds": ["alice", "bob"]}
    mismatch = {
        "code": "INVALID_ARGUMENT",
        "field": "client_seeds[0]",
        "reason": "ERROR_REASON_COMMITMENT_MISMATCH",
    }
    write_vectors(
        tmp_path,
        "deal.json",
        [
            committed_case(
                "dealt-under-the-commitment",
                two,
                {"response": {"seed": "", "status": {"dealKind": "DEAL_KIND_COMMITTED"}}},
            ),
            committed_case(
                "seeds-swapped", {**two, "clientSeeds": ["bob", "alice"]}, {"error": mismatch}
            ),
            # Deliberately wrong: the reason is COMMITMENT_MISMATCH, not INVALID_SEED.
            committed_case(
                "seeds-swapped-wrong-reason",
                {**two, "clientSeeds": ["bob", "alice"]},
                {"error": {**mismatch, "reason": "ERROR_REASON_INVALID_SEED"}},
            ),
        ],
        **DEAL,
    )
    result = run("--server", grpc_server, "--dir", str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "PASS dealt-under-the-commitment" in lines
    assert "PASS seeds-swapped" in lines
    assert (
        "     - error reason: expected ERROR_REASON_INVALID_SEED, got"
        " ERROR_REASON_COMMITMENT_MISMATCH"
    ) in lines
    assert lines[-1] == "2 passed, 1 failed"


SCORING = {"service": "okey.v1.ScoringService", "method": "ScoreRound"}
VECTOR_DIR = Path(__file__).resolve().parents[1] / "conformance"


def won_round_given_state() -> dict[str, Any]:
    """A seeded deal and a move log to a won round, as the scoring vectors reach it."""
    data = json.loads((VECTOR_DIR / "scoring_round.json").read_text(encoding="utf-8"))
    case = next(c for c in data["cases"] if c["name"] == "score-round-state-won")
    given: dict[str, Any] = case["given_state"]
    return given


def test_given_state_goes_into_round_state_for_scoreround(grpc_server, tmp_path):
    """ScoreRoundRequest has no `state`: the replayed state goes into `round.state`."""
    won = won_round_given_state()
    scored = {"response": {"roundValue": 2, "nextRound": 2}}
    write_vectors(
        tmp_path,
        "scoring.json",
        [
            game_case("scored-from-the-state", won, {"round": {}}, scored),
            # The state replaces the result (the other member of RoundInput's oneof).
            game_case(
                "state-replaces-a-result", won, {"round": {"result": {"drawn": True}}}, scored
            ),
            # Not at `round` (which would be a missing round) but at `round.state`.
            game_case(
                "unfinished-state-refused",
                {"deal": GAME_DEAL, "moves": []},
                {"round": {}},
                {"error": {"code": "INVALID_ARGUMENT", "field": "round.state"}},
            ),
            # Deliberately wrong: the won round is worth 2.
            game_case("won-round-said-four", won, {"round": {}}, {"response": {"roundValue": 4}}),
        ],
        **SCORING,
    )
    result = run("--server", grpc_server, "--dir", str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for passing in (
        "scored-from-the-state",
        "state-replaces-a-result",
        "unfinished-state-refused",
    ):
        assert f"PASS {passing}" in lines
    assert "     - roundValue: expected 4, got 2" in lines
    assert lines[-1] == "3 passed, 1 failed"


def test_given_state_with_the_server_down_exit_3(tmp_path, closed_address):
    write_vectors(
        tmp_path,
        "game.json",
        [
            game_case(
                "x", {"deal": GAME_DEAL}, {"move": {"kind": DRAW, "seat": 1}}, {"response": {}}
            )
        ],
        **GAME,
    )
    result = run("--server", closed_address, "--dir", str(tmp_path))
    assert result.returncode == 3
    assert result.stderr == f"okey: cannot reach okey server at {closed_address}\n"


@pytest.mark.parametrize(
    ("cases", "overrides", "mentions"),
    [
        pytest.param(
            [case("x", hand_request(MELDS), {"response": {}}) | {"expected": {}}],
            {},
            "unknown key(s) expected",
            id="unknown-case-key",
        ),
        pytest.param(
            [case("Not_Kebab", hand_request(MELDS), {"response": {}})],
            {},
            "Not_Kebab",
            id="name-not-kebab-case",
        ),
        pytest.param(
            [case("x", hand_request(MELDS), {"response": {"kind": "WIN_KIND_NOPE"}})],
            {},
            "WIN_KIND_NOPE",
            id="unknown-enum-in-expected-response",
        ),
        pytest.param(
            [case("x", {"tilesNotaton": MELDS}, {"response": {}})],
            {},
            "tilesNotaton",
            id="misspelt-request-field",
        ),
        pytest.param(
            [case("x", hand_request(MELDS), {"error": {"code": "INVALID"}})],
            {},
            "INVALID",
            id="unknown-status-code",
        ),
        pytest.param(
            [case("x", hand_request(MELDS), {"response": {}})],
            {"method": "CheckHands"},
            "CheckHands",
            id="unknown-method",
        ),
        pytest.param(
            [case("x", hand_request(MELDS), {"response": {}})],
            {"service": "okey.v1.NoService"},
            "okey.v1.NoService",
            id="unknown-service",
        ),
        pytest.param(
            [case("x", hand_request(MELDS), {"response": {}}) | {"givenState": {}}],
            {},
            "unknown key(s) givenState",
            id="misspelt-given-state-key",
        ),
        pytest.param(
            [game_case("x", {"deal": GAME_DEAL}, hand_request(MELDS), {"response": {}})],
            {},
            "given_state: okey.v1.CheckHandRequest has no state field",
            id="given-state-for-a-request-without-state",
        ),
        pytest.param(
            [game_case("x", {"deal": GAME_DEAL}, {"rounds": []}, {"response": {}})],
            {"service": "okey.v1.ScoringService", "method": "ScoreGame"},
            "given_state: okey.v1.ScoreGameRequest has no state field",
            id="given-state-for-a-list-of-rounds",
        ),
        pytest.param(
            [game_case("x", {"deal": GAME_DEAL, "movs": []}, {}, {"response": {}})],
            GAME,
            "movs",
            id="misspelt-field-in-given-state",
        ),
        pytest.param(
            [game_case("x", ["deal"], {}, {"response": {}})],
            GAME,
            "given_state must be a ReplayRequest object",
            id="given-state-not-an-object",
        ),
        pytest.param(
            [committed_case("x", hand_request(MELDS), {"response": {}})],
            {},
            "given_commitment: okey.v1.CheckHandRequest has no deal_id field",
            id="given-commitment-for-a-request-without-deal-id",
        ),
        pytest.param(
            [case("x", {}, {"response": {}}) | {"given_commitment": {"playerCont": 2}}],
            DEAL,
            "playerCont",
            id="misspelt-field-in-given-commitment",
        ),
        pytest.param(
            [
                case(
                    "x",
                    hand_request(MELDS),
                    {"error": {"code": "INVALID_ARGUMENT", "reason": "ERROR_REASON_NOPE"}},
                )
            ],
            {},
            "ERROR_REASON_NOPE",
            id="unknown-error-reason",
        ),
    ],
)
def test_malformed_vector_files_exit_2_naming_the_problem(tmp_path, cases, overrides, mentions):
    path = write_vectors(tmp_path, "broken.json", cases, **overrides)
    # No server is needed: vectors are checked before any call.
    result = run("--server", "127.0.0.1:1", "--dir", str(tmp_path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert str(path) in result.stderr
    assert mentions in result.stderr


def test_duplicate_case_names_across_files_exit_2(tmp_path):
    write_vectors(tmp_path, "a.json", [case("same-name", hand_request(MELDS), {"response": {}})])
    write_vectors(tmp_path, "b.json", [case("same-name", hand_request(MELDS), {"response": {}})])
    result = run("--server", "127.0.0.1:1", "--dir", str(tmp_path))
    assert result.returncode == 2
    assert "same-name" in result.stderr


def test_server_down_exit_3(vectors, closed_address):
    result = run("--server", closed_address, "--dir", str(vectors))
    assert result.returncode == 3
    assert result.stderr == f"okey: cannot reach okey server at {closed_address}\n"
