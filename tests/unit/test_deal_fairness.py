"""Commit-and-reveal seeds and client seeds (docs/dealing.md, "Fairness you can verify",
"Client seeds")."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest
from okey_rules.deal_fairness import (
    check_deal_id,
    check_issued_deal_id,
    commitment_for,
    derive_seed,
    mixed_seed,
    shuffle_seed,
    tagged_deal_id,
)
from okey_rules.errors import InvalidInputError

KEY = bytes(range(32))
DEAL_ID = "0123456789abcdef0123456789abcdef"


def test_seed_is_hex_hmac_sha256_of_label_and_deal_id():
    expected = hmac.new(KEY, b"okey-seed\x00" + DEAL_ID.encode(), hashlib.sha256).hexdigest()
    assert derive_seed(KEY, DEAL_ID) == expected


def test_seed_depends_on_key_and_deal_id():
    other_id = "f" * 32
    assert derive_seed(KEY, DEAL_ID) != derive_seed(KEY, other_id)
    assert derive_seed(KEY, DEAL_ID) != derive_seed(b"another key", DEAL_ID)


def test_commitment_is_hex_sha256_of_the_seed_utf8():
    assert commitment_for("42") == hashlib.sha256(b"42").hexdigest()


def test_pinned_derived_seed():
    """Regression pin: computed once from the implementation and pasted here."""
    assert derive_seed(KEY, DEAL_ID) == (
        "3e745ebf27648af4bf59f5a154b061752a92b1dc2d2f90988188fe5fc3f567c4"
    )


@pytest.mark.parametrize("deal_id", ["", "0" * 31, "0" * 33, "G" * 32, "ABCDEF" + "0" * 26])
def test_malformed_deal_id_is_invalid_input(deal_id):
    with pytest.raises(InvalidInputError) as error:
        check_deal_id(deal_id)
    assert error.value.field == "deal_id"


def test_a_committed_deal_id_is_its_nonce_and_the_keys_tag():
    """docs/dealing.md, "Deal ids carry their key's tag": 12 bytes, then the first 4 bytes
    of HMAC-SHA256(key, "okey.v1.deal-id-tag" 0x00 || the 12 bytes), in hex."""
    nonce = bytes(range(12))
    tag = hmac.new(KEY, b"okey.v1.deal-id-tag\x00" + nonce, hashlib.sha256).digest()[:4]
    deal_id = tagged_deal_id(KEY, nonce)
    assert deal_id == nonce.hex() + tag.hex()
    assert check_issued_deal_id(KEY, deal_id) == deal_id


def test_a_deal_id_of_another_key_or_no_key_is_refused_naming_the_field():
    """An id another signing key issued, or a seeded deal's id, is not one to deal or reveal."""
    foreign = tagged_deal_id(b"another signing key", bytes(12))
    for deal_id in (foreign, DEAL_ID):
        with pytest.raises(InvalidInputError) as error:
            check_issued_deal_id(KEY, deal_id, "request.deal_id")
        assert error.value.field == "request.deal_id"
        assert "signing key" in error.value.description


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
