// src/okey.d.ts and src/okey.js are generated from the protos; a stale copy
// misleads TypeScript users and code that switches on enum names, so the
// suite fails until `make docs` (or `npm run gen-types`) regenerates them.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { ENUMS_FILE, TYPES_FILE, renderAll, renderEnums, renderTypes } from '../scripts/gen-types.mjs';

test('src/okey.d.ts and src/okey.js match the protos (regenerate with `make docs` or `npm run gen-types`)', () => {
  const rendered = renderAll();
  assert.deepEqual(rendered.map(([file]) => file), [TYPES_FILE, ENUMS_FILE]);
  for (const [file, text] of rendered) assert.equal(readFileSync(file, 'utf8'), text, `${file} is stale`);
});

/** Renders both files for one probe .proto in the okey.v1 package. */
function renderProbe(source) {
  const dir = mkdtempSync(path.join(tmpdir(), 'okey-gen-types-'));
  try {
    mkdirSync(path.join(dir, 'okey', 'v1'), { recursive: true });
    writeFileSync(path.join(dir, 'okey', 'v1', 'probe.proto'), `syntax = "proto3";\npackage okey.v1;\n${source}`);
    return { types: renderTypes(dir), enums: renderEnums(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a oneof is typed as a union where one member is set and the others are never', () => {
  const { types } = renderProbe(`
    // A probe.
    message Probe {
      // Plain.
      string plain = 1;
      // Maybe.
      optional bool maybe = 2;
      // The choice.
      oneof choice {
        // By name.
        string by_name = 3;
        // By value.
        Probe by_value = 4;
      }
    }`);
  const start = types.indexOf('export type Probe = {');
  assert.ok(start >= 0, 'a message with a oneof is a type alias, not an interface');
  const probe = types.slice(start, types.indexOf(';\n\n', start));
  assert.match(probe, /plain: string;\n {2}\/\*\* Maybe\. \*\/\n {2}maybe\?: boolean;\n\}\n/, 'plain fields and proto3 optionals stay outside the union');
  assert.match(probe, /oneof choice \(at most one of byName, byValue\):\n \* The choice\./);
  assert.match(probe, /\| \{\n {6}\/\*\* By name\. \*\/\n {6}byName: string;\n {6}byValue\?: never;\n {4}\}/);
  assert.match(probe, /\| \{\n {6}byName\?: never;\n {6}\/\*\* By value\. \*\/\n {6}byValue: Probe;\n {4}\}/);
  assert.match(probe, /\| \{ byName\?: never; byValue\?: never; \}\n\)$/, 'a oneof may be unset');
  assert.ok(!/_maybe/.test(types), "protobufjs' synthetic oneof of a proto3 optional is not rendered");
});

test('an enum is a union of its names and a frozen object of the same names', () => {
  const { types, enums } = renderProbe(`
    // Kinds of probe.
    enum ProbeKind {
      // None.
      PROBE_KIND_UNSPECIFIED = 0;
      // One.
      PROBE_KIND_ONE = 1;
    }`);
  assert.match(types, /export type ProbeKind = 'PROBE_KIND_UNSPECIFIED' \| 'PROBE_KIND_ONE';\n/);
  assert.match(types, /export declare const ProbeKind: \{\n {2}readonly PROBE_KIND_UNSPECIFIED: 'PROBE_KIND_UNSPECIFIED';\n/);
  assert.match(enums, /\/\*\* Kinds of probe\. \*\/\nexport const ProbeKind = Object\.freeze\(\{\n {2}PROBE_KIND_UNSPECIFIED: 'PROBE_KIND_UNSPECIFIED',\n {2}PROBE_KIND_ONE: 'PROBE_KIND_ONE',\n\}\);\n/);
});

test('google.protobuf.Timestamp is typed as its proto3 JSON string; other types outside okey.v1 are refused', () => {
  const { types } = renderProbe(`
    import "google/protobuf/timestamp.proto";
    // Timed.
    message Timed {
      // When.
      google.protobuf.Timestamp at = 1;
      // Every time.
      repeated google.protobuf.Timestamp times = 2;
    }`);
  assert.match(types, /\n {2}at\?: string \/\* RFC 3339 timestamp, e\.g\. "2026-12-01T18:00:00Z" \*\/;\n/, 'a singular Timestamp has presence');
  assert.match(types, /\n {2}times: Array<string \/\* RFC 3339 timestamp, e\.g\. "2026-12-01T18:00:00Z" \*\/>;\n/);
  assert.throws(
    () => renderProbe(`
      import "google/protobuf/duration.proto";
      message Slow { google.protobuf.Duration wait = 1; }`),
    /\.okey\.v1\.Slow\.wait: type \.google\.protobuf\.Duration outside okey\.v1 is not supported/,
  );
});

test('every GameService method is in the method map that types OkeyClient.call', () => {
  const types = readFileSync(TYPES_FILE, 'utf8');
  const game = /'okey\.v1\.GameService': \{\n([^}]*)\};/.exec(types);
  assert.ok(game, 'no okey.v1.GameService entry in OkeyMethods');
  assert.deepEqual(game[1].trim().split('\n').map((l) => l.trim()), [
    'ApplyMove: [ApplyMoveRequest, ApplyMoveResponse];',
    'LegalMoves: [LegalMovesRequest, LegalMovesResponse];',
    'PlayerView: [PlayerViewRequest, PlayerViewResponse];',
    'Replay: [ReplayRequest, ReplayResponse];',
  ]);
});
