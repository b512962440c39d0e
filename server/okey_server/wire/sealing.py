"""Sealed tokens: the opaque bytes a table carries (a round's state, a committed deal's id).

A token is ``version (1 byte) || key id (4 bytes) || AES-SIV(plaintext)``.

- AES-SIV (RFC 5297, from `cryptography`) both encrypts and authenticates, and
  it is deterministic: the same state sealed twice gives the same token, so
  "same request, same answer" still holds and answers can be pinned in tests.
  What that reveals is only that two tokens hold the same state, which their
  holder knows anyway. The version byte and key id are authenticated too (they
  are associated data), as is the token's purpose, so a deal id can never be
  passed off as a state or the reverse.
- Each purpose seals under its own subkey, derived from the signing key with
  HKDF-SHA256; the key id is derived the same way, so it names the key
  without revealing anything about it.
- A server seals under its current key and opens tokens made under any key of
  its ring (the current one and the listed previous ones): keys rotate without
  a failed call (docs/operations.md, "Rotating the signing key").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from okey_rules.errors import InvalidInputError

# The layout of the sealed plaintext. A token of another version is refused
# with a clear error rather than read as if it were this one.
TOKEN_VERSION = 1
KEY_ID_BYTES = 4
_HEADER_BYTES = 1 + KEY_ID_BYTES
_SIV_TAG_BYTES = 16
# AES-256-SIV takes a 512-bit key (two AES-256 keys).
_SIV_KEY_BYTES = 64
_HKDF_SALT = b"okey-rules/sealing"

# What a token holds: each purpose has its own subkey and associated data.
STATE = "state"
DEAL_ID = "deal-id"
_PURPOSES = (STATE, DEAL_ID)
# The ErrorReason names the transport reports for a token that does not open.
REASON_TOKEN_VERSION = "ERROR_REASON_TOKEN_VERSION"
REASON_UNKNOWN_KEY = "ERROR_REASON_UNKNOWN_KEY"


class TokenError(InvalidInputError):
    """A token that does not open, with the ErrorReason name to report (None: the field's)."""

    def __init__(self, field: str, description: str, reason: str | None = None) -> None:
        super().__init__(field, description)
        self.reason = reason


def _derive(key: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=_HKDF_SALT, info=info).derive(key)


@dataclass(frozen=True, slots=True)
class SealingKey:
    """One signing key's derived material."""

    key_id: bytes
    _aeads: dict[str, AESSIV] = field(repr=False)
    # The HMAC key of seeded deal ids (docs/dealing.md, "Deal ids").
    seeded_id_key: bytes = field(repr=False)

    @classmethod
    def from_secret(cls, secret: bytes) -> SealingKey:
        return cls(
            key_id=_derive(secret, b"key id", KEY_ID_BYTES),
            _aeads={
                purpose: AESSIV(_derive(secret, f"aes-siv {purpose}".encode(), _SIV_KEY_BYTES))
                for purpose in _PURPOSES
            },
            seeded_id_key=_derive(secret, b"seeded deal id", 32),
        )

    def aead(self, purpose: str) -> AESSIV:
        return self._aeads[purpose]


class KeyRing:
    """The current signing key (seals) and the previous ones (still open their tokens)."""

    def __init__(self, current: bytes, previous: Iterable[bytes] = ()) -> None:
        self.current = SealingKey.from_secret(current)
        self._by_id: dict[bytes, SealingKey] = {}
        for secret in previous:
            sealing = SealingKey.from_secret(secret)
            self._by_id.setdefault(sealing.key_id, sealing)
        # The current key wins a key-id collision (one in 2^32 per pair of keys).
        self._by_id[self.current.key_id] = self.current

    def find(self, key_id: bytes) -> SealingKey | None:
        return self._by_id.get(key_id)

    def __len__(self) -> int:
        return len(self._by_id)


# Servers and tests pass either a ring or a bare key; rings of bare keys are built once.
_rings: dict[bytes, KeyRing] = {}


def key_ring(keys: KeyRing | bytes) -> KeyRing:
    """`keys` as a ring (a bare key: a ring of that key alone, remembered)."""
    if isinstance(keys, KeyRing):
        return keys
    ring = _rings.get(keys)
    if ring is None:
        if len(_rings) >= 64:  # tests use a handful of keys; a server passes its ring
            _rings.clear()
        ring = _rings[keys] = KeyRing(keys)
    return ring


def _associated(purpose: str, header: bytes) -> list[bytes]:
    return [b"okey-rules/" + purpose.encode(), header]


def seal(keys: KeyRing | bytes, purpose: str, plaintext: bytes) -> bytes:
    """The token of `plaintext` under the ring's current key."""
    sealing = key_ring(keys).current
    header = bytes((TOKEN_VERSION,)) + sealing.key_id
    return header + sealing.aead(purpose).encrypt(plaintext, _associated(purpose, header))


def unseal(
    keys: KeyRing | bytes, purpose: str, token: bytes, field: str, what: str
) -> tuple[bytes, SealingKey]:
    """The plaintext of `token` and the key that opened it; TokenError on `field` otherwise.

    `what` names the token in messages ("state", "deal id").
    """
    if not token:
        raise TokenError(field, f"a {what} is required: pass it exactly as the server issued it")
    if token[0] != TOKEN_VERSION:
        raise TokenError(
            field,
            f"this {what} is in format {token[0]}, which this server does not read (it reads "
            f"format {TOKEN_VERSION}): it was made by another server version, or is not a "
            f"token at all; start the round again with a new deal",
            REASON_TOKEN_VERSION,
        )
    if len(token) < _HEADER_BYTES + _SIV_TAG_BYTES:
        raise TokenError(field, f"this {what} is cut short: pass it exactly as issued")
    header = token[:_HEADER_BYTES]
    sealing = key_ring(keys).find(token[1:_HEADER_BYTES])
    if sealing is None:
        raise TokenError(
            field,
            f"this {what} was sealed under a key this server does not hold (key id "
            f"{token[1:_HEADER_BYTES].hex()}): not its signing key nor a listed previous key",
            REASON_UNKNOWN_KEY,
        )
    try:
        plaintext = sealing.aead(purpose).decrypt(
            token[_HEADER_BYTES:], _associated(purpose, header)
        )
    except InvalidTag:
        raise TokenError(
            field,
            f"this {what} does not open: it was changed after the server issued it, or it is "
            f"not a {what}",
        ) from None
    return plaintext, sealing


def text_token(token: bytes) -> str:
    """A token as URL-safe base64 without padding (deal ids travel as text)."""
    return base64.urlsafe_b64encode(token).rstrip(b"=").decode("ascii")


def token_from_text(text: str, field: str, what: str) -> bytes:
    """The bytes of a `text_token`; TokenError on `field` when it is not one."""
    try:
        raw = text.encode("ascii")
        # validate: a character outside the alphabet is an error, not skipped.
        return base64.b64decode(raw + b"=" * (-len(raw) % 4), altchars=b"-_", validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        raise TokenError(
            field, f"not a {what}: pass it exactly as the server issued it (URL-safe base64)"
        ) from None


def keyed_digest(key: bytes, label: bytes, data: bytes) -> bytes:
    """HMAC-SHA256 of `data` under `key`, domain-separated by `label`."""
    return hmac.new(key, label + b"\x00" + data, hashlib.sha256).digest()
