"""No import cycles (issue: packages that show the architecture): within the engine, the
server and the CLI, no module imports, even inside a function, a module that imports it
back. A cycle hides which module depends on which; an import put inside a function to dodge
one is a cycle all the same. Imports under `if TYPE_CHECKING:` are for annotations only
and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "okey_rules": ROOT / "server" / "okey_rules",
    "okey_server": ROOT / "server" / "okey_server",
    "okey_cli": ROOT / "clients" / "python" / "okey_cli",
}


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _graph() -> dict[str, set[str]]:
    modules = {
        ".".join((package, *path.relative_to(folder).with_suffix("").parts)): path
        for package, folder in PACKAGES.items()
        for path in folder.rglob("*.py")
        if path.stem != "__init__"
    }
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if _type_checking_only(node, parents):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                # `from okey_cli import play_loop` imports the module okey_cli.play_loop.
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_inside_functions():
    graph = _graph()
    # imported in child_main
    assert "okey_server.rpc.serving" in graph["okey_server.rpc.processes"]


def test_no_module_imports_itself_back():
    assert _cycles(_graph()) == []
