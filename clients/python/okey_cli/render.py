"""Readable text for hand verdicts: tiles in notation, colour-coded on a terminal."""

from __future__ import annotations

import os
from typing import Any, TextIO

from okey.v1 import hand_pb2, tile_pb2

_LETTERS = {
    tile_pb2.COLOR_RED: "R",
    tile_pb2.COLOR_YELLOW: "Y",
    tile_pb2.COLOR_BLUE: "B",
    tile_pb2.COLOR_BLACK: "K",
}
# ANSI foreground colours; black tiles use bright black so they show on dark terminals.
_ANSI = {
    tile_pb2.COLOR_RED: "31",
    tile_pb2.COLOR_YELLOW: "33",
    tile_pb2.COLOR_BLUE: "34",
    tile_pb2.COLOR_BLACK: "90",
}
_BOLD = "1"
_RESET = "\x1b[0m"

_WIN_KINDS: dict[int, str] = {
    hand_pb2.WIN_KIND_MELDS: "melds",
    hand_pb2.WIN_KIND_SEVEN_PAIRS: "seven pairs",
    hand_pb2.WIN_KIND_KAFA: "kafa",
}
_MELD_KINDS = {
    hand_pb2.MELD_KIND_SET: "set",
    hand_pb2.MELD_KIND_RUN: "run",
    hand_pb2.MELD_KIND_PAIR: "pair",
}


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


class Painter:
    """Writes tiles in notation, with ANSI colours when `colour` is on."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def _paint(self, text: str, *codes: str) -> str:
        if not self.colour or not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}{_RESET}"

    def tile(self, tile: Any) -> str:
        """``R7``, ``Y13``, ``F``: tile notation (docs/rules.md)."""
        if tile.false_joker:
            return self._paint("F", _BOLD)
        letter = _LETTERS.get(tile.color, "?")
        code = _ANSI.get(tile.color)
        return self._paint(f"{letter}{tile.number}", *([code] if code else []))

    def placed(self, placed: Any) -> str:
        """A tile of a meld: wilds and false jokers show what they stand for."""
        if placed.wild:
            return f"{self._paint('OK', _BOLD)}={self.tile(placed.stands_for)}"
        if placed.tile.false_joker:
            return f"{self._paint('F', _BOLD)}={self.tile(placed.stands_for)}"
        return self.tile(placed.tile)


def win_kind(kind: int) -> str:
    return _WIN_KINDS.get(kind, "unknown")


def arrangement_lines(arrangement: Any, painter: Painter, indent: str = "  ") -> list[str]:
    """One line per meld: its kind, then its tiles in order."""
    return [
        f"{indent}{_MELD_KINDS.get(meld.kind, '?'):<4} "
        + " ".join(painter.placed(p) for p in meld.tiles)
        for meld in arrangement.melds
    ]


def hand_text(response: Any, tile_count: int, painter: Painter) -> str:
    """The whole answer to CheckHand as text: verdict first, then the details."""
    # A losing 15-tile answer looks like a losing 14-tile one: the count tells them apart.
    if tile_count == 15 or response.winning_discards:
        return "\n".join(_discards_lines(response, painter))
    return "\n".join(_fourteen_lines(response, painter))


def _wild_line(response: Any, painter: Painter) -> str:
    return f"indicator {painter.tile(response.indicator)}, okey {painter.tile(response.okey)}"


def _fourteen_lines(response: Any, painter: Painter) -> list[str]:
    if not response.winning:
        lines = ["not winning"]
        # The server's summary may say why; a bare "not winning" would only repeat.
        if response.summary and response.summary.strip().lower() != "not winning":
            lines.append(f"summary: {response.summary}")
        lines.append(_wild_line(response, painter))
        return lines
    lines = [f"winning: {win_kind(response.kind)}"]
    others = [win_kind(k) for k in response.kinds if k != response.kind]
    if others:
        lines.append(f"also wins as: {', '.join(others)}")
    lines.append(_wild_line(response, painter))
    lines += arrangement_lines(response.arrangement, painter)
    return lines


def _discards_lines(response: Any, painter: Painter) -> list[str]:
    discards = list(response.winning_discards)
    if not discards:
        lines = ["not winning: no discard leaves a winning hand"]
    else:
        count = len(discards)
        noun = "discard leaves" if count == 1 else "discards leave"
        lines = [f"winning: {count} {noun} a winning hand"]
    lines.append(_wild_line(response, painter))
    for discard in discards:
        okey = " (an okey: the double)" if discard.okey else ""
        lines.append(f"discard {painter.tile(discard.tile)}{okey} -> {win_kind(discard.kind)}")
        lines += arrangement_lines(discard.arrangement, painter, indent="    ")
    yes_no = "yes" if response.okey_discard_wins else "no"
    lines.append(f"discarding an okey wins: {yes_no}")
    return lines
