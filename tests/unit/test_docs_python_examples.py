"""The Python examples of README.md and docs/okey101.md run as printed (issue 24, point 8).

Each ```python block is run line by line in one namespace; a line `EXPR  # VALUE` is
evaluated and its repr must be VALUE. (docs/dealing.md's Python is run by
tests/unit/test_docs_trust_examples.py.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/okey101.md")


def python_blocks(doc: str) -> list[str]:
    text = (ROOT / doc).read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


@pytest.mark.parametrize("doc", DOCS)
def test_the_python_blocks_run_and_show_what_they_print(doc):
    blocks = python_blocks(doc)
    assert blocks, f"{doc} has no Python block"
    checked = 0
    for block in blocks:
        namespace: dict[str, object] = {}
        for statement in ast.parse(block).body:
            source = ast.get_source_segment(block, statement)
            assert source is not None
            line = block.splitlines()[statement.end_lineno - 1]
            shown = line.split("  # ", 1)[1] if "  # " in line else None
            if isinstance(statement, ast.Expr) and shown is not None:
                value = eval(compile(ast.Expression(statement.value), doc, "eval"), namespace)
                assert repr(value) == shown, f"{doc}: {source}"
                checked += 1
            else:
                exec(compile(ast.Module([statement], []), doc, "exec"), namespace)
    assert checked >= 1
