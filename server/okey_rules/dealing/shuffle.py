"""The seeded random stream and the 106-tile shuffle, specified byte for byte in docs/dealing.md.

Every random choice of a deal comes from one `SeedStream`: SHA-256 in
counter mode over a domain-separation prefix and the seed's UTF-8 bytes. It
yields 32-bit big-endian words; `below(n)` turns them into unbiased integers
by rejection sampling; `shuffled_codes` runs Fisher-Yates over the tile codes
0..105. The same steps in any language give the same deal from the same seed.

>>> shuffled_codes("42")[:5] == shuffled_codes("42")[:5]
True
>>> sorted(shuffled_codes("any seed")) == list(range(106))
True
"""

from __future__ import annotations

import hashlib
import struct

from okey_rules.errors import InvalidInputError
from okey_rules.tiles import TILE_COUNT

# Changing any of these changes every deal: they are part of the public spec.
DOMAIN = b"okey-rules/v1/shuffle\x00"
MAX_SEED_BYTES = 256
_WORDS = struct.Struct(">8I")
_WORD_SPACE = 1 << 32


def seed_bytes(seed: str) -> bytes:
    """The seed as the stream hashes it (UTF-8, untouched); 1-256 bytes or invalid input."""
    try:
        data = seed.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputError("seed", "the seed must be valid Unicode text") from None
    if not data:
        raise InvalidInputError("seed", "the seed is empty")
    if len(data) > MAX_SEED_BYTES:
        raise InvalidInputError(
            "seed", f"the seed is {len(data)} UTF-8 bytes; at most {MAX_SEED_BYTES} are allowed"
        )
    return data


class SeedStream:
    """Counter-mode SHA-256: block i = SHA-256(DOMAIN || seed || i as 8 bytes big-endian).

    The blocks are read as consecutive 32-bit big-endian words.
    """

    __slots__ = ("_base", "_block", "_words")

    def __init__(self, seed: str) -> None:
        # Hashing the fixed prefix once and copying it per block saves ~40% of the cost.
        self._base = hashlib.sha256(DOMAIN + seed_bytes(seed))
        self._block = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        digest = self._base.copy()
        digest.update(self._block.to_bytes(8, "big"))
        self._block += 1
        # Reversed so that pop() hands the words out in stream order.
        self._words = list(reversed(_WORDS.unpack(digest.digest())))

    def word(self) -> int:
        """The next 32-bit word of the stream."""
        if not self._words:
            self._refill()
        return self._words.pop()

    def below(self, n: int) -> int:
        """An unbiased integer in 0..n-1 for 1 <= n <= 2**32.

        Words at or above the largest multiple of n that fits in 32 bits are
        skipped (rejection sampling), so every residue is equally likely.
        """
        limit = _WORD_SPACE - _WORD_SPACE % n
        while True:
            word = self.word()
            if word < limit:
                return word % n

    def die(self) -> int:
        """One roll of a six-sided die, 1-6."""
        return self.below(6) + 1


def fisher_yates(stream: SeedStream, items: list[int]) -> list[int]:
    """Shuffles `items` in place: for i from len-1 down to 1, swap i with below(i + 1)."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffled_codes(seed: str) -> list[int]:
    """The 106 tile codes in the shuffled order the seed gives."""
    return fisher_yates(SeedStream(seed), list(range(TILE_COUNT)))
