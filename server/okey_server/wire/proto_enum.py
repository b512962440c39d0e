"""Generated enum values looked up by name, typed as their enum (not the stubs' plain int)."""

from __future__ import annotations

from typing import TypeVar, cast

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

_E = TypeVar("_E", bound=int)


def enum_value(enum: type[_E], name: str) -> _E:
    """The value of `enum` called `name` (ValueError when there is none).

    A generated enum (e.g. game_pb2.IllegalReason) is a class to the type checker
    and an EnumTypeWrapper at run time, whose Value the stubs type as int; the
    number is the enum's all the same, hence the casts.
    """
    return cast(_E, cast(EnumTypeWrapper, enum).Value(name))
