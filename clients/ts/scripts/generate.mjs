// Generates src/gen/ from the protos with protoc-gen-es (messages and service
// descriptors, TypeScript), run as a plugin of the protoc that grpcio-tools ships
// (buf's remote plugins are not needed).
//
//   node scripts/generate.mjs               writes src/gen/ (replacing what is there)
//   node scripts/generate.mjs --out DIR     writes DIR/ instead (the freshness test)
//
// The Python that has grpcio-tools: $OKEY_PYTHON, else the repository's .venv.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(PACKAGE, '..', '..');
const PROTO = path.join(ROOT, 'proto');
// The project's own copy of the two google.rpc files its errors carry (BadRequest,
// ErrorInfo and the Status around them), shared with the Node client.
const GOOGLE_RPC = path.join(ROOT, 'clients', 'node', 'proto-extra');
const PLUGIN = path.join(PACKAGE, 'node_modules', '.bin', 'protoc-gen-es');
// import_extension=js: the generated imports end in .js, as Node's ESM resolution needs;
// json_types=true: a *Json type per message, so proto3 JSON written by hand is typed too.
const OPTIONS = 'target=ts,import_extension=js,json_types=true';

function fail(message) {
  console.error(`generate: ${message}`);
  process.exit(1);
}

function parseOut(argv) {
  const at = argv.indexOf('--out');
  if (at === -1) return path.join(PACKAGE, 'src', 'gen');
  const value = argv[at + 1];
  if (!value) fail('--out needs a directory');
  return path.resolve(value);
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

const python = process.env.OKEY_PYTHON || path.join(ROOT, '.venv', 'bin', 'python');
if (!existsSync(python)) fail(`no Python at ${python} (make setup builds .venv; or set OKEY_PYTHON)`);
if (!existsSync(PLUGIN)) fail(`no ${PLUGIN}: run npm ci first`);

// The well-known types (google/protobuf/timestamp.proto, any.proto) that protoc reads.
const wellKnown = run(python, [
  '-c',
  'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))',
]).trim();

const okeyProtos = readdirSync(path.join(PROTO, 'okey', 'v1'))
  .filter((name) => name.endsWith('.proto'))
  .sort()
  .map((name) => `okey/v1/${name}`);
const protos = [...okeyProtos, 'google/rpc/error_details.proto', 'google/rpc/status.proto'];

const out = parseOut(process.argv.slice(2));
// Written beside the target first, so a failed run leaves the old files whole.
const staging = mkdtempSync(path.join(existsSync(path.dirname(out)) ? path.dirname(out) : tmpdir(), '.gen-'));
try {
  run(python, [
    '-m', 'grpc_tools.protoc',
    `--plugin=protoc-gen-es=${PLUGIN}`,
    `--es_out=${staging}`,
    `--es_opt=${OPTIONS}`,
    `-I${PROTO}`,
    `-I${GOOGLE_RPC}`,
    `-I${wellKnown}`,
    ...protos,
  ]);
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
console.log(`generate: ${protos.length} protos -> ${path.relative(process.cwd(), out) || '.'}`);
