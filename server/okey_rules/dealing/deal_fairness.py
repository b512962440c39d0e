"""Committed deals: the commitment to a secret seed and the inputs it binds, and keyed ids.

Commit and reveal (docs/dealing.md, "Fairness you can verify"): before the
players give their client seeds, the server draws a secret seed and
publishes only a commitment, SHA-256 over the seed and every other input of
the deal (game, seats, dealer, method, round, how many client seeds and, if
committed up front, their hashes), so exactly one deal fits it. After the
round it reveals the seed and the inputs; anyone can recompute the
commitment and re-derive the deal. Players' client seeds are mixed into the
seed the shuffle runs on (docs/dealing.md, "Client seeds"), one per seat in
seat order, so a server that committed first cannot steer the deal and a
dealer cannot reorder them unnoticed.

>>> inputs = CommittedInputs("classic", 4, 0, "informal", 1, 4, ())
>>> len(commitment_for("secret", inputs))
64
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from okey_rules.dealing.shuffle import MAX_SEED_BYTES, seed_bytes
from okey_rules.errors import InvalidInputError

COMMITMENT_LABEL = b"okey-rules commitment v1\x00"
SEEDED_ID_LABEL = b"okey-rules seeded deal id v1\x00"
SEEDED_ID_BYTES = 16  # 32 hex digits
_LENGTH = struct.Struct(">I")  # u32be: every string is prefixed by its byte length
CLIENT_SEED_HASH_BYTES = 32  # SHA-256


class CommitmentMismatchError(InvalidInputError):
    """A deal under a commitment asked with an input other than the committed one."""


@dataclass(frozen=True, slots=True)
class CommittedInputs:
    """Everything a commitment binds besides the seed (docs/dealing.md gives the encoding)."""

    game: str  # "classic" or "101"
    player_count: int
    dealer: int
    method: str  # "informal" or "formal"
    round: int
    client_seed_count: int  # player_count (one per seat) or 0
    client_seed_hashes: tuple[bytes, ...]  # SHA-256 per seat, in seat order; () if not given


def commitment_for(seed: str, inputs: CommittedInputs) -> str:
    """The public commitment: lower-case hex SHA-256 of

    "okey-rules commitment v1\\0" || lp(seed) || lp(game) || lp(method)
    || u32be(player_count) || u32be(dealer) || u32be(round)
    || u32be(client_seed_count) || u32be(number of hashes) || each 32-byte hash,

    where lp(s) is u32be(byte length of s) || s, strings in UTF-8.
    """
    parts = [COMMITMENT_LABEL]
    for text in (seed, inputs.game, inputs.method):
        data = text.encode("utf-8")
        parts += (_LENGTH.pack(len(data)), data)
    for number in (
        inputs.player_count, inputs.dealer, inputs.round, inputs.client_seed_count,
        len(inputs.client_seed_hashes),
    ):
        parts.append(_LENGTH.pack(number))
    parts.extend(inputs.client_seed_hashes)
    return hashlib.sha256(b"".join(parts)).hexdigest()


def client_seed_hash(client_seed: str) -> bytes:
    """SHA-256 of a client seed's UTF-8 bytes: what a player commits to up front."""
    return hashlib.sha256(client_seed.encode("utf-8")).digest()


def check_committed_client_seeds(
    inputs: CommittedInputs, client_seeds: Sequence[str], field: str = "client_seeds"
) -> None:
    """The client seeds a deal under `inputs` must take: the committed count, in seat order,
    each hashing to its seat's committed hash when hashes were committed."""
    if len(client_seeds) != inputs.client_seed_count:
        wanted = (
            "no client seeds" if not inputs.client_seed_count
            else f"exactly {inputs.client_seed_count} client seeds, one per seat in seat order"
        )
        raise CommitmentMismatchError(
            field, f"{len(client_seeds)} client seeds given; this commitment takes {wanted}"
        )
    for seat, (text, committed) in enumerate(
        zip(client_seeds, inputs.client_seed_hashes, strict=False)
    ):
        if not hmac.compare_digest(client_seed_hash(text), committed):
            raise CommitmentMismatchError(
                f"{field}[{seat}]",
                f"this is not the client seed committed for seat {seat} (its SHA-256 differs)",
            )


def seeded_deal_id(id_key: bytes, seed: str) -> str:
    """A seeded deal's id: the first 16 bytes, in hex, of HMAC-SHA256(id_key,
    "okey-rules seeded deal id v1\\0" || seed). Keyed, so a guessable seed cannot be found
    from the id, and servers with different keys give different ids."""
    digest = hmac.new(id_key, SEEDED_ID_LABEL + seed.encode("utf-8"), hashlib.sha256).digest()
    return digest[:SEEDED_ID_BYTES].hex()


CLIENT_SEEDS_LABEL = b"okey.v1.client-seeds\x00"
MAX_CLIENT_SEEDS = 8


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
