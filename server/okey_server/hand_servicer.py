"""okey.v1.HandService: reads CheckHand's inputs, asks the engine, writes the answer.

CheckHand is served on bytes both ways (see check_hand_request and
convert_hand): the request is read straight from its bytes and the answer
written as bytes, so `add_hand_service` registers it without protobuf's own
(de)serializers. Clients see the usual messages; reflection shows the usual
descriptors.
"""

from __future__ import annotations

import grpc
from okey.v1 import hand_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.hand import check_hand, winning_discards

from okey_server.check_hand_request import HAND_SIZES, check_hand_inputs, hand_error
from okey_server.config import Config
from okey_server.convert_hand import discards_answer, hand_answer

SERVICE = hand_pb2.DESCRIPTOR.services_by_name["HandService"]


class HandServicer:
    """Thin: every rule is in okey_rules.hand; this class only translates."""

    def __init__(self, config: Config) -> None:
        self._config = config

    def CheckHand(self, request: bytes, _context: grpc.ServicerContext) -> bytes:  # noqa: N802
        """A serialized CheckHandRequest in, a serialized CheckHandResponse out."""
        # Every input is checked before the engine runs, so a bad request is
        # never mistaken for an engine failure.
        asked = check_hand_inputs(request)
        tiles, okey, rules = asked.tiles, asked.okey, asked.rules
        try:
            if len(tiles) == HAND_SIZES[0]:
                verdict = check_hand(tiles, okey, rules)
                return hand_answer(verdict, asked.indicator, okey, asked.arrangements)
            verdicts = winning_discards(tiles, okey, rules)
            return discards_answer(verdicts, asked.indicator, okey, asked.arrangements)
        except InvalidInputError as exc:
            raise hand_error(exc, asked.hand_field) from None


def add_hand_service(server: grpc.aio.Server, servicer: HandServicer) -> str:
    """Registers HandService as the generated code would, but on bytes; returns its name."""
    handlers = {
        # No (de)serializers: grpc hands over and sends the bytes as they are.
        "CheckHand": grpc.unary_unary_rpc_method_handler(servicer.CheckHand),
    }
    missing = {method.name for method in SERVICE.methods} - handlers.keys()
    if missing:
        raise TypeError(f"HandService methods without a handler: {sorted(missing)}")
    name = str(SERVICE.full_name)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))
    server.add_registered_method_handlers(name, handlers)
    return name
