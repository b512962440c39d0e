"""`okey deal` through a subprocess against a real server (issue 3, items 3 and 9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import json_format
from okey.v1 import deal_pb2
from okey_rules import format_tile, preset
from okey_rules.deal import deal
from okey_rules.deal_fairness import mixed_seed
from okey_rules.deal_types import DealMethod, rack_notation
from okey_rules.errors import InvalidInputError
from okey_rules.game import apply_move, legal_moves
from okey_rules.game_types import Move, MoveKind, Phase
from okey_rules.tiles import Tile
from okey_server.convert_state import state_from_proto, state_to_proto

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
RUN_DEADLINE_S = 60  # a bound for a CLI run to finish, not a timing assertion
KEY = b"cli deal test key"  # the key of the `keyed_server` (the tests re-sign finished states)


def okey(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, input=stdin, env=env,
        timeout=RUN_DEADLINE_S, check=False,
    )


@pytest.fixture
def okey_deal(grpc_server: str):
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return okey("deal", *args, "--server", grpc_server)

    return run


def test_deal_prints_each_rack_sorted_with_indicator_and_okey(okey_deal):
    result = okey_deal("--seed", "42")
    assert result.returncode == 0, result.stderr
    expected = deal(seed="42")
    out = result.stdout
    assert f"indicator {format_tile(expected.indicator_tile)}, okey {format_tile(expected.okey)}" \
        in out
    for seat, rack in enumerate(expected.racks):
        line = next(x for x in out.splitlines() if x.startswith(f"seat {seat} "))
        assert line.endswith(rack_notation(rack))
    assert "seat 0 (dealer)" in out
    assert "seat 1 (first)" in out


def test_deal_json_is_the_deal_response(okey_deal):
    result = okey_deal("--seed", "7", "--game", "101", "--dealer", "3", "--json")
    assert result.returncode == 0, result.stderr
    response = json_format.Parse(result.stdout, deal_pb2.DealResponse())
    expected = deal(seed="7", rules=preset("101"), dealer=3)
    assert [[_code(t) for t in r.tiles] for r in response.racks] == [
        list(r) for r in expected.racks
    ]
    assert response.first_seat == 3


def _code(tile) -> int:
    """A Tile message's place among the 106 (copy * 53 + face; face 52: false joker)."""
    face = 52 if tile.false_joker else (tile.color - 1) * 13 + tile.number - 1
    return tile.copy * 53 + face


def test_deal_json_prints_every_field_defaults_included(okey_deal):
    """A reader of `okey deal --json` sees seat 0, dealer 0 and copy 0 written out."""
    data = json.loads(okey_deal("--seed", "7", "--json").stdout)
    assert data["dealerSeat"] == 0
    assert data["racks"][0]["seat"] == 0
    assert len(data["dealId"]) == 32  # a seeded deal's id, derived from its seed
    assert data["round"] == 1
    first_tile = data["racks"][0]["tiles"][0]
    assert set(first_tile) == {"color", "number", "falseJoker", "copy"}


def _seed_without_reroll() -> str:
    """A seed whose stack 5 does not hold a false joker 2nd from the bottom."""
    for n in range(100):
        try:
            deal(seed=f"table-{n}", method=DealMethod.FORMAL, dice=[5, 2])
        except InvalidInputError:
            continue
        return f"table-{n}"
    raise AssertionError("no seed found")


def test_formal_deal_with_table_dice_shows_who_took_what(okey_deal):
    """Seed 000's worked example through the CLI: dice 5 then 2, dealer seat 0."""
    seed = _seed_without_reroll()
    result = okey_deal("--seed", seed, "--formal", "--dice", "5,2")
    assert result.returncode == 0, result.stderr
    expected = deal(seed=seed, method=DealMethod.FORMAL, dice=[5, 2])
    assert "dice (given): 5, 2" in result.stdout
    assert "seat 1 took: a, e, i" in result.stdout
    assert "seat 2 took: b, f, top 4 of j" in result.stdout
    assert "seat 3 took: c, g, bottom 1 of j, top 3 of k" in result.stdout
    assert "seat 0 took: d, h, bottom 2 of k, top 2 of l" in result.stdout
    assert f"indicator {format_tile(expected.indicator_tile)}" in result.stdout


@pytest.fixture
def keyed_server(make_server) -> str:
    """The address of a server signing with KEY, so a test can finish a round's state."""
    _, port = make_server(signing_key=KEY)
    return f"127.0.0.1:{port}"


def finished_state_file(saved_deal: str, path: Path) -> Path:
    """The round of a saved `okey deal --json` played to its end (each seat draws and throws
    the tile back until the wall is empty, when the round ends drawn, docs/rules.md §8.5; a
    seat that the last discard would let finish ends the round, and a seat that draws into
    a win it must show declares it, §8.4), signed with KEY as the game service would, and
    saved as GameState JSON."""
    opening = json_format.Parse(saved_deal, deal_pb2.DealResponse()).state
    state = state_from_proto(opening, KEY)
    while state.phase is not Phase.ROUND_OVER:
        seat = state.turn
        if state.phase is Phase.DRAW:
            move = Move(MoveKind.DRAW_FROM_WALL if state.wall else MoveKind.END_ROUND, seat)
        else:
            move = Move(MoveKind.DISCARD, seat, Tile.from_code(state.seats[seat].rack[-1]))
            if move not in legal_moves(state, seat):
                move = next(m for m in legal_moves(state, seat) if m.kind is MoveKind.DECLARE_WIN)
        result = apply_move(state, move)
        assert result.legal, result.message
        assert result.state is not None
        state = result.state
    path.write_text(json_format.MessageToJson(state_to_proto(state, KEY)))
    return path


def test_commit_reveal_verify_round_trip(keyed_server, tmp_path):
    """docs/dealing.md, Fairness you can verify: commit, play, reveal with the finished
    state, verify (by --reveal and by --seed)."""
    committed = okey("deal", "--commit", "--json", "--players", "3", "--server", keyed_server)
    assert committed.returncode == 0, committed.stderr
    saved = tmp_path / "deal.json"
    saved.write_text(committed.stdout)
    data = json.loads(committed.stdout)
    assert data["seed"] == ""  # withheld until revealed
    assert data["commitment"]
    finished = finished_state_file(committed.stdout, tmp_path / "finished.json")

    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", keyed_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK" in verified.stdout

    revealed = okey("deal", "reveal", data["dealId"], "--state", str(finished),
                    "--server", keyed_server)
    assert revealed.returncode == 0, revealed.stderr
    seed = revealed.stdout.split()[1]
    by_seed = okey("deal", "verify", "-", "--seed", seed, stdin=committed.stdout)
    assert by_seed.returncode == 0, by_seed.stdout


def test_commit_seed_then_client_seeds_then_reveal_and_verify(keyed_server, tmp_path):
    """docs/dealing.md, Client seeds: `okey deal commit`, then a deal from that id with the
    players' client seeds; after the round the revealed seed mixed with them re-deals it."""
    commit = okey("deal", "commit", "--json", "--server", keyed_server)
    assert commit.returncode == 0, commit.stderr
    promise = json.loads(commit.stdout)
    client_seeds = ["alice's words", "bob: 3 5 1"]
    flags = [arg for seed in client_seeds for arg in ("--client-seed", seed)]
    dealt = okey("deal", "--deal-id", promise["dealId"], *flags, "--json",
                 "--server", keyed_server)
    assert dealt.returncode == 0, dealt.stderr
    data = json.loads(dealt.stdout)
    assert data["clientSeeds"] == client_seeds
    assert data["commitment"] == promise["commitment"]
    assert data["seed"] == ""
    saved = tmp_path / "deal.json"
    saved.write_text(dealt.stdout)
    finished = finished_state_file(dealt.stdout, tmp_path / "finished.json")

    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", keyed_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "mixed with the 2 client seeds" in verified.stdout

    revealed = okey("deal", "reveal", promise["dealId"], "--state", str(finished), "--json",
                    "--server", keyed_server)
    seed = json.loads(revealed.stdout)["seed"]
    expected = deal(seed=mixed_seed(seed, client_seeds))
    assert [[_code(t) for t in rack.tiles]
            for rack in json_format.Parse(dealt.stdout, deal_pb2.DealResponse()).racks] == [
        list(rack) for rack in expected.racks
    ]


def test_reveal_before_the_round_is_over_is_refused(keyed_server, tmp_path):
    """RevealSeed needs the finished state: the deal's own opening state (read from the saved
    deal, which carries it as "state") is refused, exit 2."""
    dealt = okey("deal", "--commit", "--json", "--server", keyed_server)
    saved = tmp_path / "deal.json"
    saved.write_text(dealt.stdout)
    result = okey("deal", "reveal", json.loads(dealt.stdout)["dealId"], "--state", str(saved),
                  "--server", keyed_server)
    assert result.returncode == 2
    assert "invalid input: state:" in result.stderr
    assert "not over" in result.stderr


def test_verify_reveal_needs_the_finished_state(okey_deal, grpc_server, tmp_path):
    """`okey deal verify --reveal` without --state says what RevealSeed needs, exit 2."""
    saved = tmp_path / "deal.json"
    saved.write_text(okey_deal("--commit", "--json").stdout)
    result = okey("deal", "verify", str(saved), "--reveal", "--server", grpc_server)
    assert result.returncode == 2
    assert "--state" in result.stderr


def test_client_seeds_are_shown_and_mixed_into_a_seeded_deal(okey_deal):
    """docs/dealing.md, Client seeds: the text output lists them; the racks are the mixed
    seed's."""
    result = okey_deal("--seed", "42", "--client-seed", "alice", "--client-seed", "bob")
    assert result.returncode == 0, result.stderr
    assert 'client seeds "alice", "bob"' in result.stdout
    expected = deal(seed=mixed_seed("42", ["alice", "bob"]))
    line = next(x for x in result.stdout.splitlines() if x.startswith("seat 1 "))
    assert line.endswith(rack_notation(expected.racks[1]))


def test_verify_fails_on_a_wrong_seed(okey_deal, tmp_path):
    saved = tmp_path / "deal.json"
    saved.write_text(okey_deal("--commit", "--json").stdout)
    result = okey("deal", "verify", str(saved), "--seed", "not the seed")
    assert result.returncode == 1
    assert "commitment" in result.stdout


def test_verify_fails_on_a_tampered_deal(okey_deal, tmp_path):
    result = okey_deal("--seed", "tamper", "--json")
    data = json.loads(result.stdout)
    data["racks"][0]["tiles"][0], data["wall"][0] = data["wall"][0], data["racks"][0]["tiles"][0]
    saved = tmp_path / "deal.json"
    saved.write_text(json.dumps(data))
    verified = okey("deal", "verify", str(saved))
    assert verified.returncode == 1
    assert "seat 0's rack differs" in verified.stdout
    assert "wall differs" in verified.stdout


def test_verify_of_a_committed_deal_needs_a_seed(okey_deal, tmp_path):
    saved = tmp_path / "deal.json"
    saved.write_text(okey_deal("--commit", "--json").stdout)
    result = okey("deal", "verify", str(saved))
    assert result.returncode == 2
    assert "--reveal" in result.stderr


@pytest.mark.parametrize(
    ("args", "field"),
    [(["--players", "5"], "player_count"), (["--dealer", "4"], "dealer_seat"),
     (["--formal", "--players", "3"], "method"), (["--formal", "--dice", "5,7"], "dice[1]")],
)
def test_bad_input_is_one_line_naming_the_field_exit_2(okey_deal, args, field):
    result = okey_deal("--seed", "x", *args)
    assert result.returncode == 2
    assert f"invalid input: {field}:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_a_committed_formal_deal_with_dice_from_the_seed(keyed_server, tmp_path):
    committed = okey("deal", "--commit", "--formal", "--dealer", "2", "--json",
                     "--server", keyed_server)
    assert committed.returncode == 0, committed.stderr
    saved = tmp_path / "deal.json"
    saved.write_text(committed.stdout)
    finished = finished_state_file(committed.stdout, tmp_path / "finished.json")
    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", keyed_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr
