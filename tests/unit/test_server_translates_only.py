"""The server only translates: every rule lives in the engine (okey_rules). A rule's
number written in okey_server (a hand's 14 tiles, a 101 opening's 101 points, a
run's 13) means a rule is being re-implemented there; the Okey 101 view and the next
deal, once worked out in the server, are the engine's too."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "server" / "okey_server"
# Numbers that only a rule of the game would need: tiles per number/colour and per set
# (13, 53, 106), rack and hand sizes (14, 15, 21, 22), the 101 marks and penalty (101).
RULE_NUMBERS = {13, 14, 15, 21, 22, 53, 101, 106}
# Where such a number means something else, with why.
ALLOWED = {
    ("convert_hand.py", "_KEPT_LIMIT"): "a cache size, 1 << 15 entries",
}
# Engine helpers that only a view or a rule needs: the server asks the engine for the
# view and the outcome instead.
RULE_HELPERS = {"sees_whole_pile", "is_wild", "plays_as", "tile_value", "next_dealer"}


def _assigned_name(tree: ast.Module, line: int) -> str | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.lineno == line:
            target = node.targets[0]
            return target.id if isinstance(target, ast.Name) else None
    return None


def test_no_rule_number_in_the_server():
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and type(node.value) is int
                    and node.value in RULE_NUMBERS
                    and (path.name, _assigned_name(tree, node.lineno)) not in ALLOWED):
                found.append(f"{path.name}:{node.lineno}: {node.value}")
    assert not found, f"rule numbers in okey_server (import them from the engine): {found}"


def test_the_server_imports_no_helper_of_a_rule_it_should_not_apply():
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("okey_rules"):
                found += [f"{path.name}: {a.name}" for a in node.names if a.name in RULE_HELPERS]
    assert not found, f"okey_server applies a rule itself: {found}"
