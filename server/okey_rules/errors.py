"""Domain exceptions: impossible input raises these; illegal play is a value."""

from __future__ import annotations


class OkeyError(Exception):
    """Base of every exception the rules engine raises."""


class InvalidInputError(OkeyError, ValueError):
    """Input that no rule can judge: the request itself is malformed.

    `field` names the offending input (a proto field path such as
    ``tiles[3].number`` where the caller supplied one), so the transport
    layer can report it as a field violation without parsing the message.
    """

    def __init__(self, field: str, description: str) -> None:
        super().__init__(f"{field}: {description}")
        self.field = field
        self.description = description


class NotationError(InvalidInputError):
    """Tile notation that does not parse (``R14``, ``X3``, ``""``)."""


def check_seat(seat: int, player_count: int, field: str = "seat") -> None:
    """Raises `InvalidInputError` on `field` unless `seat` is one of the table's seats."""
    if not 0 <= seat < player_count:
        raise InvalidInputError(
            field, f"seat {seat} does not exist: seats are 0-{player_count - 1}"
        )
