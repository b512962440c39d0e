// Generates src/okey.d.ts: TypeScript types of every okey.v1 message and
// enum in proto3 JSON form, with the proto comments, and the method map that
// types OkeyClient.call; and src/okey.js, the enums' value names as frozen
// objects (ErrorReason.ERROR_REASON_INVALID_TILES) for code to switch on.
// Run `npm run gen-types`; `--check` exits 1 when a committed file is stale
// (the unit tests compare both).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import protobuf from 'protobufjs';

import { DEFAULT_PROTO_DIR, PACKAGE, contractFiles } from '../src/contract.js';
import { isTimestampType, jsonName, realOneof } from '../src/json.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const TYPES_FILE = path.resolve(HERE, '..', 'src', 'okey.d.ts');
export const ENUMS_FILE = path.resolve(HERE, '..', 'src', 'okey.js');

const NUMBER_TYPES = new Set([
  'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'float', 'double',
]);
const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
/** google.protobuf.Timestamp in proto3 JSON form. */
const TIMESTAMP_TS = 'string /* RFC 3339 timestamp, e.g. "2026-12-01T18:00:00Z" */';

/**
 * @param {string | null} comment
 * @param {string} indent
 */
function docComment(comment, indent) {
  if (!comment) return '';
  const lines = comment.trim().split('\n').map((l) => l.replace(/\*\//g, '*\\/'));
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** @param {protobuf.ReflectionObject} obj */
function tsName(obj) {
  // Nested types are flattened Outer_Inner, since okey.v1 is a single namespace.
  return obj.fullName.slice(PACKAGE.length + 2).replace(/\./g, '_');
}

/**
 * The TypeScript type of one value of a field.
 * @param {protobuf.Field} field
 */
function valueType(field) {
  const resolved = field.resolvedType;
  // The one well-known type okey.v1 uses; proto3 JSON writes it as a string
  // (src/json.js converts it both ways).
  if (isTimestampType(resolved)) return TIMESTAMP_TS;
  if (resolved instanceof protobuf.Type || resolved instanceof protobuf.Enum) {
    if (!resolved.fullName.startsWith(`.${PACKAGE}.`)) {
      throw new Error(`${field.fullName}: type ${resolved.fullName} outside ${PACKAGE} is not supported`);
    }
    return tsName(resolved);
  }
  if (field.type === 'bool') return 'boolean';
  if (field.type === 'string') return 'string';
  if (field.type === 'bytes') return 'Bytes';
  if (LONG_TYPES.has(field.type)) return 'string /* 64-bit integer */';
  if (NUMBER_TYPES.has(field.type)) return 'number';
  throw new Error(`${field.fullName}: unsupported type ${field.type}`);
}

/**
 * @param {protobuf.Field} field
 */
function fieldType(field) {
  const value = valueType(field);
  if (field.map) return `{ [key: string]: ${value} }`;
  if (field.repeated) return value.includes(' ') ? `Array<${value}>` : `${value}[]`;
  return value;
}

/**
 * @param {protobuf.Namespace} ns
 * @param {(protobuf.Type | protobuf.Enum)[]} out
 */
function collect(ns, out) {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) {
      out.push(nested);
      collect(nested, out);
    } else if (nested instanceof protobuf.Enum) {
      out.push(nested);
    }
  }
}

/**
 * The package's messages, enums and services, loaded with comments.
 * @param {string} protoDir
 */
function loadPackage(protoDir) {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(protoDir, target);
  root.loadSync(contractFiles(protoDir), { keepCase: true, alternateCommentMode: true });
  root.resolveAll();
  const pkg = /** @type {protobuf.Namespace} */ (root.lookup(PACKAGE));
  /** @type {(protobuf.Type | protobuf.Enum)[]} */
  const types = [];
  collect(pkg, types);
  types.sort((a, b) => tsName(a).localeCompare(tsName(b)));
  const services = /** @type {protobuf.Service[]} */ (pkg.nestedArray
    .filter((n) => n instanceof protobuf.Service)
    .sort((a, b) => a.name.localeCompare(b.name)));
  return { types, services };
}

/**
 * One member line of a message type: name, optionality and type.
 * @param {protobuf.Field} f
 * @param {string} indent
 * @param {boolean} [required] the chosen member of a oneof variant
 */
function memberLine(f, indent, required = false) {
  const singularMessage = f.resolvedType instanceof protobuf.Type && !f.repeated && !f.map;
  const optional = !required && (f.partOf || singularMessage) ? '?' : '';
  return `${docComment(f.comment, indent)}${indent}${jsonName(f)}${optional}: ${fieldType(f)};\n`;
}

/**
 * A oneof as a union of object types: in each, one member is set and the
 * others are `never`, plus one in which none is set (a oneof may be unset;
 * a request that needs one is refused by the server, not by the types).
 * So TypeScript refuses two members at once, as the proto3 JSON parsers do.
 * @param {protobuf.OneOf} oneof
 */
function oneofUnion(oneof) {
  const members = oneof.fieldsArray;
  const names = members.map((f) => jsonName(f));
  const doc = `oneof ${oneof.name} (at most one of ${names.join(', ')})${oneof.comment ? `:\n${oneof.comment}` : ''}`;
  let out = `${docComment(doc, '')}& (\n`;
  for (const chosen of members) {
    out += '  | {\n';
    for (const f of members) {
      if (f === chosen) out += memberLine(f, '      ', true);
      else out += `      ${jsonName(f)}?: never;\n`;
    }
    out += '    }\n';
  }
  out += `  | { ${names.map((n) => `${n}?: never;`).join(' ')} }\n`;
  out += ')';
  return out;
}

/**
 * One message: an interface, or (when it has oneofs) the plain fields
 * intersected with one union per oneof.
 * @param {protobuf.Type} t
 */
function renderMessage(t) {
  const oneofs = t.oneofsArray.filter((o) => o.fieldsArray.length > 0 && realOneof(o.fieldsArray[0]));
  const plain = t.fieldsArray.filter((f) => !realOneof(f));
  if (oneofs.length === 0) {
    return `export interface ${tsName(t)} {\n${plain.map((f) => memberLine(f, '  ')).join('')}}\n\n`;
  }
  let out = `export type ${tsName(t)} = {\n${plain.map((f) => memberLine(f, '  ')).join('')}}\n`;
  for (const oneof of oneofs) out += `${oneofUnion(oneof)}\n`;
  return `${out.trimEnd()};\n\n`;
}

/**
 * Renders the declarations for the protos in `protoDir`.
 * @param {string} [protoDir]
 * @returns {string}
 */
export function renderTypes(protoDir = DEFAULT_PROTO_DIR) {
  const { types, services } = loadPackage(protoDir);

  let out = '// Generated by scripts/gen-types.mjs from proto/okey/v1; do not edit.\n';
  out += '// Messages in proto3 JSON form: lowerCamelCase names, enums as names,\n';
  out += '// 64-bit integers, bytes and timestamps (RFC 3339) as strings. Requests\n';
  out += '// take a DeepPartial (index.d.ts); responses have every field without\n';
  out += '// presence (emitDefaults).\n';
  out += '// A oneof is a union in which at most one member is set. Each enum is\n';
  out += '// also a value (src/okey.js): its names as a frozen object.\n\n';
  out += '/**\n';
  out += ' * A bytes field: base64 text in proto3 JSON (what call() answers); a\n';
  out += ' * request also takes a Buffer or Uint8Array. The sealed game state is one.\n';
  out += ' */\n';
  out += 'export type Bytes = string | Uint8Array;\n\n';
  for (const t of types) {
    out += docComment(t.comment, '');
    if (t instanceof protobuf.Enum) {
      const values = Object.keys(t.values);
      out += `export type ${tsName(t)} = ${values.map((v) => `'${v}'`).join(' | ')};\n`;
      out += `export declare const ${tsName(t)}: {\n${values.map((v) => `  readonly ${v}: '${v}';\n`).join('')}};\n\n`;
      continue;
    }
    out += renderMessage(t);
  }
  out += '/** Every unary method of okey.v1: [request, response] by service and method. */\n';
  out += 'export interface OkeyMethods {\n';
  for (const s of services) {
    out += `  '${PACKAGE}.${s.name}': {\n`;
    for (const m of s.methodsArray) {
      if (m.requestStream || m.responseStream) continue;
      m.resolve();
      const req = tsName(/** @type {protobuf.Type} */ (m.resolvedRequestType));
      const res = tsName(/** @type {protobuf.Type} */ (m.resolvedResponseType));
      out += `    ${m.name}: [${req}, ${res}];\n`;
    }
    out += '  };\n';
  }
  out += '}\n';
  return out;
}

/**
 * Renders src/okey.js: every enum's value names as a frozen object.
 * @param {string} [protoDir]
 * @returns {string}
 */
export function renderEnums(protoDir = DEFAULT_PROTO_DIR) {
  const { types } = loadPackage(protoDir);
  let out = '// Generated by scripts/gen-types.mjs from proto/okey/v1; do not edit.\n';
  out += '// The value names of every okey.v1 enum, as proto3 JSON spells them, for\n';
  out += '// code to compare and switch on (types: okey.d.ts).\n';
  for (const t of types) {
    if (!(t instanceof protobuf.Enum)) continue;
    out += `\n${docComment(t.comment, '')}`;
    out += `export const ${tsName(t)} = Object.freeze({\n`;
    out += Object.keys(t.values).map((v) => `  ${v}: '${v}',\n`).join('');
    out += '});\n';
  }
  return out;
}

/** The generated files and their rendered text. @param {string} [protoDir] */
export function renderAll(protoDir = DEFAULT_PROTO_DIR) {
  return [[TYPES_FILE, renderTypes(protoDir)], [ENUMS_FILE, renderEnums(protoDir)]];
}

/** @param {string[]} argv */
function main(argv) {
  const rendered = renderAll();
  if (argv.includes('--check')) {
    let status = 0;
    for (const [file, text] of rendered) {
      if (readFileSync(file, 'utf8') !== text) {
        console.error(`${file} is stale: run \`npm run gen-types\``);
        status = 1;
      }
    }
    return status;
  }
  for (const [file, text] of rendered) {
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
