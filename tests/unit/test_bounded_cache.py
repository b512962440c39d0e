"""The one bounded cache every engine table uses: bounded, emptied whole, same dict."""

from __future__ import annotations

from okey_rules.bounded_cache import BoundedCache


def test_put_empties_a_full_cache_before_storing():
    cache: BoundedCache[int, str] = BoundedCache(limit=3)
    for key in range(3):
        assert cache.put(key, str(key)) == str(key)
    assert len(cache) == 3
    cache.put(3, "3")  # full: emptied, then stored
    assert cache.entries == {3: "3"}


def test_make_room_empties_only_a_full_cache_and_keeps_the_same_dict():
    cache: BoundedCache[int, int] = BoundedCache(limit=2)
    entries = cache.entries  # hot loops bind this once
    cache.put(1, 1)
    cache.make_room()
    assert entries == {1: 1}
    cache.put(2, 2)
    cache.make_room()
    assert cache.entries is entries
    assert entries == {}


def test_get_and_clear():
    cache: BoundedCache[str, int] = BoundedCache(limit=10)
    cache.put("a", 1)
    assert cache.get("a") == 1
    assert cache.get("b") is None
    cache.clear()
    assert len(cache) == 0


def test_every_engine_table_is_a_bounded_cache():
    from okey_rules.search import arrange, meld_table, melds

    tables = [*melds._choices, *melds._skips, arrange._JOINED, arrange._built, arrange._built_pairs]
    tables += [cache for per_option in meld_table.candidate_cache for cache in per_option]
    assert all(isinstance(table, BoundedCache) for table in tables)
