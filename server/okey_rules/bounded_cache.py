"""One bounded cache for every table the engine keeps between calls.

The engine remembers what it worked out (search remainders, candidate melds,
built melds) because the same answers recur across hands. A long-running
server must not grow those tables without end, so each one is a
`BoundedCache`: a plain dict, emptied whole when it is full. Emptying costs
nothing per entry and the dict stays the same object, so hot loops may bind
``cache.entries`` to a local once and keep using it after a clear.

Emptying is always safe: an entry is only ever a value that can be worked
out again, and answers never depend on what a table holds.
"""

from __future__ import annotations

from typing import Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


class BoundedCache(Generic[Key, Value]):
    """A dict of at most about `limit` entries: emptied when it reaches `limit`.

    Use `put` to store one entry (it makes room first). A search that stores
    many entries as it goes calls `make_room` once before it starts and then
    writes to `entries` directly: the table then holds at most `limit` plus
    one search's entries.
    """

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int) -> None:
        self.entries: dict[Key, Value] = {}
        self.limit = limit

    def make_room(self) -> None:
        """Empties the table if it is full."""
        if len(self.entries) >= self.limit:
            self.entries.clear()

    def put(self, key: Key, value: Value) -> Value:
        """Stores `value` under `key` (making room first) and returns it."""
        entries = self.entries
        if len(entries) >= self.limit:
            entries.clear()
        entries[key] = value
        return value

    def get(self, key: Key) -> Value | None:
        return self.entries.get(key)

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)
