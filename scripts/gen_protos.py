"""Generates the Python stubs of proto/okey/v1 into server/okey/v1, and of the server's own
sealed-state encoding (proto_internal/okey/internal/v1) into server/okey/internal/v1
(never edited by hand).

Beside the gRPC stubs, protoc-gen-connectrpc writes ``okey/v1/*_connect.py``: the
services as ASGI applications for the HTTP listener (okey_server.http), on Google's
protobuf runtime (the messages are the same *_pb2 classes the gRPC server uses) and
asyncio only. The plugin is a Python package; protoc runs it as an executable.
"""

from __future__ import annotations

import shutil
import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
INTERNAL_PROTO_DIR = ROOT / "proto_internal"
OUT_DIR = ROOT / "server"
CONNECT_PLUGIN = "protoc-gen-connectrpc"
# Google's protobuf classes (not protobuf-py's), async code only (the server is asyncio).
CONNECT_OPTIONS = "protobuf=google,io=async"


def connect_plugin() -> str:
    """The plugin's executable: on PATH (pip's build environment puts it there), else
    beside this interpreter (a venv's bin, run without activating it)."""
    found = shutil.which(CONNECT_PLUGIN) or shutil.which(
        CONNECT_PLUGIN, path=str(Path(sys.executable).parent)
    )
    if found is None:
        raise SystemExit(f"{CONNECT_PLUGIN} is not installed (pip install protoc-gen-connectrpc)")
    return found


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
    # The public services only: the internal protos declare none.
    code = protoc.main([
        "grpc_tools.protoc",
        f"-I{PROTO_DIR}",
        f"-I{well_known}",
        f"--plugin={CONNECT_PLUGIN}={connect_plugin()}",
        f"--connectrpc_out={OUT_DIR}",
        f"--connectrpc_opt={CONNECT_OPTIONS}",
        *protos,
    ])
    if code != 0:
        print(f"protoc ({CONNECT_PLUGIN}) failed", file=sys.stderr)
        return int(code)
    # Regular packages, so setuptools and mypy find the generated modules.
    okey = OUT_DIR / "okey"
    for package in (okey, okey / "v1", okey / "internal", okey / "internal" / "v1"):
        (package / "__init__.py").touch()
    (OUT_DIR / "okey" / "v1" / ".generated").touch()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
