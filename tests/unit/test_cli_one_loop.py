"""`okey play` has one game loop for both games (issue: one Round, nothing above the engine
asks which game it is). The game is looked up once, by --game, in okey_cli.play_main's
GAMES table; no other play module compares anything with a game's name, reads
`args.game`, asks whether a game object is of one class, or imports a game's module
into the shared loop."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "clients" / "python" / "okey_cli"
TABLE_MODULE = "play_main"  # holds GAMES, the one lookup by the game's name
GAME_NAMES = {"classic", "101", "okey101", "okey 101"}
# What every game shares: none of it may know a game by its module.
SHARED = ("play_loop", "play_table", "play_human", "play_game", "play_options", "play_seats")
GAME_MODULES = {"play_classic", "play_101", "play_policy", "play_policy101", "play_render",
                "play_render101"}


def _play_modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(CLI.glob("play*.py"))}


def _names_a_game(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.lower() in GAME_NAMES)


def game_branches(tree: ast.Module) -> list[str]:
    """Where `tree` asks which game it is: a comparison (==, !=, in, is) or a match case
    with a game's name, a read of `args.game`, or an isinstance test on a game's class."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            elements = [e for o in operands if isinstance(o, ast.Tuple | ast.List | ast.Set)
                        for e in o.elts]
            if any(_names_a_game(o) for o in [*operands, *elements]):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            found.append(f"line {node.lineno}: case {ast.unparse(node.value)}")
        elif (isinstance(node, ast.Attribute) and node.attr == "game"
              and isinstance(node.value, ast.Name) and node.value.id == "args"):
            found.append(f"line {node.lineno}: args.game")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "isinstance" and len(node.args) == 2
              and "Play" in ast.unparse(node.args[1])):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_detector_finds_each_way_of_asking_for_the_game():
    """Without this, a detector that finds nothing would pass the test below."""
    asking = ast.parse(
        'if args.game == "101":\n    pass\n'
        'if "classic" != name:\n    pass\n'
        'if game in ("101",):\n    pass\n'
        'match name:\n    case "101":\n        pass\n'
        'if isinstance(game, Okey101Play):\n    pass\n'
    )
    assert len(game_branches(asking)) == 6  # args.game is counted apart from its ==
    assert game_branches(ast.parse('GAMES = {"classic": 1, "101": 2}\nx = GAMES[key]\n')) == []


def test_the_game_names_are_looked_up_in_the_table_only():
    modules = _play_modules()
    assert TABLE_MODULE in modules
    in_table = game_branches(modules[TABLE_MODULE])
    assert len(in_table) == 1, f"the table module looks the game up once: {in_table}"
    assert in_table[0].endswith(": args.game"), in_table
    for name, tree in modules.items():
        if name != TABLE_MODULE:
            assert game_branches(tree) == [], f"okey_cli/{name}.py asks which game it is"


@pytest.mark.parametrize("shared", SHARED)
def test_the_shared_loop_knows_no_game_module(shared):
    """The loop, table, human seat and options reach a game only through GamePlay: they
    import no game's module and call no `*_101` or `*101` function."""
    tree = _play_modules()[shared]
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported |= {node.module.rsplit(".", 1)[-1], *(a.name for a in node.names)}
        elif isinstance(node, ast.Import):
            imported |= {alias.name.rsplit(".", 1)[-1] for alias in node.names}
    assert not imported & GAME_MODULES, f"{shared} imports {sorted(imported & GAME_MODULES)}"
    called = {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert not [c for c in called if c.endswith("101")], f"{shared} calls {sorted(called)}"
