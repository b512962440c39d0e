"""What the conformance-vector scripts (scripts/derive_*_vectors.py) share.

Loading another derive script as a module (the scoring and opening scripts reuse
the GameService script's JSON layout and greedy player) and the command line
every derive script has: print the files, `--write DIR`, or `--search`.

A derive script imports this file as a sibling: run from scripts/ that works as
is; a test that loads a derive script by path puts scripts/ on the import path
first (tests/unit/vector_support.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any


def load_script(path: Path) -> ModuleType:
    """The script at `path` as a module named after its file (derive_deal_vectors, ...)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def run_cli(
    argv: list[str] | None,
    *,
    description: str,
    write_help: str,
    search_help: str,
    build_files: Callable[[], Mapping[str, dict[str, Any]]],
    file_text: Callable[[dict[str, Any]], str],
    dump: Callable[[Any], str],
    searches: Callable[[], Iterable[tuple[str, str]]],
) -> int:
    """A derive script's main: no option prints {file name: file} as JSON; --write DIR
    writes each file's exact text; --search prints how the special seeds were found."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--write", metavar="DIR", type=Path, help=write_help)
    parser.add_argument("--search", action="store_true", help=search_help)
    args = parser.parse_args(argv)
    if args.search:
        for name, seed in searches():
            print(f"{name} = {seed!r}")
        return 0
    files = build_files()
    if not args.write:
        print(dump(files))
        return 0
    for name, data in files.items():
        (args.write / name).write_text(file_text(data), encoding="utf-8")
        print(f"wrote {args.write / name} ({len(data['cases'])} cases)", file=sys.stderr)
    return 0
