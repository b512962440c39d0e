"""One home per number and per tile value: a rule's number is written once and imported
wherever it is used, so two copies can never disagree (a 101 opening mark in the engine
and another in the CLI, a hand size in two engine modules)."""

from __future__ import annotations

import ast
import collections
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("server/okey_rules", "server/okey_server", "clients/python/okey_cli")
# A tile's number from its face (face % 13 + 1): tiles.py (the tile itself) and
# rulebook.tile_value (what a tile is worth in Okey 101) are its only homes.
TILE_NUMBER = re.compile(r"%\s*(13|NUMBERS)\s*\+\s*1\b")
TILE_NUMBER_HOMES = {"server/okey_rules/tiles.py", "server/okey_rules/rulebook.py"}


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_no_numeric_constant_is_defined_twice():
    homes: dict[tuple[str, object], list[str]] = collections.defaultdict(list)
    for path in _modules():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target, value = node.targets[0], node.value
            if (isinstance(target, ast.Name) and target.id.lstrip("_").isupper()
                    and isinstance(value, ast.Constant) and type(value.value) in (int, float)):
                homes[(target.id.lstrip("_"), value.value)].append(
                    str(path.relative_to(ROOT)))
    twice = {key: paths for key, paths in homes.items() if len(paths) > 1}
    assert not twice, f"constants defined in more than one module: {twice}"


def test_a_tiles_number_is_worked_out_in_one_place():
    elsewhere = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _modules()
        if str(path.relative_to(ROOT)) not in TILE_NUMBER_HOMES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TILE_NUMBER.search(line)
    ]
    assert not elsewhere, f"a tile's number computed outside tiles.py/rulebook.py: {elsewhere}"
