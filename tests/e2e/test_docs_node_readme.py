"""clients/node/README.md imports the client by its package name, and every name it
imports is exported (issue 24, point 8: the README imported './src/index.js')."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

NODE_CLIENT = Path(__file__).resolve().parents[2] / "clients" / "node"
PACKAGE_NAME = json.loads((NODE_CLIENT / "package.json").read_text())["name"]
# A bound for node to finish, not a timing assertion.
RUN_DEADLINE_S = 60


def readme_imports() -> list[tuple[str, list[str]]]:
    """(module, imported names) of each `import {...} from '...'` in the README's JS."""
    text = (NODE_CLIENT / "README.md").read_text(encoding="utf-8")
    code = "\n".join(re.findall(r"^```js\n(.*?)^```", text, re.S | re.M))
    return [(module, [name.strip().split(" as ")[0] for name in names.split(",") if name.strip()])
            for names, module in re.findall(r"import\s*\{([^}]*)\}\s*from\s*'([^']+)'", code)]


def test_the_readme_imports_the_package_by_name():
    imports = readme_imports()
    assert imports
    assert [module for module, _ in imports if module != PACKAGE_NAME] == []


def test_every_name_the_readme_imports_is_exported():
    node = shutil.which("node")
    if node is None or not (NODE_CLIENT / "node_modules").is_dir():
        pytest.skip("node or clients/node/node_modules is missing (make docs installs them)")
    script = (f"const m = await import('{PACKAGE_NAME}');"
              " console.log(JSON.stringify(Object.keys(m)));")
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], cwd=NODE_CLIENT, capture_output=True,
        text=True, stdin=subprocess.DEVNULL, timeout=RUN_DEADLINE_S, check=False,
    )
    assert done.returncode == 0, done.stderr
    exported = set(json.loads(done.stdout))
    wanted = {name for _, names in readme_imports() for name in names}
    assert sorted(wanted - exported) == []
