"""`okey deal` through a subprocess against a real server (issue 3, items 3 and 9; the
committed flow of issue 22: CommitSeed with the client seeds' hashes, then Deal under the
deal id, RevealSeed with the finished state, and stacked positions)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from okey.v1 import deal_pb2, game_pb2, game_pb2_grpc
from okey_rules import format_tile, preset
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_fairness import mixed_seed
from okey_rules.dealing.deal_types import DealMethod, rack_notation
from okey_rules.errors import InvalidInputError

pytestmark = pytest.mark.e2e

OKEY = Path(sys.executable).with_name("okey")
COMMAND = [str(OKEY)] if OKEY.exists() else [sys.executable, "-m", "okey_cli.main"]
RUN_DEADLINE_S = 60  # a bound for a CLI run to finish, not a timing assertion
CALL_DEADLINE_S = 10  # a bound for one RPC of the helper that plays a round out
MAX_MOVES = 1000  # far more than a round takes; a bound on the helper's loop
# The moves the helper plays out a round with, first offered first: a win as soon as one
# is offered (it may be required, §8.4), else draw, end the round at an empty wall (§8.5),
# discard; a discard is taken only when nothing else is offered.
MOVE_ORDER = (
    game_pb2.MOVE_KIND_DECLARE_WIN, game_pb2.MOVE_KIND_DRAW_FROM_WALL,
    game_pb2.MOVE_KIND_END_ROUND, game_pb2.MOVE_KIND_DISCARD, game_pb2.MOVE_KIND_TAKE_DISCARD,
)


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
    # The deal's kind and keyed id (RoundStatus) under the seed.
    lines = out.splitlines()
    assert lines[0] == "seed 42"
    assert lines[1].startswith("seeded deal, id ")
    assert len(lines[1].removeprefix("seeded deal, id ")) == 32


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
    assert len(data["dealId"]) == 32  # a seeded deal's keyed id, derived from its seed
    assert data["commitment"] == ""  # a seeded deal commits to nothing
    assert data["round"] == 1
    assert data["status"]["dealKind"] == "DEAL_KIND_SEEDED"
    assert data["status"]["seededDealId"] == data["dealId"]
    assert data["status"]["turnSeat"] == 1
    assert data["status"]["roundOver"] is False
    assert base64.b64decode(data["state"])  # the sealed token, as protobuf JSON writes bytes
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


def finished_state_file(address: str, saved_deal: str, path: Path) -> Path:
    """The round of a saved `okey deal --json` played to its end through the game service
    (LegalMoves and ApplyMove, whose turn read from each answer's RoundStatus, the token
    carried unopened), its finished state saved as `okey play --save-state` saves one."""
    dealt = json_format.Parse(saved_deal, deal_pb2.DealResponse())
    token, status = dealt.state, dealt.status
    with grpc.insecure_channel(address) as channel:
        game = game_pb2_grpc.GameServiceStub(channel)
        for _ in range(MAX_MOVES):
            if status.round_over:
                break
            offered = game.LegalMoves(
                game_pb2.LegalMovesRequest(state=token, seat=status.turn_seat),
                timeout=CALL_DEADLINE_S,
            ).moves
            move = next(m for kind in MOVE_ORDER for m in offered if m.kind == kind)
            answer = game.ApplyMove(game_pb2.ApplyMoveRequest(state=token, move=move),
                                    timeout=CALL_DEADLINE_S)
            assert answer.legal, answer.message
            token, status = answer.state, answer.status
    assert status.round_over
    path.write_text(json.dumps({"state": base64.b64encode(token).decode("ascii")}))
    return path


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commit(address: str, *args: str) -> dict:
    """`okey deal commit ARGS --json`: the CommitSeed answer."""
    result = okey("deal", "commit", *args, "--json", "--server", address)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def committed_deal(address: str, *args: str, client_seeds: tuple[str, ...] = ()) -> str:
    """A committed deal's `okey deal --json`: `okey deal commit ARGS` with the client seeds'
    hashes (or --no-client-seeds), then `okey deal --deal-id ID ARGS --client-seed ...`."""
    hashes = [arg for seed in client_seeds for arg in ("--client-seed-hash", sha256_hex(seed))]
    promise = commit(address, *args, *(hashes or ["--no-client-seeds"]))
    flags = [arg for seed in client_seeds for arg in ("--client-seed", seed)]
    dealt = okey("deal", "--deal-id", promise["dealId"], *args, *flags, "--json",
                 "--server", address)
    assert dealt.returncode == 0, dealt.stderr
    assert json.loads(dealt.stdout)["commitment"] == promise["commitment"]
    return dealt.stdout


def test_commit_reveal_verify_round_trip(grpc_server, tmp_path):
    """docs/dealing.md, Fairness you can verify: commit (no client seeds), deal under the
    deal id, play, reveal with the finished state, verify (by --reveal and by --seed)."""
    dealt = committed_deal(grpc_server, "--players", "3")
    saved = tmp_path / "deal.json"
    saved.write_text(dealt)
    data = json.loads(dealt)
    assert data["seed"] == ""  # withheld until revealed
    assert data["status"]["dealKind"] == "DEAL_KIND_COMMITTED"
    assert data["status"]["commitment"] == data["commitment"]
    finished = finished_state_file(grpc_server, dealt, tmp_path / "finished.json")

    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", grpc_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"gives the commitment {data['commitment']}" in verified.stdout

    revealed = okey("deal", "reveal", data["dealId"], "--state", str(finished),
                    "--server", grpc_server)
    assert revealed.returncode == 0, revealed.stderr
    seed = revealed.stdout.split()[1]
    assert "binds: classic Okey, 3 players, dealer seat 0, informal deal, round 1, " \
           "0 client seeds" in revealed.stdout
    by_seed = okey("deal", "verify", "-", "--seed", seed, stdin=dealt)
    assert by_seed.returncode == 0, by_seed.stdout
    # The same reveal with the deal id and the state file given as options.
    again = okey("deal", "reveal", "--deal-id", data["dealId"], "--state-file", str(finished),
                 "--server", grpc_server)
    assert again.stdout == revealed.stdout


def test_commit_client_seed_hashes_then_deal_reveal_and_verify(grpc_server, tmp_path):
    """docs/dealing.md, Client seeds: each player's seed hash is committed with the server's
    seed (`okey deal hash-seed` computes it), the deal under the id takes the seeds in seat
    order; after the round the revealed seed mixed with them re-deals it."""
    client_seeds = ["alice's words", "bob: 3 5 1"]
    hashed = okey("deal", "hash-seed", *client_seeds)
    assert hashed.returncode == 0, hashed.stderr
    assert hashed.stdout.split() == [sha256_hex(seed) for seed in client_seeds]
    dealt = committed_deal(grpc_server, "--players", "2", client_seeds=tuple(client_seeds))
    data = json.loads(dealt)
    assert data["clientSeeds"] == client_seeds
    assert data["seed"] == ""
    saved = tmp_path / "deal.json"
    saved.write_text(dealt)
    finished = finished_state_file(grpc_server, dealt, tmp_path / "finished.json")

    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", grpc_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "mixed with the 2 client seeds" in verified.stdout

    revealed = okey("deal", "reveal", data["dealId"], "--state", str(finished), "--json",
                    "--server", grpc_server)
    answer = json.loads(revealed.stdout)
    assert answer["inputs"]["clientSeedHashes"] == [sha256_hex(s) for s in client_seeds]
    assert answer["inputs"]["clientSeedCount"] == 2
    assert answer["commitment"] == data["commitment"]
    expected = deal(seed=mixed_seed(answer["seed"], client_seeds), player_count=2)
    assert [[_code(t) for t in rack.tiles]
            for rack in json_format.Parse(dealt, deal_pb2.DealResponse()).racks] == [
        list(rack) for rack in expected.racks
    ]


def test_commit_prints_the_deal_id_the_commitment_and_what_it_binds(grpc_server):
    hashes = [sha256_hex(f"seat {seat}") for seat in range(3)]
    flags = [arg for digest in hashes for arg in ("--client-seed-hash", digest)]
    result = okey("deal", "commit", "--players", "3", "--dealer", "2", "--round", "4", *flags,
                  "--server", grpc_server)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("deal id ")
    assert lines[1].startswith("commitment ")
    assert len(lines[1].removeprefix("commitment ")) == 64
    assert lines[2] == ("binds: classic Okey, 3 players, dealer seat 2, informal deal, round 4, "
                        "3 client seeds, one per seat in seat order, hashing to:")
    assert lines[3:6] == [f"  seat {seat}: {digest}" for seat, digest in enumerate(hashes)]


def test_commit_needs_the_client_seed_hashes_or_no_client_seeds(grpc_server):
    """CommitSeed requires one hash per seat unless the deal takes no client seeds: the
    server names the field, exit 2."""
    result = okey("deal", "commit", "--server", grpc_server)
    assert result.returncode == 2
    assert result.stderr.startswith("okey: invalid input: client_seed_hashes: ")
    both = okey("deal", "commit", "--no-client-seeds", "--client-seed-hash", "0" * 64,
                "--server", grpc_server)
    assert both.returncode == 2
    assert "not allowed with argument" in both.stderr


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--players", "3"], "player_count"),
        (["--dealer", "1"], "dealer_seat"),
        (["--round", "2"], "round"),
        (["--game", "101"], "ruleset.game"),
    ],
)
def test_a_deal_under_a_commitment_must_repeat_its_inputs(grpc_server, args, field):
    """Every committed input binds the deal (ERROR_REASON_COMMITMENT_MISMATCH): another one
    is refused naming the field, exit 2."""
    promise = commit(grpc_server, "--no-client-seeds")
    result = okey("deal", "--deal-id", promise["dealId"], *args, "--server", grpc_server)
    assert result.returncode == 2
    assert result.stderr.startswith(f"okey: invalid input: {field}: "), result.stderr


def test_a_deal_under_a_commitment_takes_exactly_the_committed_client_seeds(grpc_server):
    seeds = ["north", "south"]
    promise = commit(grpc_server, "--players", "2",
                     *[arg for s in seeds for arg in ("--client-seed-hash", sha256_hex(s))])
    deal_id = promise["dealId"]
    swapped = okey("deal", "--deal-id", deal_id, "--players", "2", "--client-seed", "south",
                   "--client-seed", "north", "--server", grpc_server)
    assert swapped.returncode == 2
    assert swapped.stderr.startswith("okey: invalid input: client_seeds[0]: ")
    missing = okey("deal", "--deal-id", deal_id, "--players", "2", "--client-seed", "north",
                   "--server", grpc_server)
    assert missing.returncode == 2
    assert missing.stderr.startswith("okey: invalid input: client_seeds: ")
    seeded = okey("deal", "--deal-id", deal_id, "--players", "2", "--seed", "mine",
                  *[arg for s in seeds for arg in ("--client-seed", s)], "--server", grpc_server)
    assert seeded.returncode == 2
    assert seeded.stderr.startswith("okey: invalid input: seed: ")


def test_a_committed_deal_shows_its_commitment_never_a_seed(grpc_server):
    promise = commit(grpc_server, "--no-client-seeds")
    result = okey("deal", "--deal-id", promise["dealId"], "--server", grpc_server)
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first == (f"committed deal, commitment {promise['commitment']} (the seed is "
                     "withheld until the round is over)")
    assert "seed " not in result.stdout.replace("the seed is withheld", "")
    assert promise["dealId"] not in result.stdout  # the secret id stays off the screen


def test_reveal_before_the_round_is_over_is_refused(grpc_server, tmp_path):
    """RevealSeed needs the finished state: the deal's own opening state (read from the saved
    deal, which carries it as "state") is refused, exit 2."""
    dealt = committed_deal(grpc_server)
    saved = tmp_path / "deal.json"
    saved.write_text(dealt)
    result = okey("deal", "reveal", json.loads(dealt)["dealId"], "--state", str(saved),
                  "--server", grpc_server)
    assert result.returncode == 2
    assert "invalid input: state:" in result.stderr
    assert "not over" in result.stderr


def test_reveal_takes_the_deal_id_once(grpc_server, tmp_path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"state": "AAAA"}))
    neither = okey("deal", "reveal", "--state", str(state), "--server", grpc_server)
    assert neither.returncode == 2
    assert "give the deal id once" in neither.stderr
    both = okey("deal", "reveal", "x", "--deal-id", "y", "--state", str(state),
                "--server", grpc_server)
    assert both.returncode == 2
    assert "give the deal id once" in both.stderr


def test_verify_reveal_needs_the_finished_state(grpc_server, tmp_path):
    """`okey deal verify --reveal` without --state says what RevealSeed needs, exit 2."""
    saved = tmp_path / "deal.json"
    saved.write_text(committed_deal(grpc_server))
    result = okey("deal", "verify", str(saved), "--reveal", "--server", grpc_server)
    assert result.returncode == 2
    assert "--state" in result.stderr


def test_verify_fails_when_a_committed_input_was_changed(grpc_server, tmp_path):
    """The commitment binds the dealer, round and client seeds: a saved deal whose dealer
    was changed no longer gives it with the right seed (and re-deals otherwise)."""
    dealt = committed_deal(grpc_server, "--players", "2", client_seeds=("a", "b"))
    finished = finished_state_file(grpc_server, dealt, tmp_path / "finished.json")
    revealed = okey("deal", "reveal", json.loads(dealt)["dealId"], "--state", str(finished),
                    "--json", "--server", grpc_server)
    seed = json.loads(revealed.stdout)["seed"]
    data = json.loads(dealt)
    data["round"] = 2
    result = okey("deal", "verify", "-", "--seed", seed, stdin=json.dumps(data))
    assert result.returncode == 1
    assert "FAIL: the seed with the saved inputs does not give the saved commitment" \
        in result.stdout
    data = json.loads(dealt)
    data["clientSeeds"] = ["b", "a"]
    result = okey("deal", "verify", "-", "--seed", seed, stdin=json.dumps(data))
    assert result.returncode == 1
    assert "does not give the saved commitment" in result.stdout


def test_client_seeds_are_shown_and_mixed_into_a_seeded_deal(okey_deal):
    """docs/dealing.md, Client seeds: the text output lists them; the racks are the mixed
    seed's."""
    result = okey_deal("--seed", "42", "--client-seed", "alice", "--client-seed", "bob")
    assert result.returncode == 0, result.stderr
    assert 'client seeds "alice", "bob"' in result.stdout
    expected = deal(seed=mixed_seed("42", ["alice", "bob"]))
    line = next(x for x in result.stdout.splitlines() if x.startswith("seat 1 "))
    assert line.endswith(rack_notation(expected.racks[1]))


def test_verify_fails_on_a_wrong_seed(grpc_server, tmp_path):
    saved = tmp_path / "deal.json"
    saved.write_text(committed_deal(grpc_server))
    result = okey("deal", "verify", str(saved), "--seed", "not the seed")
    assert result.returncode == 1
    assert "FAIL: the seed with the saved inputs does not give the saved commitment" \
        in result.stdout


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


def test_verify_of_a_committed_deal_needs_a_seed(grpc_server, tmp_path):
    saved = tmp_path / "deal.json"
    saved.write_text(committed_deal(grpc_server))
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


def test_verify_a_committed_formal_deal_with_dice_from_the_seed(grpc_server, tmp_path):
    """A formal deal under a commitment takes its dice from the seed (none may be given)."""
    dealt = committed_deal(grpc_server, "--formal", "--dealer", "2")
    assert json.loads(dealt)["formal"]["diceGiven"] is False
    saved = tmp_path / "deal.json"
    saved.write_text(dealt)
    finished = finished_state_file(grpc_server, dealt, tmp_path / "finished.json")
    verified = okey("deal", "verify", str(saved), "--reveal", "--state", str(finished),
                    "--server", grpc_server)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_verify_a_seeded_deal_with_the_indicator_drawn_last(okey_deal, tmp_path):
    """The saved answer does not list the rules (they are sealed in the state): verify
    reads indicator_drawable_last from the wall, which then ends with the indicator."""
    dealt = okey_deal("--seed", "last", "--indicator-drawable-last", "--json")
    assert dealt.returncode == 0, dealt.stderr
    data = json.loads(dealt.stdout)
    assert data["wall"][-1] == data["indicator"]
    verified = okey("deal", "verify", "-", stdin=dealt.stdout)
    assert verified.returncode == 0, verified.stdout
    assert verified.stdout.startswith("OK: the seed deals exactly")


def stacked_position() -> dict:
    """A StackedDeal (protobuf JSON): seed 42's classic deal with seats 0 and 2's racks
    swapped, so that it is no seed's deal."""
    dealt = deal(seed="42")
    racks = [list(rack) for rack in dealt.racks]
    racks[0], racks[2] = racks[2], racks[0]

    def tile(code: int) -> dict:
        copy, face = divmod(code, 53)
        if face == 52:
            return {"falseJoker": True, "copy": copy}
        colour, number = divmod(face, 13)
        return {"color": colour + 1, "number": number + 1, "copy": copy}

    return {
        "racks": [{"tiles": [tile(c) for c in rack]} for rack in racks],
        "wall": [tile(c) for c in dealt.wall],
        "indicator": tile(dealt.indicator),
    }


def test_a_stacked_position_is_dealt_as_given_and_marked(okey_deal, tmp_path):
    """DealRequest.stacked: the racks, wall and indicator as given; the answer and its
    status say DEAL_KIND_STACKED, with no seed and no deal id; verify has nothing to check."""
    position = stacked_position()
    file = tmp_path / "position.json"
    file.write_text(json.dumps(position))
    result = okey_deal("--stacked", str(file), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["status"]["dealKind"] == "DEAL_KIND_STACKED"
    assert (data["seed"], data["dealId"], data["commitment"]) == ("", "", "")
    expected = deal(seed="42")
    assert [_code_of(t) for t in data["racks"][0]["tiles"]] == list(expected.racks[2])
    assert [_code_of(t) for t in data["racks"][2]["tiles"]] == list(expected.racks[0])
    text = okey_deal("--stacked", str(file))
    assert text.stdout.splitlines()[0] == (
        "stacked deal: a position set up tile by tile, not shuffled")
    verify = okey("deal", "verify", "-", stdin=result.stdout)
    assert verify.returncode == 2
    assert "a stacked deal has no seed" in verify.stderr


def test_a_stacked_position_with_a_seed_or_a_bad_file_is_refused(okey_deal, tmp_path):
    file = tmp_path / "position.json"
    file.write_text(json.dumps(stacked_position()))
    seeded = okey_deal("--stacked", str(file), "--seed", "42")
    assert seeded.returncode == 2
    assert seeded.stderr.startswith("okey: invalid input: seed: ")
    file.write_text(json.dumps({"racks": [], "wal": []}))
    misspelt = okey_deal("--stacked", str(file))
    assert misspelt.returncode == 2
    assert misspelt.stderr.startswith(f"okey: cannot read a StackedDeal from {file}")


def _code_of(tile: dict) -> int:
    """A Tile in protobuf JSON (enum names) as its place among the 106."""
    copy = tile.get("copy", 0)
    if tile.get("falseJoker"):
        return copy * 53 + 52
    colour = ["COLOR_RED", "COLOR_YELLOW", "COLOR_BLUE", "COLOR_BLACK"].index(tile["color"])
    return copy * 53 + colour * 13 + tile["number"] - 1
