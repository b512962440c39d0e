"""Fair deals end to end through gRPC (docs/dealing.md, "Fairness you can verify", "Client
seeds"): CommitSeed, a committed Deal with client seeds, the round played out, RevealSeed."""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Iterator

import grpc
import pytest
from fair_deal_helpers import play_to_the_end
from okey.v1 import deal_pb2, deal_pb2_grpc, state_pb2
from okey_rules.deal import deal
from okey_rules.deal_fairness import tagged_deal_id
from service_helpers import code_of, codes_of, decode_error

pytestmark = pytest.mark.service

KEY = b"deal fairness service test key"
# A deal id as CommitSeed would issue it under KEY (the nonce is all zeros here).
ISSUED_ID = tagged_deal_id(KEY, bytes(12))
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
HEX32 = re.compile(r"[0-9a-f]{32}")
CLIENT_SEEDS = ["alice: 7 dice", "bob", "çiğdem 🀄"]


@pytest.fixture
def stub(make_server) -> Iterator[deal_pb2_grpc.DealServiceStub]:
    """A DealService client of a server whose signing key the test knows (it re-signs states)."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        yield deal_pb2_grpc.DealServiceStub(opened)


# --- the documented formulas, written out here rather than taken from the server ---------


def documented_seed(key: bytes, deal_id: str) -> str:
    """docs/dealing.md: seed = hex(HMAC-SHA256(key, "okey-seed\\0" || deal id))."""
    return hmac.new(key, b"okey-seed\x00" + deal_id.encode(), hashlib.sha256).hexdigest()


def documented_mix(seed: str, client_seeds: list[str]) -> str:
    """docs/dealing.md, "Client seeds": the seed the shuffle runs on."""
    data = b"okey.v1.client-seeds\x00"
    for text in [seed, *client_seeds]:
        raw = text.encode("utf-8")
        data += struct.pack(">I", len(raw)) + raw
    return hashlib.sha256(data).hexdigest()


def documented_deal_id(shuffle_seed: str) -> str:
    """docs/dealing.md, "Deal ids": a seeded deal's id."""
    return hashlib.sha256(b"okey.v1.deal-id\x00" + shuffle_seed.encode()).hexdigest()[:32]


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _error(call: object, request: object) -> object:
    with pytest.raises(grpc.RpcError) as raised:
        call(request)  # type: ignore[operator]
    return decode_error(raised.value)


# --- CommitSeed and Deal(deal_id) ----------------------------------------------------------


def test_commit_seed_gives_a_fresh_deal_id_and_the_commitment_of_its_secret_seed(stub):
    """CommitSeed: a new 32-hex deal id each call; commitment = SHA-256 of the derived seed."""
    first = stub.CommitSeed(deal_pb2.CommitSeedRequest())
    second = stub.CommitSeed(deal_pb2.CommitSeedRequest())
    assert HEX32.fullmatch(first.deal_id)
    assert first.deal_id != second.deal_id
    for answer in (first, second):
        assert answer.commitment == sha256_hex(documented_seed(KEY, answer.deal_id))


def test_deal_from_a_commit_seed_id_is_committed_to_the_published_commitment(stub):
    """Deal with deal_id: no seed in the answer, the CommitSeed commitment, that deal id."""
    committed = stub.CommitSeed(deal_pb2.CommitSeedRequest())
    dealt = stub.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id, player_count=3))
    assert dealt.seed == ""
    assert dealt.deal_id == dealt.state.deal_id == committed.deal_id
    assert dealt.commitment == committed.commitment
    expected = deal(player_count=3, seed=documented_seed(KEY, committed.deal_id))
    assert [codes_of(rack.tiles) for rack in dealt.racks] == [list(r) for r in expected.racks]


def test_committed_seed_depends_on_the_signing_key(make_server):
    """The secret seed is derived with the server's key: another key, another commitment;
    and a deal id one key issued is refused, naming deal_id, by a server with another key
    (its Deal and its RevealSeed), instead of dealing an unrelated seed."""
    servers = {}
    for key in (b"key a", b"key b"):
        _, port = make_server(signing_key=key)
        servers[key] = f"127.0.0.1:{port}"
    commitments = []
    for key, address in servers.items():
        with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as opened:
            dealer = deal_pb2_grpc.DealServiceStub(opened)
            deal_id = dealer.CommitSeed(deal_pb2.CommitSeedRequest()).deal_id
            answer = dealer.Deal(deal_pb2.DealRequest(deal_id=deal_id))
        assert answer.commitment == sha256_hex(documented_seed(key, deal_id))
        commitments.append((deal_id, answer.commitment))
    assert commitments[0][1] != commitments[1][1]
    id_of_a = commitments[0][0]
    with grpc.insecure_channel(servers[b"key b"], options=CHANNEL_OPTIONS) as opened:
        dealer = deal_pb2_grpc.DealServiceStub(opened)
        for call, request in (
            (dealer.Deal, deal_pb2.DealRequest(deal_id=id_of_a)),
            (dealer.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=id_of_a)),
        ):
            with pytest.raises(grpc.RpcError) as refused:
                call(request)
            violation = decode_error(refused.value)
            assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
            assert violation.fields == ("deal_id",)
            assert "signing key" in violation.descriptions[0]


def test_a_seeded_deals_id_has_no_seed_to_reveal(stub):
    """RevealSeed is for committed deals: a seeded deal's id (derived from its seed) is
    refused naming deal_id, not answered with a seed the deal never used."""
    dealt = stub.Deal(deal_pb2.DealRequest(seed="open seed"))
    finished = play_to_the_end(dealt.state, KEY)
    with pytest.raises(grpc.RpcError) as refused:
        stub.RevealSeed(deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=finished))
    assert decode_error(refused.value).fields == ("deal_id",)


# --- the whole story ---------------------------------------------------------------------


@pytest.mark.parametrize("how", ["commit-seed-first", "commit-true"])
def test_commit_then_client_seeds_then_play_then_reveal_verifies(stub, how):
    """docs/dealing.md, "Fairness you can verify" with "Client seeds": the commitment is
    published before the players add their seeds; after the round the revealed seed matches
    it, and seed + client seeds re-derive exactly the racks, indicator and wall played."""
    if how == "commit-seed-first":
        committed = stub.CommitSeed(deal_pb2.CommitSeedRequest())
        request = deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=CLIENT_SEEDS)
        published = committed.commitment
    else:
        request = deal_pb2.DealRequest(commit=True, client_seeds=CLIENT_SEEDS)
        published = ""
    dealt = stub.Deal(request)
    published = published or dealt.commitment
    assert dealt.seed == ""
    assert dealt.commitment == published
    assert list(dealt.client_seeds) == CLIENT_SEEDS

    finished = play_to_the_end(dealt.state, KEY)
    revealed = stub.RevealSeed(deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=finished))

    assert revealed.deal_id == dealt.deal_id
    assert sha256_hex(revealed.seed) == published == revealed.commitment
    local = deal(seed=documented_mix(revealed.seed, CLIENT_SEEDS))
    assert code_of(dealt.indicator) == local.indicator
    assert [codes_of(rack.tiles) for rack in dealt.racks] == [list(r) for r in local.racks]
    assert codes_of(dealt.wall) == list(local.wall)
    # The client seeds did change the deal: the bare seed deals something else.
    assert deal(seed=revealed.seed).racks != local.racks


def test_client_seeds_change_a_seeded_deal_and_its_deal_id(stub):
    """Seeded deal + client seeds: seed and commitment stay the base seed's, the shuffle and
    the deal id come from the mixed seed, so other client seeds give another deal id."""
    plain = stub.Deal(deal_pb2.DealRequest(seed="42"))
    mixed = stub.Deal(deal_pb2.DealRequest(seed="42", client_seeds=CLIENT_SEEDS))
    reordered = stub.Deal(deal_pb2.DealRequest(seed="42", client_seeds=CLIENT_SEEDS[::-1]))
    assert mixed.seed == "42"
    assert mixed.commitment == sha256_hex("42") == plain.commitment
    assert list(mixed.client_seeds) == CLIENT_SEEDS
    shuffle_seed = documented_mix("42", CLIENT_SEEDS)
    local = deal(seed=shuffle_seed)
    assert [codes_of(rack.tiles) for rack in mixed.racks] == [list(r) for r in local.racks]
    assert mixed.deal_id == mixed.state.deal_id == documented_deal_id(shuffle_seed)
    assert plain.deal_id == documented_deal_id("42")
    assert len({plain.deal_id, mixed.deal_id, reordered.deal_id}) == 3
    assert [r.tiles for r in reordered.racks] != [r.tiles for r in mixed.racks]


def test_eight_client_seeds_of_256_bytes_are_accepted(stub):
    """deal.proto: at most 8 client seeds, each up to 256 UTF-8 bytes (ğ is 2 bytes)."""
    seeds = ["ğ" * 128] * 7 + ["x" * 256]
    dealt = stub.Deal(deal_pb2.DealRequest(seed="s", client_seeds=seeds))
    assert list(dealt.client_seeds) == seeds


# --- RevealSeed refuses ----------------------------------------------------------------


def test_reveal_before_the_round_is_over_is_refused(stub):
    """RevealSeed reveals only with the finished state: the opening state is refused."""
    dealt = stub.Deal(deal_pb2.DealRequest(commit=True))
    violation = _error(
        stub.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=dealt.deal_id, state=dealt.state)
    )
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state",)
    assert "not over" in violation.descriptions[0]


def test_reveal_with_another_deals_finished_state_is_refused(stub):
    """The finished state must be the asked deal's: another deal's round proves nothing."""
    asked = stub.Deal(deal_pb2.DealRequest(commit=True))
    other = stub.Deal(deal_pb2.DealRequest(commit=True))
    violation = _error(
        stub.RevealSeed,
        deal_pb2.RevealSeedRequest(deal_id=asked.deal_id, state=play_to_the_end(other.state, KEY)),
    )
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state",)
    assert "another deal" in violation.descriptions[0]


def test_reveal_with_a_relabelled_finished_state_is_refused(stub):
    """A finished state moved to another deal id by hand fails its MAC (state.proto: mac)."""
    asked = stub.Deal(deal_pb2.DealRequest(commit=True))
    other = stub.Deal(deal_pb2.DealRequest(commit=True))
    forged = state_pb2.GameState()
    forged.CopyFrom(play_to_the_end(other.state, KEY))
    forged.deal_id = asked.deal_id
    violation = _error(
        stub.RevealSeed, deal_pb2.RevealSeedRequest(deal_id=asked.deal_id, state=forged)
    )
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("state.mac",)


def test_reveal_without_a_state_is_refused(stub):
    """deal.proto: RevealSeedRequest.state is required."""
    dealt = stub.Deal(deal_pb2.DealRequest(commit=True))
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
    ("client-seeds-on-a-committed-id-too",
     deal_pb2.DealRequest(deal_id=ISSUED_ID, client_seeds=[""]), "client_seeds[0]"),
    ("deal-id-with-a-seed", deal_pb2.DealRequest(deal_id="0f" * 16, seed="mine"), "seed"),
    ("deal-id-with-commit", deal_pb2.DealRequest(deal_id="0f" * 16, commit=True), "commit"),
    ("deal-id-upper-case", deal_pb2.DealRequest(deal_id="0F" * 16), "deal_id"),
    ("deal-id-31-digits", deal_pb2.DealRequest(deal_id="0" * 31), "deal_id"),
]


@pytest.mark.parametrize(("request_", "field"), [c[1:] for c in BAD_REQUESTS],
                         ids=[c[0] for c in BAD_REQUESTS])
def test_bad_fairness_fields_are_invalid_argument_naming_the_field(stub, request_, field):
    """deal.proto: client seeds 1-256 UTF-8 bytes, at most 8; deal_id is 32 hex digits and
    takes neither a seed nor commit."""
    violation = _error(stub.Deal, request_)
    assert violation.code == grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)
