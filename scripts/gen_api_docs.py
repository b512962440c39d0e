"""Generates docs/api.md from the comments of proto/okey/v1 and lists undocumented elements."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from google.protobuf import descriptor_pb2 as d
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PACKAGE = "okey.v1"
API_MD = ROOT / "docs" / "api.md"

# Field numbers of the descriptor messages, which SourceCodeInfo paths are
# made of (descriptor.proto): they locate each element's comments.
FILE_MESSAGE, FILE_ENUM, FILE_SERVICE = 4, 5, 6
MESSAGE_FIELD, MESSAGE_NESTED, MESSAGE_ENUM, MESSAGE_ONEOF = 2, 3, 4, 8
ENUM_VALUE = 2
SERVICE_METHOD = 2

SCALAR_NAMES = {
    d.FieldDescriptorProto.TYPE_DOUBLE: "double",
    d.FieldDescriptorProto.TYPE_FLOAT: "float",
    d.FieldDescriptorProto.TYPE_INT64: "int64",
    d.FieldDescriptorProto.TYPE_UINT64: "uint64",
    d.FieldDescriptorProto.TYPE_INT32: "int32",
    d.FieldDescriptorProto.TYPE_FIXED64: "fixed64",
    d.FieldDescriptorProto.TYPE_FIXED32: "fixed32",
    d.FieldDescriptorProto.TYPE_BOOL: "bool",
    d.FieldDescriptorProto.TYPE_STRING: "string",
    d.FieldDescriptorProto.TYPE_BYTES: "bytes",
    d.FieldDescriptorProto.TYPE_UINT32: "uint32",
    d.FieldDescriptorProto.TYPE_SFIXED32: "sfixed32",
    d.FieldDescriptorProto.TYPE_SFIXED64: "sfixed64",
    d.FieldDescriptorProto.TYPE_SINT32: "sint32",
    d.FieldDescriptorProto.TYPE_SINT64: "sint64",
}


def proto_files(proto_dir: Path = PROTO_DIR) -> list[str]:
    """The package's .proto files, relative to `proto_dir`, in name order."""
    package_dir = proto_dir.joinpath(*PACKAGE.split("."))
    return sorted(p.relative_to(proto_dir).as_posix() for p in package_dir.glob("*.proto"))


def descriptor_set(proto_dir: Path = PROTO_DIR) -> d.FileDescriptorSet:
    """Compiles the package with protoc, keeping comments (source info)."""
    well_known = str(resources.files("grpc_tools") / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "okey.pb"
        code = protoc.main([
            "grpc_tools.protoc",
            f"-I{proto_dir}",
            f"-I{well_known}",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            *proto_files(proto_dir),
        ])
        if code != 0:
            raise RuntimeError(f"protoc failed on {proto_dir} (exit {code})")
        return d.FileDescriptorSet.FromString(out.read_bytes())


@dataclass(frozen=True)
class Element:
    """One documentable element of a proto file and its leading comment."""

    kind: str  # "service", "rpc", "message", "field", "oneof", "enum", "enum value"
    name: str  # full name, e.g. "okey.v1.Tile.color"
    file: str
    line: int  # 1-based
    comment: str


def _comment_index(file: d.FileDescriptorProto) -> dict[tuple[int, ...], d.SourceCodeInfo.Location]:
    return {tuple(loc.path): loc for loc in file.source_code_info.location}


def _clean(comment: str) -> str:
    # protoc keeps the space after "//" and the final newline; drop both.
    lines = [line[1:] if line.startswith(" ") else line for line in comment.split("\n")]
    return "\n".join(lines).strip()


def elements(file: d.FileDescriptorProto) -> Iterator[Element]:
    """Every service, rpc, message, field, oneof, enum and enum value of a file."""
    index = _comment_index(file)
    prefix = file.package

    def element(kind: str, name: str, path: tuple[int, ...]) -> Element:
        loc = index.get(path)
        line = loc.span[0] + 1 if loc else 0
        return Element(kind, name, file.name, line, _clean(loc.leading_comments) if loc else "")

    def enum(e: d.EnumDescriptorProto, scope: str, path: tuple[int, ...]) -> Iterator[Element]:
        yield element("enum", f"{scope}.{e.name}", path)
        for i, value in enumerate(e.value):
            yield element("enum value", f"{scope}.{e.name}.{value.name}", (*path, ENUM_VALUE, i))

    def message(m: d.DescriptorProto, scope: str, path: tuple[int, ...]) -> Iterator[Element]:
        name = f"{scope}.{m.name}"
        if m.options.map_entry:
            return  # synthesised by protoc for a map field; documented by that field
        yield element("message", name, path)
        for i, field in enumerate(m.field):
            yield element("field", f"{name}.{field.name}", (*path, MESSAGE_FIELD, i))
        synthetic = {f.oneof_index for f in m.field if f.proto3_optional}
        for i, oneof in enumerate(m.oneof_decl):
            if i not in synthetic:  # proto3 `optional` makes a hidden oneof per field
                yield element("oneof", f"{name}.{oneof.name}", (*path, MESSAGE_ONEOF, i))
        for i, nested in enumerate(m.nested_type):
            yield from message(nested, name, (*path, MESSAGE_NESTED, i))
        for i, nested_enum in enumerate(m.enum_type):
            yield from enum(nested_enum, name, (*path, MESSAGE_ENUM, i))

    for i, service in enumerate(file.service):
        yield element("service", f"{prefix}.{service.name}", (FILE_SERVICE, i))
        for j, method in enumerate(service.method):
            rpc_path = (FILE_SERVICE, i, SERVICE_METHOD, j)
            yield element("rpc", f"{prefix}.{service.name}.{method.name}", rpc_path)
    for i, msg in enumerate(file.message_type):
        yield from message(msg, prefix, (FILE_MESSAGE, i))
    for i, top_enum in enumerate(file.enum_type):
        yield from enum(top_enum, prefix, (FILE_ENUM, i))


def undocumented(fds: d.FileDescriptorSet) -> list[Element]:
    """Elements without a leading comment (a trailing one does not count)."""
    return [e for f in fds.file for e in elements(f) if not e.comment]


# --- Markdown -----------------------------------------------------------------


def _anchor(full_name: str) -> str:
    return f'<a id="{full_name}"></a>'


def _cell(text: str) -> str:
    """A comment as one Markdown table cell: paragraphs kept, pipes escaped."""
    paragraphs = [" ".join(p.split()) for p in text.replace("|", "\\|").split("\n\n")]
    return "<br><br>".join(p for p in paragraphs if p)


def _short(full_name: str) -> str:
    return full_name.removeprefix(f"{PACKAGE}.")


def _type_ref(type_name: str, known: set[str]) -> str:
    name = type_name.lstrip(".")
    if name in known:
        return f"[{_short(name)}](#{name})"
    return f"`{name}`"


ByName = dict[str, Element]


class _Renderer:
    """Renders one FileDescriptorSet; keeps the type index that links need."""

    def __init__(self, fds: d.FileDescriptorSet) -> None:
        self.files = sorted(fds.file, key=lambda f: f.name)
        self.known: set[str] = set()
        self.map_entries: dict[str, d.DescriptorProto] = {}
        for file in self.files:
            for e in elements(file):
                if e.kind in {"message", "enum"}:
                    self.known.add(e.name)
            for msg in file.message_type:
                self._index_maps(msg, file.package)

    def _index_maps(self, msg: d.DescriptorProto, scope: str) -> None:
        name = f"{scope}.{msg.name}"
        for nested in msg.nested_type:
            if nested.options.map_entry:
                self.map_entries[f"{name}.{nested.name}"] = nested
            else:
                self._index_maps(nested, name)

    def field_type(self, field: d.FieldDescriptorProto) -> str:
        if field.type_name and field.type_name.lstrip(".") in self.map_entries:
            entry = self.map_entries[field.type_name.lstrip(".")]
            key, value = entry.field[0], entry.field[1]
            return f"map&lt;{self.field_type(key)}, {self.field_type(value)}&gt;"
        base = (
            _type_ref(field.type_name, self.known)
            if field.type_name
            else f"`{SCALAR_NAMES[field.type]}`"
        )
        if field.label == d.FieldDescriptorProto.LABEL_REPEATED:
            return f"repeated {base}"
        if field.proto3_optional:
            return f"optional {base}"
        return base

    def render(self) -> str:
        out: list[str] = [
            f"# {PACKAGE} API reference",
            "",
            "Generated by `scripts/gen_api_docs.py` from the comments in"
            f" `proto/{PACKAGE.replace('.', '/')}/*.proto`; do not edit by hand, run `make docs`.",
            "",
            "Every field has a proto name (used by generated code and in"
            " `google.rpc.BadRequest` field violations) and a JSON name (proto3 JSON,"
            " as grpcurl and the Node client send it); JSON parsers accept both.",
            "An unset field means its default value (0, false, empty, the"
            " `*_UNSPECIFIED` enum value).",
            "",
            "## Services",
            "",
            "| RPC | Request | Response | Description |",
            "| --- | --- | --- | --- |",
        ]
        for file in self.files:
            for e in elements(file):
                if e.kind != "rpc":
                    continue
                service_name, method_name = e.name.rsplit(".", 1)
                method = self._method(file, service_name, method_name)
                out.append(
                    f"| [{_short(service_name)}.{method_name}](#{e.name}) "
                    f"| {_type_ref(method.input_type, self.known)} "
                    f"| {_type_ref(method.output_type, self.known)} "
                    f"| {_cell(e.comment)} |"
                )
        out.append("")
        for file in self.files:
            out.extend(self._file(file))
        return "\n".join(out).rstrip("\n") + "\n"

    @staticmethod
    def _method(file: d.FileDescriptorProto, service: str, method: str) -> d.MethodDescriptorProto:
        for s in file.service:
            if f"{file.package}.{s.name}" == service:
                for m in s.method:
                    if m.name == method:
                        return m
        raise KeyError(f"{service}.{method}")

    def _file(self, file: d.FileDescriptorProto) -> list[str]:
        out = [f"## {file.name}", ""]
        items = list(elements(file))
        by_name = {e.name: e for e in items}
        for e in items:
            if e.kind == "service":
                out.extend(self._service(file, e, by_name))
            elif e.kind == "message":
                out.extend(self._message(file, e, by_name))
            elif e.kind == "enum":
                out.extend(self._enum(file, e, by_name))
        return out

    def _heading(self, kind: str, e: Element) -> list[str]:
        return [f"### {_anchor(e.name)}{_short(e.name)} ({kind})", "", e.comment, ""]

    def _service(self, file: d.FileDescriptorProto, e: Element, by_name: ByName) -> list[str]:
        out = self._heading("service", e)
        service = next(s for s in file.service if f"{file.package}.{s.name}" == e.name)
        for m in service.method:
            rpc = by_name[f"{e.name}.{m.name}"]
            out += [
                f"#### {_anchor(rpc.name)}{m.name}",
                "",
                f"`rpc {m.name}({_short(m.input_type.lstrip('.'))})"
                f" returns ({_short(m.output_type.lstrip('.'))})`",
                "",
                rpc.comment,
                "",
            ]
        return out

    def _message(self, file: d.FileDescriptorProto, e: Element, by_name: ByName) -> list[str]:
        out = self._heading("message", e)
        msg = self._find_message(file, e.name)
        if not msg.field:
            return [*out, "No fields.", ""]
        out += ["| Field | JSON name | Type | Description |", "| --- | --- | --- | --- |"]
        for field in msg.field:
            doc = by_name[f"{e.name}.{field.name}"].comment
            if field.HasField("oneof_index") and not field.proto3_optional:
                oneof = msg.oneof_decl[field.oneof_index].name
                doc = f"(oneof `{oneof}`) {doc}"
            names = f"`{field.name}` | `{field.json_name}`"
            out.append(f"| {names} | {self.field_type(field)} | {_cell(doc)} |")
        return [*out, ""]

    def _enum(self, file: d.FileDescriptorProto, e: Element, by_name: ByName) -> list[str]:
        out = [*self._heading("enum", e), "| Value | Number | Description |", "| --- | --- | --- |"]
        enum = self._find_enum(file, e.name)
        for value in enum.value:
            doc = by_name[f"{e.name}.{value.name}"].comment
            out.append(f"| `{value.name}` | {value.number} | {_cell(doc)} |")
        return [*out, ""]

    @staticmethod
    def _find_message(file: d.FileDescriptorProto, full_name: str) -> d.DescriptorProto:
        parts = full_name.removeprefix(f"{file.package}.").split(".")
        candidates = file.message_type
        found: d.DescriptorProto | None = None
        for part in parts:
            found = next(m for m in candidates if m.name == part)
            candidates = found.nested_type
        assert found is not None
        return found

    def _find_enum(self, file: d.FileDescriptorProto, full_name: str) -> d.EnumDescriptorProto:
        scope, name = full_name.rsplit(".", 1)
        enums = (
            file.enum_type if scope == file.package else self._find_message(file, scope).enum_type
        )
        return next(en for en in enums if en.name == name)


def render_markdown(fds: d.FileDescriptorSet) -> str:
    """The Markdown API reference of a descriptor set (with source info)."""
    return _Renderer(fds).render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/api.md is stale")
    parser.add_argument("--out", type=Path, default=API_MD)
    args = parser.parse_args(argv)

    fds = descriptor_set()
    missing = undocumented(fds)
    for e in missing:
        print(f"{e.file}:{e.line}: {e.kind} {e.name} has no leading comment", file=sys.stderr)
    text = render_markdown(fds)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is stale: run `make docs`", file=sys.stderr)
            return 1
        return 1 if missing else 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
