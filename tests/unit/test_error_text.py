"""Messages keep their letters (issue 21, point 8): every error description, illegal-move
message and score line the engine, the server and the CLI write is UTF-8 text as written
("gösterme", never "g\\xf6sterme"), and the server's error path sends it so.

The messages are found in the sources themselves: every string given to an exception
(InvalidInputError, CliError, ...), to an illegal-move result (`_illegal`) or to a score
line (`_line`, ScoreLine). Each is checked as written and as the server would send it
in a status (okey_server.rpc.errors). tests/service/test_scoring_requests.py and
tests/e2e/test_cli_score.py follow one such message through gRPC and the CLI.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from google.rpc import error_details_pb2, status_pb2
from okey_rules.errors import InvalidInputError
from okey_server.rpc.errors import bounded_description, invalid_input_status

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    ROOT / "server" / "okey_rules",
    ROOT / "server" / "okey_server",
    ROOT / "clients" / "python" / "okey_cli",
]
# A character written as an escape instead of itself: \xf6, \u00f6, \U000000f6, \N{...}.
ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{)")
# Calls whose string arguments are messages a caller or a player reads.
MESSAGE_CALLS = frozenset({"_illegal", "_line", "ScoreLine", "error"})
PLACEHOLDER = "0"  # what a formatted value ({seat}, {text!r}) reads as in a sample


@dataclass(frozen=True)
class Message:
    where: str  # path:line
    text: str  # the literal, each formatted value as PLACEHOLDER
    ascii_conversion: bool  # a {value!a} in it: the escaping this test forbids


def _callee(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _sample(node: ast.expr) -> tuple[str, bool] | None:
    """The text a string expression writes, formatted values as PLACEHOLDER; None if it
    is no string literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, False
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        ascii_conversion = False
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            elif isinstance(value, ast.FormattedValue):
                parts.append(PLACEHOLDER)
                ascii_conversion |= value.conversion == ord("a")
        return "".join(parts), ascii_conversion
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _sample(node.left), _sample(node.right)
        if left is not None and right is not None:
            return left[0] + right[0], left[1] or right[1]
    return None


def messages() -> list[Message]:
    found: list[Message] = []
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = _callee(node)
                if not (name.endswith("Error") or name in MESSAGE_CALLS):
                    continue
                for argument in [*node.args, *(k.value for k in node.keywords)]:
                    sample = _sample(argument)
                    if sample is not None:
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        found.append(Message(where, *sample))
    return found


MESSAGES = messages()


def test_the_scan_finds_the_messages() -> None:
    """The scan reads what it should: the engine's errors, its illegal moves, its score
    lines and the CLI's, among them the ones that say gösterme."""
    places = {m.where.split(":")[0] for m in MESSAGES}
    assert len(MESSAGES) > 200
    assert {"server/okey_rules/scores/scoring.py", "server/okey_rules/play/game.py",
            "server/okey_server/wire/convert_scoring.py",
            "clients/python/okey_cli/score_cmd.py"} <= places
    assert sum("gösterme" in m.text for m in MESSAGES) >= 3


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: m.where)
def test_a_message_is_text_as_written_and_as_the_server_sends_it(message: Message) -> None:
    """No letter is written as an escape nor formatted with !a (ascii()); through the
    server's error path (okey_server.rpc.errors) the text stays as written, in the status
    message and in the BadRequest details: whole, or cut short when long."""
    assert not ESCAPE.search(message.text), message.text
    assert not message.ascii_conversion
    sent = bounded_description(message.text)
    assert not ESCAPE.search(sent), sent
    if message.text.isprintable():
        assert message.text.startswith(sent.removesuffix("\u2026")), sent
    _, details, metadata = invalid_input_status(InvalidInputError("round", message.text))
    assert details == f"invalid round: {sent}"
    status = status_pb2.Status.FromString(dict(metadata)["grpc-status-details-bin"])
    bad_request = error_details_pb2.BadRequest()
    assert status.details[0].Unpack(bad_request)
    assert bad_request.field_violations[0].description == sent


def test_the_gosterme_refusal_keeps_its_letter() -> None:
    """The message of the issue: a seat showing gösterme twice in a scored round."""
    _, details, _ = invalid_input_status(
        InvalidInputError("round.result.gosterme_seats[1]", "seat 1 shows gösterme once a round")
    )
    assert details == "invalid round.result.gosterme_seats[1]: seat 1 shows gösterme once a round"
