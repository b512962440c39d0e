"""Committed deals: a secret seed derived from a deal id, and its public commitment.

Stateless commit-and-reveal (docs/dealing.md, "Fairness you can verify"):
the server picks a random deal id, derives the seed as
HMAC-SHA256(key, "okey-seed\\0" || deal id) and publishes only SHA-256 of the
seed. Later it recomputes the seed from the id alone; anyone can check it
against the commitment and re-derive the deal.

>>> seed = derive_seed(b"k" * 32, "00" * 16)
>>> len(seed), commitment_for(seed) == commitment_for(seed)
(64, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re

from okey_rules.errors import InvalidInputError

SEED_LABEL = b"okey-seed\x00"
DEAL_ID_HEX_DIGITS = 32
_DEAL_ID = re.compile(r"[0-9a-f]{32}")


def check_deal_id(deal_id: str, field: str = "deal_id") -> str:
    """A deal id is 32 lower-case hex digits (16 random bytes); anything else is invalid."""
    if not _DEAL_ID.fullmatch(deal_id):
        raise InvalidInputError(field, "a deal id is 32 lower-case hex digits")
    return deal_id


def derive_seed(key: bytes, deal_id: str) -> str:
    """The committed deal's seed: hex HMAC-SHA256(key, "okey-seed\\0" || deal id as ASCII)."""
    check_deal_id(deal_id)
    return hmac.new(key, SEED_LABEL + deal_id.encode("ascii"), hashlib.sha256).hexdigest()


DEAL_ID_LABEL = b"okey.v1.deal-id\x00"


def seeded_deal_id(seed: str) -> str:
    """A seeded deal's id: the first 32 hex digits of SHA-256("okey.v1.deal-id\\0" || seed)."""
    digest = hashlib.sha256(DEAL_ID_LABEL + seed.encode("utf-8")).hexdigest()
    return digest[:DEAL_ID_HEX_DIGITS]


def commitment_for(seed: str) -> str:
    """The public commitment to a seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
