"""The proto is what polyglot users read first: every element documented, docs/api.md current."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_generator() -> ModuleType:
    path = ROOT / "scripts" / "gen_api_docs.py"
    spec = importlib.util.spec_from_file_location("gen_api_docs", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


gen = _load_generator()
PROTO_FILES = gen.proto_files()


@pytest.fixture(scope="module")
def fds():
    return gen.descriptor_set()


@pytest.mark.parametrize("proto_file", PROTO_FILES)
def test_every_service_rpc_message_field_enum_and_value_has_a_leading_comment(fds, proto_file):
    file = next(f for f in fds.file if f.name == proto_file)
    missing = [
        f"{e.file}:{e.line}: {e.kind} {e.name}" for e in gen.elements(file) if not e.comment
    ]
    assert not missing, "undocumented (add a // comment above each):\n" + "\n".join(missing)


def test_docs_api_md_is_generated_from_the_current_protos(fds):
    current = gen.API_MD.read_text(encoding="utf-8") if gen.API_MD.exists() else ""
    assert current == gen.render_markdown(fds), "docs/api.md is stale: run `make docs`"


def test_api_reference_covers_every_service_message_and_enum(fds):
    text = gen.render_markdown(fds)
    names = [
        e.name for f in fds.file for e in gen.elements(f)
        if e.kind in {"service", "rpc", "message", "enum"}
    ]
    assert names, "the package defines nothing"
    assert [n for n in names if f'<a id="{n}"></a>' not in text] == []


def test_the_checker_flags_missing_and_trailing_only_comments(tmp_path):
    # A trailing comment does not count: generators (protoc-gen-doc, the
    # language plugins) attach only the leading one to the element.
    package_dir = tmp_path / "okey" / "v1"
    package_dir.mkdir(parents=True)
    (package_dir / "probe.proto").write_text(
        'syntax = "proto3";\n'
        "package okey.v1;\n"
        "// Documented.\n"
        "service ProbeService {\n"
        "  rpc Probe(ProbeRequest) returns (ProbeRequest);\n"
        "}\n"
        "// Documented.\n"
        "message ProbeRequest {\n"
        "  // Documented.\n"
        "  string a = 1;\n"
        "  string b = 2;  // trailing only\n"
        "  optional bool c = 3;\n"
        "  // Documented.\n"
        "  oneof choice {\n"
        "    // Documented.\n"
        "    string d = 4;\n"
        "  }\n"
        "  message Inner {}\n"
        "  map<string, string> e = 5;\n"
        "}\n"
        "enum ProbeKind {\n"
        "  // Documented.\n"
        "  PROBE_KIND_UNSPECIFIED = 0;\n"
        "  PROBE_KIND_ONE = 1;\n"
        "}\n",
        encoding="utf-8",
    )
    missing = {(e.kind, e.name) for e in gen.undocumented(gen.descriptor_set(tmp_path))}
    assert missing == {
        ("rpc", "okey.v1.ProbeService.Probe"),
        ("field", "okey.v1.ProbeRequest.b"),
        ("field", "okey.v1.ProbeRequest.c"),
        ("message", "okey.v1.ProbeRequest.Inner"),
        ("field", "okey.v1.ProbeRequest.e"),
        ("enum", "okey.v1.ProbeKind"),
        ("enum value", "okey.v1.ProbeKind.PROBE_KIND_ONE"),
    }


def test_the_reference_renders_oneofs_maps_nested_types_and_optionals(tmp_path):
    package_dir = tmp_path / "okey" / "v1"
    package_dir.mkdir(parents=True)
    (package_dir / "probe.proto").write_text(
        'syntax = "proto3";\n'
        "package okey.v1;\n"
        "// A probe.\n"
        "message Probe {\n"
        "  // Kinds.\n"
        "  enum Kind {\n"
        "    // None.\n"
        "    KIND_UNSPECIFIED = 0;\n"
        "  }\n"
        "  // Inner.\n"
        "  message Inner {\n"
        "    // A kind.\n"
        "    Kind kind = 1;\n"
        "  }\n"
        "  // Labels | by key.\n"
        "  map<string, Inner> labels = 1;\n"
        "  // Maybe.\n"
        "  optional bool maybe = 2;\n"
        "  // Choice.\n"
        "  oneof choice {\n"
        "    // A number.\n"
        "    int64 big = 3;\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    text = gen.render_markdown(gen.descriptor_set(tmp_path))
    assert "map&lt;`string`, [Probe.Inner](#okey.v1.Probe.Inner)&gt;" in text
    assert "Labels \\| by key." in text
    assert "| `maybe` | `maybe` | optional `bool` |" in text
    assert "| `big` | `big` | `int64` | (oneof `choice`) A number. |" in text
    assert '<a id="okey.v1.Probe.Kind"></a>' in text
    assert "[Probe.Kind](#okey.v1.Probe.Kind)" in text
    assert "LabelsEntry" not in text, "a map's synthetic entry message is not a documented type"
