"""Build hook: the okey.v1 gRPC stubs are generated from proto/ while the package builds.

The stubs (package ``okey.v1``) are not tracked in git. ``build_py`` runs
scripts/gen_protos.py (grpc_tools.protoc, pinned in [build-system].requires)
before it collects the packages, so ``pip install .``, ``pip wheel .`` and
``python -m build`` work on a clean clone and the wheel ships the stubs.
Everything else about the package is declared in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
GENERATOR = ROOT / "scripts" / "gen_protos.py"
# Where gen_protos.py writes (the same place as `make gen`), relative to ROOT.
STUBS_DIR = "server/okey"
STUB_PACKAGES = ("okey", "okey.v1", "okey.internal", "okey.internal.v1")


def generate_stubs() -> None:
    """Runs scripts/gen_protos.py, the one place that knows the protoc arguments."""
    spec = importlib.util.spec_from_file_location("gen_protos", GENERATOR)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {GENERATOR}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    code = module.main()
    if code != 0:
        raise RuntimeError(f"generating the okey.v1 stubs failed ({GENERATOR} exited {code})")
    # PEP 561: the generated .pyi stubs are complete, so type checkers may use them.
    (ROOT / STUBS_DIR / "py.typed").touch()


class BuildPyWithStubs(build_py):
    """build_py that generates okey.v1 first and adds it to the packages.

    Package discovery ran when the configuration was read; on a clean clone
    server/okey did not exist yet, so the generated packages are added here.
    This also serves editable installs: setuptools runs build_py there too
    and maps the packages it lists.
    """

    def run(self) -> None:
        generate_stubs()
        self._add_stub_packages()
        super().run()

    def _add_stub_packages(self) -> None:
        dist: Any = self.distribution
        for listed in (dist.packages, self.packages):
            for name in STUB_PACKAGES:
                if name not in listed:
                    listed.append(name)
        for mapping in (dist.package_dir, self.package_dir):
            mapping.setdefault("okey", STUBS_DIR)


setup(cmdclass={"build_py": BuildPyWithStubs})
