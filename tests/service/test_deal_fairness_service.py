"""Fair deals end to end through gRPC (docs/dealing.md, "Fairness you can verify", "Client
seeds"): CommitSeed binding the client seeds' hashes and every input, Deal under its secret
deal id, the round played out, RevealSeed, and the commitment recomputed by anyone."""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterator

import grpc
import pytest
from fair_deal_helpers import play_to_the_end
from game_service_helpers import Table
from okey.v1 import deal_pb2, deal_pb2_grpc, ruleset_pb2, state_pb2
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_fairness import CommittedInputs, commitment_for
from okey_rules.dealing.deal_types import DealMethod
from service_helpers import code_of, codes_of, decode_error

pytestmark = pytest.mark.service

KEY = b"deal fairness service test key"
OTHER_KEY = b"another deal fairness test key.."
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
HEX32 = re.compile(r"[0-9a-f]{32}")
HEX64 = re.compile(r"[0-9a-f]{64}")
URL_SAFE = re.compile(r"[A-Za-z0-9_-]+")
CLIENT_SEEDS = ["alice: 7 dice", "bob", "çiğdem 🀄"]
MISMATCH = "ERROR_REASON_COMMITMENT_MISMATCH"
FORMAL = deal_pb2.DEAL_METHOD_FORMAL


@pytest.fixture
def stub(make_server) -> Iterator[deal_pb2_grpc.DealServiceStub]:
    """A DealService client of a server whose signing key the test knows (it plays the
    round out with the engine and seals the finished state under that key)."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        yield deal_pb2_grpc.DealServiceStub(opened)


# --- the documented formulas, written out here rather than taken from the server ---------


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def documented_mix(seed: str, client_seeds: list[str]) -> str:
    """docs/dealing.md, "Client seeds": the seed the shuffle runs on."""
    data = b"okey.v1.client-seeds\x00"
    for text in [seed, *client_seeds]:
        raw = text.encode("utf-8")
        data += struct.pack(">I", len(raw)) + raw
    return hashlib.sha256(data).hexdigest()


GAME_NAMES = {ruleset_pb2.GAME_CLASSIC: "classic", ruleset_pb2.GAME_OKEY_101: "101"}
METHOD_NAMES = {deal_pb2.DEAL_METHOD_INFORMAL: "informal", FORMAL: "formal"}


def documented_commitment(seed: str, inputs: deal_pb2.CommittedInputs) -> str:
    """docs/dealing.md: SHA-256 of "okey-rules commitment v1\\0" || lp(seed) || lp(game) ||
    lp(method) || u32be(player_count, dealer, round, client_seed_count, number of hashes)
    || each 32-byte hash; lp(s) = u32be(byte length) || UTF-8 bytes."""
    data = b"okey-rules commitment v1\x00"
    for text in (seed, GAME_NAMES[inputs.game], METHOD_NAMES[inputs.method]):
        raw = text.encode("utf-8")
        data += struct.pack(">I", len(raw)) + raw
    for number in (inputs.player_count, inputs.dealer_seat, inputs.round,
                   inputs.client_seed_count, len(inputs.client_seed_hashes)):
        data += struct.pack(">I", number)
    data += b"".join(bytes.fromhex(h) for h in inputs.client_seed_hashes)
    return hashlib.sha256(data).hexdigest()


def engine_inputs(inputs: deal_pb2.CommittedInputs) -> CommittedInputs:
    """The revealed inputs as okey_rules.dealing.deal_fairness takes them."""
    return CommittedInputs(
        game=GAME_NAMES[inputs.game],
        player_count=inputs.player_count,
        dealer=inputs.dealer_seat,
        method=METHOD_NAMES[inputs.method],
        round=inputs.round,
        client_seed_count=inputs.client_seed_count,
        client_seed_hashes=tuple(bytes.fromhex(h) for h in inputs.client_seed_hashes),
    )


def _error(call: object, request: object) -> object:
    with pytest.raises(grpc.RpcError) as raised:
        call(request)  # type: ignore[operator]
    return decode_error(raised.value)


def commit_three(stub, **fields: object) -> deal_pb2.CommitSeedResponse:
    """CommitSeed for three seats, dealer 1, round 2, the hashes of CLIENT_SEEDS."""
    request = deal_pb2.CommitSeedRequest(
        player_count=3, dealer_seat=1, round=2,
        client_seed_hashes=[sha256_hex(s) for s in CLIENT_SEEDS],
    )
    for name, value in fields.items():
        setattr(request, name, value)
    return stub.CommitSeed(request)


def deal_three(deal_id: str, **fields: object) -> deal_pb2.DealRequest:
    """The Deal `commit_three` binds; `fields` change it."""
    values: dict[str, object] = {
        "deal_id": deal_id, "player_count": 3, "dealer_seat": 1, "round": 2,
        "client_seeds": CLIENT_SEEDS,
    }
    values.update(fields)
    return deal_pb2.DealRequest(**values)  # type: ignore[arg-type]


# --- CommitSeed ------------------------------------------------------------------------


def test_commit_seed_gives_a_fresh_secret_deal_id_and_a_commitment_to_every_input(stub):
    """CommitSeed: each call a new secret seed, so a new opaque deal id (URL-safe base64)
    and a new 64-hex commitment; `inputs` echoes what is bound, defaults resolved."""
    first = commit_three(stub)
    second = commit_three(stub)
    for answer in (first, second):
        assert URL_SAFE.fullmatch(answer.deal_id)
        assert 300 <= len(answer.deal_id) <= 420, len(answer.deal_id)
        assert HEX64.fullmatch(answer.commitment)
    assert first.deal_id != second.deal_id
    assert first.commitment != second.commitment
    assert first.inputs == second.inputs == deal_pb2.CommittedInputs(
        game=ruleset_pb2.GAME_CLASSIC, player_count=3, dealer_seat=1,
        method=deal_pb2.DEAL_METHOD_INFORMAL, round=2, client_seed_count=3,
        client_seed_hashes=[sha256_hex(s) for s in CLIENT_SEEDS],
    )
    bare = stub.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True))
    assert bare.inputs == deal_pb2.CommittedInputs(
        game=ruleset_pb2.GAME_CLASSIC, player_count=4, dealer_seat=0,
        method=deal_pb2.DEAL_METHOD_INFORMAL, round=1, client_seed_count=0,
    )


BAD_COMMITS = [
    ("no-hashes-nor-no-client-seeds", deal_pb2.CommitSeedRequest(), "client_seed_hashes"),
    ("one-hash-per-seat", deal_pb2.CommitSeedRequest(
        player_count=2, client_seed_hashes=[sha256_hex("a")]), "client_seed_hashes"),
    ("hashes-and-no-client-seeds", deal_pb2.CommitSeedRequest(
        player_count=2, no_client_seeds=True,
        client_seed_hashes=[sha256_hex("a"), sha256_hex("b")]), "client_seed_hashes"),
    ("hash-in-upper-case", deal_pb2.CommitSeedRequest(
        player_count=2, client_seed_hashes=[sha256_hex("a"), sha256_hex("b").upper()]),
     "client_seed_hashes[1]"),
    ("hash-of-63-digits", deal_pb2.CommitSeedRequest(
        player_count=2, client_seed_hashes=[sha256_hex("a")[1:], sha256_hex("b")]),
     "client_seed_hashes[0]"),
    ("five-seats", deal_pb2.CommitSeedRequest(player_count=5, no_client_seeds=True),
     "player_count"),
    ("formal-for-three", deal_pb2.CommitSeedRequest(
        player_count=3, method=FORMAL, no_client_seeds=True), "method"),
]


@pytest.mark.parametrize(("request_", "field"), [c[1:] for c in BAD_COMMITS],
                         ids=[c[0] for c in BAD_COMMITS])
def test_a_commit_seed_request_it_cannot_bind_is_invalid_argument(stub, request_, field):
    """deal.proto CommitSeedRequest: one 64-lower-hex hash per seat unless no_client_seeds,
    never both; the deal's inputs valid as Deal takes them."""
    violation = _error(stub.CommitSeed, request_)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)


# --- the whole story ---------------------------------------------------------------------


def test_commit_then_client_seeds_then_play_then_reveal_verifies(stub, make_server):
    """docs/dealing.md, "Fairness you can verify" with "Client seeds": the commitment (to
    the secret seed, every input and each seat's client seed hash) is published before the
    players reveal their seeds; after the round RevealSeed gives the seed and inputs, from
    which anyone recomputes the commitment and re-deals exactly the racks, indicator and
    wall played."""
    committed = commit_three(stub)
    published = committed.commitment
    dealt = stub.Deal(deal_three(committed.deal_id))
    assert dealt.seed == ""
    assert dealt.commitment == published
    assert dealt.deal_id == committed.deal_id
    assert list(dealt.client_seeds) == CLIENT_SEEDS
    assert (dealt.player_count, dealt.dealer_seat, dealt.round) == (3, 1, 2)
    assert dealt.status.deal_kind == state_pb2.DEAL_KIND_COMMITTED
    assert dealt.status.commitment == published
    assert dealt.status.seeded_deal_id == ""

    finished = play_to_the_end(dealt.state, KEY)
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        # What a seat sees: the commitment and the deal kind, never the secret deal id.
        view = Table(opened).view(finished, 0)
    assert view.deal_kind == state_pb2.DEAL_KIND_COMMITTED
    assert view.commitment == published
    assert view.seeded_deal_id == ""
    assert committed.deal_id not in str(view)

    revealed = stub.RevealSeed(deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=finished))
    assert revealed.deal_id == dealt.deal_id
    assert revealed.commitment == published
    assert revealed.inputs == committed.inputs
    assert HEX64.fullmatch(revealed.seed)
    # Recomputed by hand from the documented encoding, and by okey_rules.
    assert documented_commitment(revealed.seed, revealed.inputs) == published
    assert commitment_for(revealed.seed, engine_inputs(revealed.inputs)) == published
    assert list(revealed.inputs.client_seed_hashes) == [sha256_hex(s) for s in CLIENT_SEEDS]
    local = deal(player_count=3, dealer=1, seed=documented_mix(revealed.seed, CLIENT_SEEDS))
    assert code_of(dealt.indicator) == local.indicator
    assert [codes_of(rack.tiles) for rack in dealt.racks] == [list(r) for r in local.racks]
    assert codes_of(dealt.wall) == list(local.wall)
    # The client seeds did change the deal: the bare seed deals something else.
    assert deal(player_count=3, dealer=1, seed=revealed.seed).racks != local.racks


def test_a_commitment_without_client_seeds_deals_from_the_seed_alone(stub):
    """CommitSeed with no_client_seeds: the deal takes no client seeds, its formal dice come
    from the seed, and the revealed seed re-deals it as it is."""
    committed = stub.CommitSeed(deal_pb2.CommitSeedRequest(method=FORMAL, no_client_seeds=True))
    dealt = stub.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id, method=FORMAL))
    assert not dealt.formal.dice_given
    revealed = stub.RevealSeed(deal_pb2.RevealSeedRequest(
        deal_id=committed.deal_id, state=play_to_the_end(dealt.state, KEY)
    ))
    assert documented_commitment(revealed.seed, revealed.inputs) == committed.commitment
    local = deal(method=DealMethod.FORMAL, seed=revealed.seed)
    assert [codes_of(rack.tiles) for rack in dealt.racks] == [list(r) for r in local.racks]
    assert local.formal is not None
    assert list(dealt.formal.dice) == list(local.formal.dice)


# --- a deal under a commitment must repeat every committed input ------------------------

MISMATCHES = [
    ("player-count", {"player_count": 4}, "player_count"),
    ("dealer-seat", {"dealer_seat": 0}, "dealer_seat"),
    ("round", {"round": 3}, "round"),
    ("round-left-out", {"round": 0}, "round"),
    ("preset", {"preset": "okey.gg"}, "preset"),
    ("ruleset-option", {"ruleset": ruleset_pb2.Ruleset(move_timer_seconds=30)},
     "ruleset.move_timer_seconds"),
    ("client-seeds-reordered", {"client_seeds": CLIENT_SEEDS[::-1]}, "client_seeds[0]"),
    ("client-seed-of-seat-1-changed", {"client_seeds": [CLIENT_SEEDS[0], "bob!", CLIENT_SEEDS[2]]},
     "client_seeds[1]"),
    ("client-seed-left-out", {"client_seeds": CLIENT_SEEDS[:2]}, "client_seeds"),
    ("no-client-seeds", {"client_seeds": []}, "client_seeds"),
]


@pytest.mark.parametrize(("changed", "field"), [c[1:] for c in MISMATCHES],
                         ids=[c[0] for c in MISMATCHES])
def test_a_deal_under_a_commitment_with_another_input_is_refused(stub, changed, field):
    """deal.proto DealRequest.deal_id: exactly one deal fits a commitment: every input
    (seats, dealer, round, rules) and each seat's client seed, in seat order, as committed;
    any other is INVALID_ARGUMENT naming the field, reason COMMITMENT_MISMATCH. The exact
    deal is then still made."""
    committed = commit_three(stub)
    violation = _error(stub.Deal, deal_three(committed.deal_id, **changed))
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)
    assert violation.reason == MISMATCH
    assert stub.Deal(deal_three(committed.deal_id)).commitment == committed.commitment


def test_a_method_or_client_seeds_other_than_committed_are_refused(stub):
    """The method is bound (formal committed, informal asked), and a commitment made with
    no_client_seeds takes none."""
    formal = stub.CommitSeed(deal_pb2.CommitSeedRequest(method=FORMAL, no_client_seeds=True))
    violation = _error(stub.Deal, deal_pb2.DealRequest(deal_id=formal.deal_id))
    assert (violation.fields, violation.reason) == (("method",), MISMATCH)
    violation = _error(stub.Deal, deal_pb2.DealRequest(
        deal_id=formal.deal_id, method=FORMAL, client_seeds=["late"]
    ))
    assert (violation.fields, violation.reason) == (("client_seeds",), MISMATCH)


@pytest.mark.parametrize(("field", "value"), [
    ("seed", "mine"), ("dice", [3, 4]),
])
def test_a_deal_under_a_commitment_takes_no_seed_nor_dice(stub, field, value):
    """deal.proto: under a deal id the seed and the formal dice come from the commitment:
    `seed` and `dice` must be empty."""
    committed = stub.CommitSeed(deal_pb2.CommitSeedRequest(method=FORMAL, no_client_seeds=True))
    request = deal_pb2.DealRequest(deal_id=committed.deal_id, method=FORMAL)
    if field == "seed":
        request.seed = value  # type: ignore[assignment]
    else:
        request.dice.extend(value)  # type: ignore[arg-type]
    violation = _error(stub.Deal, request)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)


def test_a_deal_id_from_a_server_with_another_key_is_refused(make_server):
    """The deal id is sealed under the server's key: a server with another key refuses it
    on deal_id (UNKNOWN_KEY), in Deal and in RevealSeed, instead of dealing anything."""
    addresses = []
    for key in (KEY, OTHER_KEY):
        _, port = make_server(signing_key=key)
        addresses.append(f"127.0.0.1:{port}")
    with grpc.insecure_channel(addresses[0], options=CHANNEL_OPTIONS) as opened:
        deal_id = deal_pb2_grpc.DealServiceStub(opened).CommitSeed(
            deal_pb2.CommitSeedRequest(no_client_seeds=True)
        ).deal_id
    with grpc.insecure_channel(addresses[1], options=CHANNEL_OPTIONS) as opened:
        dealer = deal_pb2_grpc.DealServiceStub(opened)
        for call, request in (
            (dealer.Deal, deal_pb2.DealRequest(deal_id=deal_id)),
            (dealer.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=deal_id)),
        ):
            violation = _error(call, request)
            assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
            assert violation.fields == ("deal_id",)
            assert violation.reason == "ERROR_REASON_UNKNOWN_KEY"


# --- seeded deals: a keyed id, no commitment ----------------------------------------------


def test_a_seeded_deals_id_is_keyed_and_it_commits_to_nothing(make_server):
    """deal.proto / state.proto: a seeded deal has no commitment; its id (deal_id, and
    seeded_deal_id in its status and views) is a 32-hex HMAC of the seed under the server's
    key: the same on servers sharing a key, another under another key."""
    ids = []
    for key in (KEY, KEY, OTHER_KEY):
        _, port = make_server(signing_key=key)
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
            dealt = deal_pb2_grpc.DealServiceStub(opened).Deal(deal_pb2.DealRequest(seed="42"))
            view = Table(opened).view(dealt.state, 0)
        assert dealt.commitment == "" == dealt.status.commitment == view.commitment
        assert dealt.status.deal_kind == state_pb2.DEAL_KIND_SEEDED == view.deal_kind
        assert HEX32.fullmatch(dealt.deal_id)
        assert dealt.deal_id == dealt.status.seeded_deal_id == view.seeded_deal_id
        assert dealt.deal_id != sha256_hex("42")[:32]
        ids.append(dealt.deal_id)
    assert ids[0] == ids[1] != ids[2]


def test_a_seeded_deals_id_has_no_seed_to_reveal(stub):
    """RevealSeed is for committed deals: a seeded deal's id is no deal id token and is
    refused naming deal_id, not answered with a seed."""
    dealt = stub.Deal(deal_pb2.DealRequest(seed="open seed"))
    finished = play_to_the_end(dealt.state, KEY)
    violation = _error(
        stub.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=finished)
    )
    assert violation.fields == ("deal_id",)


def test_client_seeds_change_a_seeded_deal_and_its_deal_id(stub):
    """Seeded deal + client seeds: the seed stays the base seed, the shuffle and the deal id
    come from the mixed seed, so other client seeds (or another order) give another id."""
    plain = stub.Deal(deal_pb2.DealRequest(seed="42"))
    mixed = stub.Deal(deal_pb2.DealRequest(seed="42", client_seeds=CLIENT_SEEDS))
    reordered = stub.Deal(deal_pb2.DealRequest(seed="42", client_seeds=CLIENT_SEEDS[::-1]))
    assert mixed.seed == "42"
    assert mixed.commitment == ""
    assert list(mixed.client_seeds) == CLIENT_SEEDS
    local = deal(seed=documented_mix("42", CLIENT_SEEDS))
    assert [codes_of(rack.tiles) for rack in mixed.racks] == [list(r) for r in local.racks]
    assert mixed.deal_id == mixed.status.seeded_deal_id
    assert len({plain.deal_id, mixed.deal_id, reordered.deal_id}) == 3
    assert [r.tiles for r in reordered.racks] != [r.tiles for r in mixed.racks]


def test_eight_client_seeds_of_256_bytes_are_accepted(stub):
    """deal.proto: at most 8 client seeds, each up to 256 UTF-8 bytes (ğ is 2 bytes)."""
    seeds = ["ğ" * 128] * 7 + ["x" * 256]
    dealt = stub.Deal(deal_pb2.DealRequest(seed="s", client_seeds=seeds))
    assert list(dealt.client_seeds) == seeds


# --- RevealSeed refuses ----------------------------------------------------------------


def _committed_deal(stub) -> deal_pb2.DealResponse:
    committed = stub.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True))
    return stub.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id))


def test_reveal_before_the_round_is_over_is_refused(stub):
    """RevealSeed reveals only with the finished state: the opening state is refused."""
    dealt = _committed_deal(stub)
    violation = _error(
        stub.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=dealt.state)
    )
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state",)
    assert "not over" in violation.descriptions[0]


def test_reveal_with_another_deals_finished_state_is_refused(stub):
    """The finished state must be the asked deal's: another committed deal's round proves
    nothing, nor does a seeded one."""
    asked = _committed_deal(stub)
    for other in (_committed_deal(stub), stub.Deal(deal_pb2.DealRequest(seed="other"))):
        violation = _error(stub.RevealSeed, deal_pb2.RevealSeedRequest(
            deal_id=asked.deal_id, state=play_to_the_end(other.state, KEY)
        ))
        assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
        assert violation.fields == ("state",)
        assert "another deal" in violation.descriptions[0]


def test_reveal_with_a_changed_finished_state_is_refused(stub):
    """A finished state changed by one byte does not open: INVALID_STATE on state."""
    asked = _committed_deal(stub)
    finished = bytearray(play_to_the_end(asked.state, KEY))
    finished[len(finished) // 2] ^= 0x01
    violation = _error(stub.RevealSeed, deal_pb2.RevealSeedRequest(
        deal_id=asked.deal_id, state=bytes(finished)
    ))
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state",)
    assert violation.reason == "ERROR_REASON_INVALID_STATE"


def test_reveal_without_a_state_is_refused(stub):
    """deal.proto: RevealSeedRequest.state is required."""
    dealt = _committed_deal(stub)
    violation = _error(stub.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id))
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state",)


# --- malformed deal requests ---------------------------------------------------------------

BAD_REQUESTS = [
    ("nine-client-seeds", deal_pb2.DealRequest(client_seeds=["p"] * 9), "client_seeds"),
    ("empty-client-seed", deal_pb2.DealRequest(client_seeds=["a", ""]), "client_seeds[1]"),
    ("client-seed-257-bytes", deal_pb2.DealRequest(client_seeds=["x" * 257]), "client_seeds[0]"),
    ("client-seed-258-utf8-bytes", deal_pb2.DealRequest(client_seeds=["a", "ğ" * 129]),
     "client_seeds[1]"),
    ("deal-id-with-a-seed", deal_pb2.DealRequest(deal_id="0f" * 16, seed="mine"), "seed"),
    # A deal id is a sealed token, never 32 hex digits (the committed ids before it were).
    ("deal-id-of-32-hex-digits", deal_pb2.DealRequest(deal_id="0f" * 16), "deal_id"),
    ("deal-id-not-base64", deal_pb2.DealRequest(deal_id="not a token!"), "deal_id"),
]


@pytest.mark.parametrize(("request_", "field"), [c[1:] for c in BAD_REQUESTS],
                         ids=[c[0] for c in BAD_REQUESTS])
def test_bad_fairness_fields_are_invalid_argument_naming_the_field(stub, request_, field):
    """deal.proto: client seeds 1-256 UTF-8 bytes, at most 8; deal_id a token this server
    issued, with no seed beside it."""
    violation = _error(stub.Deal, request_)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)
