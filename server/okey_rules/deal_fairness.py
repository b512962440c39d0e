"""Committed deals: a secret seed derived from a deal id, and its public commitment.

Stateless commit-and-reveal (docs/dealing.md, "Fairness you can verify"):
the server picks a random deal id, derives the seed as
HMAC-SHA256(key, "okey-seed\\0" || deal id) and publishes only SHA-256 of the
seed. Later it recomputes the seed from the id alone; anyone can check it
against the commitment and re-derive the deal. Players' client seeds are
mixed into the seed the shuffle runs on (docs/dealing.md, "Client seeds"),
so a server that committed first cannot steer the deal they add entropy to.

>>> seed = derive_seed(b"k" * 32, "00" * 16)
>>> len(seed), commitment_for(seed) == commitment_for(seed)
(64, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import struct
from collections.abc import Sequence

from okey_rules.errors import InvalidInputError
from okey_rules.shuffle import MAX_SEED_BYTES, seed_bytes

SEED_LABEL = b"okey-seed\x00"
DEAL_ID_HEX_DIGITS = 32
_DEAL_ID = re.compile(r"[0-9a-f]{32}")


def check_deal_id(deal_id: str, field: str = "deal_id") -> str:
    """A deal id is 32 lower-case hex digits (16 random bytes); anything else is invalid."""
    if not _DEAL_ID.fullmatch(deal_id):
        raise InvalidInputError(field, "a deal id is 32 lower-case hex digits")
    return deal_id


# A committed deal id is 12 random bytes and a 4-byte tag, HMAC-SHA256(key,
# label || those 12 bytes) cut short, all as 32 hex digits. The tag lets a
# server tell a deal id another key issued (an instance configured with a
# different signing key, or a seeded deal's id) from its own and refuse it
# clearly, instead of dealing or revealing an unrelated seed. It is a check
# of configuration, not of security: the commitment is what binds the seed.
DEAL_ID_NONCE_BYTES = 12
DEAL_ID_TAG_LABEL = b"okey.v1.deal-id-tag\x00"


def _deal_id_tag(key: bytes, nonce: bytes) -> str:
    return hmac.new(key, DEAL_ID_TAG_LABEL + nonce, hashlib.sha256).hexdigest()[
        : DEAL_ID_HEX_DIGITS - 2 * DEAL_ID_NONCE_BYTES
    ]


def tagged_deal_id(key: bytes, nonce: bytes) -> str:
    """A committed deal id under `key` from `nonce` (12 random bytes)."""
    if len(nonce) != DEAL_ID_NONCE_BYTES:
        raise ValueError(f"a deal id nonce is {DEAL_ID_NONCE_BYTES} bytes")
    return nonce.hex() + _deal_id_tag(key, nonce)


def check_issued_deal_id(key: bytes, deal_id: str, field: str = "deal_id") -> str:
    """A well-formed deal id that CommitSeed issued under `key`; INVALID_ARGUMENT otherwise."""
    check_deal_id(deal_id, field)
    nonce_hex = deal_id[: 2 * DEAL_ID_NONCE_BYTES]
    expected = _deal_id_tag(key, bytes.fromhex(nonce_hex))
    if not hmac.compare_digest(deal_id[2 * DEAL_ID_NONCE_BYTES :], expected):
        raise InvalidInputError(
            field,
            "not a deal id CommitSeed issued under this server's signing key (instances "
            "of one table must share the key; a seeded deal has no secret to reveal)",
        )
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


CLIENT_SEEDS_LABEL = b"okey.v1.client-seeds\x00"
MAX_CLIENT_SEEDS = 8
_LENGTH = struct.Struct(">I")  # u32be: every mixed-in string is prefixed by its byte length


def client_seed_bytes(client_seeds: Sequence[str], field: str = "client_seeds") -> list[bytes]:
    """The client seeds as UTF-8: at most 8, each 1-256 bytes, else invalid input on the field."""
    if len(client_seeds) > MAX_CLIENT_SEEDS:
        raise InvalidInputError(
            field, f"{len(client_seeds)} client seeds given; at most {MAX_CLIENT_SEEDS} are allowed"
        )
    encoded = []
    for index, text in enumerate(client_seeds):
        where = f"{field}[{index}]"
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInputError(where, "a client seed must be valid Unicode text") from None
        if not data:
            raise InvalidInputError(where, "a client seed is empty: give 1-256 UTF-8 bytes")
        if len(data) > MAX_SEED_BYTES:
            raise InvalidInputError(
                where,
                f"the client seed is {len(data)} UTF-8 bytes; at most {MAX_SEED_BYTES} are allowed",
            )
        encoded.append(data)
    return encoded


def mixed_seed(seed: str, client_seeds: Sequence[str]) -> str:
    """The seed the shuffle runs on when players add client seeds (docs/dealing.md, "Client seeds").

    Lower-case hex of SHA-256("okey.v1.client-seeds\\0" || u32be(len(seed)) ||
    seed || for each client seed in order: u32be(len) || its bytes), all
    strings as UTF-8 and lengths in bytes. Every string is length-prefixed,
    so no two lists of strings hash the same input ("ab" + "c" is not
    "a" + "bc"). Client seeds are checked as `client_seed_bytes` checks them.
    """
    parts = [CLIENT_SEEDS_LABEL]
    for data in (seed_bytes(seed), *client_seed_bytes(client_seeds)):
        parts += (_LENGTH.pack(len(data)), data)
    return hashlib.sha256(b"".join(parts)).hexdigest()


def shuffle_seed(seed: str, client_seeds: Sequence[str]) -> str:
    """The seed the deal is computed from: `seed` itself, or mixed with the client seeds if any."""
    return mixed_seed(seed, client_seeds) if client_seeds else seed
