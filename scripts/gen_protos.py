"""Generates the Python stubs of proto/okey/v1 into server/okey/v1, and of the server's own
sealed-state encoding (proto_internal/okey/internal/v1) into server/okey/internal/v1
(never edited by hand)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
INTERNAL_PROTO_DIR = ROOT / "proto_internal"
OUT_DIR = ROOT / "server"


def main() -> int:
    protos = sorted(
        str(p.relative_to(PROTO_DIR)) for p in (PROTO_DIR / "okey" / "v1").glob("*.proto")
    )
    internal = sorted(
        str(p.relative_to(INTERNAL_PROTO_DIR))
        for p in (INTERNAL_PROTO_DIR / "okey" / "internal" / "v1").glob("*.proto")
    )
    well_known = str(resources.files("grpc_tools") / "_proto")
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_DIR}",
        f"-I{INTERNAL_PROTO_DIR}",
        f"-I{well_known}",
        f"--python_out={OUT_DIR}",
        f"--pyi_out={OUT_DIR}",
        f"--grpc_python_out={OUT_DIR}",
        *protos,
        *internal,
    ]
    code = protoc.main(args)
    if code != 0:
        print("protoc failed", file=sys.stderr)
        return int(code)
    # Regular packages, so setuptools and mypy find the generated modules.
    okey = OUT_DIR / "okey"
    for package in (okey, okey / "v1", okey / "internal", okey / "internal" / "v1"):
        (package / "__init__.py").touch()
    (OUT_DIR / "okey" / "v1" / ".generated").touch()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
