"""Property tests of tile notation: parse(format(x)) == x, format(parse(s)) canonical."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules.errors import NotationError
from okey_rules.tiles import Tile, format_tile, format_tiles, parse_tile, parse_tiles
from strategies import physical, tile_lists, tiles

FAST = settings(max_examples=300, deadline=None)
SEPARATORS = st.text(alphabet=" ,\t\n", min_size=1, max_size=4)
# docs/rules.md §1 spelled out: the only words notation has.
CANONICAL = {f"{c}{n}" for c in "RYBK" for n in range(1, 14)} | {"F"}


def _first_copies(tile_list: list[Tile]) -> list[Tile]:
    """What notation keeps of tiles: the face, the first of a face as copy 0, the next copy 1."""
    return physical([t.face for t in tile_list])


@FAST
@given(tiles)
def test_parse_of_format_is_the_tile_up_to_its_copy(tile):
    # Notation never shows the copy index (docs/rules.md §1): a single tile reads as copy 0.
    assert parse_tile(format_tile(tile)) == Tile.from_face(tile.face)
    assert parse_tile(format_tile(tile)).face == tile.face


@FAST
@given(tile_lists(max_size=30))
def test_parse_of_format_numbers_copies_in_order_of_appearance(tile_list):
    assert parse_tiles(format_tiles(tile_list)) == _first_copies(tile_list)


@FAST
@given(st.lists(st.integers(0, 52), max_size=30).filter(lambda fs: max(Counter(fs).values(),
                                                                          default=0) <= 2))
def test_parse_of_format_is_exact_for_copies_numbered_first_come(faces):
    tile_list = physical(faces)
    assert parse_tiles(format_tiles(tile_list)) == tile_list


@st.composite
def _spelled(draw: st.DrawFn) -> tuple[str, str]:
    """(any spelling of a tile list, its canonical spelling)."""
    tile_list = draw(tile_lists(max_size=20))
    words = []
    for tile in tile_list:
        word = format_tile(tile)
        words.append("".join(c.lower() if draw(st.booleans()) else c for c in word))
    lead = draw(st.sampled_from(["", " ", ",", " , "]))
    text = lead + "".join(w + draw(SEPARATORS) for w in words)
    return text, " ".join(format_tile(t) for t in tile_list)


@FAST
@given(_spelled())
def test_format_of_parse_is_canonical_for_any_case_and_separators(spelled):
    text, canonical = spelled
    assert format_tiles(parse_tiles(text)) == canonical


@FAST
@given(st.text(alphabet="RYBKFrybkf0123456789 ,x-", max_size=12))
def test_parse_tiles_either_reads_canonically_or_raises_notation_error(text):
    # No lenient guessing: a word is read only if it is notation (any case), else an error.
    words = [w for w in text.replace(",", " ").upper().split() if w]
    if not all(w in CANONICAL for w in words):
        with pytest.raises(NotationError) as caught:
            parse_tiles(text)
        assert caught.value.field.startswith("[")
        return
    parsed = parse_tiles(text)
    assert format_tiles(parsed).split() == words


@FAST
@given(st.text(max_size=10))
def test_any_text_parses_to_ascii_notation_words_or_raises_notation_error(text):
    # Strict reading: no other exception, and no look-alike letter
    # or digit (full-width, ligature, other scripts) is ever read as a tile.
    try:
        parsed = parse_tiles(text)
    except NotationError:
        return
    assert len(parsed) == len(re.findall(r"[^\s,]+", text))
    assert all(word.isascii() for word in re.findall(r"[^\s,]+", text))
