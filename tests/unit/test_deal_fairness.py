"""Commit-and-reveal seeds (docs/dealing.md, "Fairness you can verify")."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from okey_rules.deal_fairness import check_deal_id, commitment_for, derive_seed
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
