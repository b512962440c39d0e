"""Commit-and-reveal seeds, client seeds and deal ids (docs/dealing.md, "Fairness you can
verify", "Client seeds", "Deal ids"): the commitment's encoding, what it binds, the client
seeds a commitment takes, keyed seeded ids and sealed secret deal ids."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import re
from pathlib import Path

import pytest
from okey_rules.dealing.deal_fairness import (
    CommitmentMismatchError,
    CommittedInputs,
    check_committed_client_seeds,
    client_seed_hash,
    commitment_for,
    mixed_seed,
    seeded_deal_id,
    shuffle_seed,
)
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset
from okey_server.services.deal_request import Commitment, open_deal_id, seal_deal_id
from okey_server.wire.sealing import REASON_UNKNOWN_KEY, KeyRing, TokenError

KEY = bytes(range(32))
SEED = "42"
CLIENT_SEEDS = ("alice", "bob", "çay", "🀄")  # one per seat, in seat order
INPUTS = CommittedInputs(
    game="classic",
    player_count=4,
    dealer=0,
    method="informal",
    round=1,
    client_seed_count=4,
    client_seed_hashes=tuple(hashlib.sha256(c.encode()).digest() for c in CLIENT_SEEDS),
)


# --- the commitment (docs/dealing.md, "The commitment") ------------------------------------


def test_the_commitment_is_the_documented_encoding_byte_for_byte():
    """docs/dealing.md: hex SHA-256 of "okey-rules commitment v1" 0x00 || lp(seed) ||
    lp(game) || lp(method) || u32be(player_count) || u32be(dealer_seat) || u32be(round) ||
    u32be(client_seed_count) || u32be(number of hashes) || each 32-byte hash in seat order;
    lp(s) = u32be(UTF-8 byte length) || s. Written out by hand, so a change to the encoding
    (which breaks every published commitment's verification) cannot pass unnoticed."""
    encoded = (
        b"okey-rules commitment v1\x00"
        + b"\x00\x00\x00\x02" + b"42"
        + b"\x00\x00\x00\x07" + b"classic"
        + b"\x00\x00\x00\x08" + b"informal"
        + b"\x00\x00\x00\x04"  # player_count
        + b"\x00\x00\x00\x00"  # dealer_seat
        + b"\x00\x00\x00\x01"  # round
        + b"\x00\x00\x00\x04"  # client_seed_count
        + b"\x00\x00\x00\x04"  # number of hashes
        + hashlib.sha256(b"alice").digest()
        + hashlib.sha256(b"bob").digest()
        + hashlib.sha256("çay".encode()).digest()
        + hashlib.sha256("🀄".encode()).digest()
    )
    assert commitment_for(SEED, INPUTS) == hashlib.sha256(encoded).hexdigest()


def test_a_commitment_without_client_seeds_ends_with_two_zero_counts():
    """no_client_seeds: client_seed_count 0 and no hashes. Okey 101, formal, dealer 3,
    round 70,000: the other game and method names, and a number wider than one byte."""
    inputs = CommittedInputs("101", 4, 3, "formal", 70000, 0, ())
    seed = "ğ" * 3  # 6 UTF-8 bytes: the prefix counts bytes, not characters
    encoded = (
        b"okey-rules commitment v1\x00"
        + b"\x00\x00\x00\x06" + "ğğğ".encode()
        + b"\x00\x00\x00\x03" + b"101"
        + b"\x00\x00\x00\x06" + b"formal"
        + b"\x00\x00\x00\x04"
        + b"\x00\x00\x00\x03"
        + b"\x00\x01\x11\x70"  # 70000, big-endian
        + b"\x00\x00\x00\x00"
        + b"\x00\x00\x00\x00"
    )
    assert commitment_for(seed, inputs) == hashlib.sha256(encoded).hexdigest()


def test_pinned_commitment():
    """Regression pin: computed once from the implementation and pasted here."""
    assert commitment_for(SEED, INPUTS) == (
        "b81d1eaa38469f37f1bc3d37addcb85f654073e9a67e80a11c0e095002a5d918"
    )


@pytest.mark.parametrize(
    "changed",
    [
        {"game": "101"},
        {"player_count": 3, "client_seed_count": 3,
         "client_seed_hashes": INPUTS.client_seed_hashes[:3]},
        {"dealer": 1},
        {"method": "formal"},
        {"round": 2},
        {"client_seed_count": 0, "client_seed_hashes": ()},
        {"client_seed_hashes": INPUTS.client_seed_hashes[::-1]},
        {"client_seed_hashes": (client_seed_hash("mallory"), *INPUTS.client_seed_hashes[1:])},
    ],
    ids=["game", "seats", "dealer", "method", "round", "no-client-seeds", "seed-order",
         "another-seed"],
)
def test_every_bound_input_changes_the_commitment(changed):
    """Commitments bind every input: exactly one deal fits a published commitment, so the
    dealer cannot pick another seat count, dealer, method, round or client seed after it."""
    assert commitment_for(SEED, dataclasses.replace(INPUTS, **changed)) != (
        commitment_for(SEED, INPUTS)
    )


def test_the_seed_changes_the_commitment_and_cannot_shift_into_the_next_string():
    """Every string is length-prefixed: the seed "42c" with game "lassic" is another input
    than "42" with "classic"."""
    assert commitment_for("43", INPUTS) != commitment_for(SEED, INPUTS)
    shifted = dataclasses.replace(INPUTS, game="lassic")
    assert commitment_for("42c", shifted) != commitment_for(SEED, INPUTS)


def test_the_commitment_is_64_lower_case_hex_digits():
    assert re.fullmatch(r"[0-9a-f]{64}", commitment_for(SEED, INPUTS))


def test_a_client_seed_hash_is_the_sha256_of_its_utf8_bytes():
    """CommitSeedRequest.client_seed_hashes: the hex SHA-256 a player computes of their seed."""
    assert client_seed_hash("çay") == hashlib.sha256("çay".encode()).digest()
    assert len(client_seed_hash("x")) == 32


# --- client seeds under a commitment ----------------------------------------------------------


def test_the_committed_client_seeds_in_seat_order_are_accepted():
    check_committed_client_seeds(INPUTS, list(CLIENT_SEEDS))


@pytest.mark.parametrize(
    ("client_seeds", "field"),
    [
        (["bob", "alice", "çay", "🀄"], "client_seeds[0]"),  # two seats swapped
        (["alice", "bob", "🀄", "çay"], "client_seeds[2]"),
        ([*CLIENT_SEEDS, "extra"], "client_seeds"),  # one added
        (list(CLIENT_SEEDS[:3]), "client_seeds"),  # one dropped
        ([], "client_seeds"),  # all dropped
        (["alice", "bob", "çay", "🀅"], "client_seeds[3]"),  # one changed
        (["alice ", "bob", "çay", "🀄"], "client_seeds[0]"),  # byte for byte, no trimming
    ],
    ids=["swapped", "reordered-tail", "added", "dropped", "none", "changed", "whitespace"],
)
def test_a_reordered_added_dropped_or_changed_client_seed_is_a_mismatch(client_seeds, field):
    """A dealer cannot reorder, add, drop or swap client seeds unnoticed: the deal is refused
    with a commitment mismatch naming the list, or the seat whose seed is not its own."""
    with pytest.raises(CommitmentMismatchError) as error:
        check_committed_client_seeds(INPUTS, client_seeds)
    assert error.value.field == field
    assert isinstance(error.value, InvalidInputError)  # INVALID_ARGUMENT on the wire


def test_a_commitment_without_client_seeds_takes_none():
    inputs = dataclasses.replace(INPUTS, client_seed_count=0, client_seed_hashes=())
    check_committed_client_seeds(inputs, [])
    with pytest.raises(CommitmentMismatchError) as error:
        check_committed_client_seeds(inputs, ["alice"], "request.client_seeds")
    assert error.value.field == "request.client_seeds"
    assert "no client seeds" in error.value.description


# --- seeded deal ids (docs/dealing.md, "Deal ids") -----------------------------------------


def test_a_seeded_id_is_the_keyed_hmac_of_the_seed_cut_to_16_bytes():
    """The first 16 bytes, in hex, of HMAC-SHA256(key, "okey-rules seeded deal id v1" 0x00
    || seed)."""
    expected = hmac.new(
        KEY, b"okey-rules seeded deal id v1\x00" + "çay".encode(), hashlib.sha256
    ).hexdigest()[:32]
    assert seeded_deal_id(KEY, "çay") == expected
    assert re.fullmatch(r"[0-9a-f]{32}", expected)


def test_seeded_ids_differ_across_keys_and_seeds():
    """Keyed: a guessable seed cannot be found from its id without the server's key, and two
    servers with different keys give the same seed different ids."""
    assert seeded_deal_id(KEY, SEED) != seeded_deal_id(b"another key", SEED)
    assert seeded_deal_id(KEY, SEED) != seeded_deal_id(KEY, "43")
    # The id is no plain hash of the seed (the old commitment was SHA-256(seed)).
    assert seeded_deal_id(KEY, SEED) not in hashlib.sha256(SEED.encode()).hexdigest()


# --- client seeds (docs/dealing.md, "Client seeds") ----------------------------------------


def _spec_mix(seed: bytes, client_seeds: list[bytes]) -> str:
    """The documented mix written out with hashlib: label, then each string length-prefixed."""
    data = b"okey.v1.client-seeds\x00" + len(seed).to_bytes(4, "big") + seed
    for raw in client_seeds:
        data += len(raw).to_bytes(4, "big") + raw
    return hashlib.sha256(data).hexdigest()


def test_mixed_seed_is_the_documented_sha256_of_length_prefixed_seeds():
    """Client seeds: hex SHA-256("okey.v1.client-seeds\\0" || u32be(len) || bytes ...)."""
    expected = hashlib.sha256(
        b"okey.v1.client-seeds\x00"
        + b"\x00\x00\x00\x02" + b"42"
        + b"\x00\x00\x00\x05" + b"alice"
        + b"\x00\x00\x00\x04" + "çay".encode()
    ).hexdigest()
    assert mixed_seed("42", ["alice", "çay"]) == expected


@pytest.mark.parametrize(
    ("seed", "client_seeds"),
    [("s", ["a"]), ("Ğüşİöç", ["🀄", "x" * 256]), ("x" * 256, ["p"] * 8)],
)
def test_mixed_seed_matches_the_spec_for_any_input(seed, client_seeds):
    """Client seeds: bytes are UTF-8, lengths in bytes (multi-byte characters count as bytes)."""
    expected = _spec_mix(seed.encode(), [c.encode() for c in client_seeds])
    assert mixed_seed(seed, client_seeds) == expected


def test_documented_client_seed_example_is_what_the_formula_gives():
    """docs/dealing.md's worked example of the mix is the formula's own answer."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "dealing.md").read_text()
    match = re.search(r"client seeds `alice`, `bob`: mixed seed `([0-9a-f]{64})`", text)
    assert match, "docs/dealing.md lost its client-seed example"
    assert match[1] == _spec_mix(b"42", [b"alice", b"bob"]) == mixed_seed("42", ["alice", "bob"])


def test_client_seed_boundaries_cannot_be_shifted():
    """Client seeds: each string is length-prefixed, so ("ab", "c") and ("a", "bc") differ."""
    assert mixed_seed("s", ["ab", "c"]) != mixed_seed("s", ["a", "bc"])
    assert mixed_seed("sa", ["b"]) != mixed_seed("s", ["ab"])


def test_client_seed_order_matters():
    """Client seeds are mixed in the order given."""
    assert mixed_seed("s", ["a", "b"]) != mixed_seed("s", ["b", "a"])


def test_without_client_seeds_the_shuffle_runs_on_the_seed_itself():
    """Client seeds: an empty list leaves the seed (and so every existing deal) unchanged."""
    assert shuffle_seed("42", []) == "42"
    assert shuffle_seed("42", ["a"]) == mixed_seed("42", ["a"])


@pytest.mark.parametrize(
    ("client_seeds", "field"),
    [
        (["p"] * 9, "client_seeds"),
        (["a", ""], "client_seeds[1]"),
        (["x" * 257], "client_seeds[0]"),
        (["a", "b", "ğ" * 129], "client_seeds[2]"),  # 258 UTF-8 bytes
    ],
)
def test_client_seed_limits(client_seeds, field):
    """deal.proto: at most 8 client seeds, each 1-256 UTF-8 bytes."""
    with pytest.raises(InvalidInputError) as error:
        mixed_seed("s", client_seeds)
    assert error.value.field == field


def test_eight_client_seeds_of_256_bytes_are_within_the_limits():
    """deal.proto: 8 client seeds of 256 bytes each are allowed (the limits are inclusive)."""
    assert len(mixed_seed("s", ["ğ" * 128] * 8)) == 64


def test_the_base_seed_keeps_its_own_limits_when_mixed():
    """docs/dealing.md, The seed: 1-256 UTF-8 bytes, with or without client seeds."""
    with pytest.raises(InvalidInputError) as error:
        mixed_seed("x" * 257, ["a"])
    assert error.value.field == "seed"


# --- secret deal ids (they replace the tagged 32-hex ids: a deal id is now a sealed token) --


def _committed() -> Commitment:
    return Commitment("ab" * 32, INPUTS, Ruleset())


def test_a_deal_id_opens_to_its_seed_inputs_and_rules_under_the_key_that_sealed_it():
    committed = _committed()
    deal_id = seal_deal_id(KEY, committed)
    assert open_deal_id(KEY, deal_id) == committed
    # The seed travels encrypted: not in the id, whatever its encoding.
    assert committed.seed not in deal_id
    assert open_deal_id(KEY, deal_id).commitment == commitment_for(committed.seed, INPUTS)


@pytest.mark.parametrize(
    "deal_id",
    [
        "",  # no id
        "0123456789abcdef0123456789abcdef",  # a seeded deal's id, or an old tagged id
        "not base64 at all!",
        "AQID",  # base64, but no token of this server
    ],
)
def test_what_is_not_a_sealed_deal_id_is_refused_naming_the_field(deal_id):
    """An id this server's ring did not seal (a seeded deal's keyed id has no secret to deal
    or reveal) is INVALID_ARGUMENT on the field that carried it."""
    with pytest.raises(InvalidInputError) as error:
        open_deal_id(KEY, deal_id, "request.deal_id")
    assert error.value.field == "request.deal_id"


def test_a_deal_id_of_another_key_is_refused_as_an_unknown_key():
    """Instances of one table must share the signing key (or list it as a previous key)."""
    from okey_server.services.deal_request import open_deal_id, seal_deal_id
    foreign = seal_deal_id(b"another signing key", _committed())
    with pytest.raises(TokenError) as error:
        open_deal_id(KEY, foreign)
    assert error.value.field == "deal_id"
    assert error.value.reason == REASON_UNKNOWN_KEY
    # Listed as a previous key, it opens: keys rotate without losing committed deals.
    assert open_deal_id(KeyRing(KEY, [b"another signing key"]), foreign) == _committed()
