// src/okey.d.ts is generated from the protos; a stale copy misleads
// TypeScript users, so the suite fails until `make docs` regenerates it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { TYPES_FILE, renderTypes } from '../scripts/gen-types.mjs';

test('src/okey.d.ts matches the protos (regenerate with `make docs` or `npm run gen-types`)', () => {
  assert.equal(readFileSync(TYPES_FILE, 'utf8'), renderTypes());
});
