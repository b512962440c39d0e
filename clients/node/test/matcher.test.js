// The conformance subset matcher: absent means default, objects compare key
// by key, lists element-wise with equal length, scalars exactly.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fieldMatches, loadContract, subsetMismatches } from '../src/index.js';

const Response = loadContract().root.lookupType('okey.v1.CheckHandResponse');
const actual = {
  winning: true,
  kind: 'WIN_KIND_MELDS',
  kinds: ['WIN_KIND_MELDS', 'WIN_KIND_SEVEN_PAIRS'],
  okey: { color: 'COLOR_RED', number: 5 },
  arrangement: { notation: 'R1 R2 R3', melds: [{ kind: 'MELD_KIND_RUN', tiles: [] }] },
};

test('an expected subset matches, with JSON or proto field names', () => {
  assert.deepEqual(subsetMismatches(Response, { winning: true, okey: { number: 5 } }, actual), []);
  assert.deepEqual(subsetMismatches(Response, { okey_discard_wins: false, kind: 'WIN_KIND_MELDS' }, actual), []);
  assert.deepEqual(subsetMismatches(Response, {}, actual), []);
});

test('an absent field equals its default value, also inside an absent message', () => {
  assert.deepEqual(subsetMismatches(Response, { summary: '', okeyDiscardWins: false, winningDiscards: [] }, actual), []);
  assert.deepEqual(subsetMismatches(Response, { indicator: { number: 0, color: 'COLOR_UNSPECIFIED' } }, actual), []);
  assert.deepEqual(subsetMismatches(Response, { indicator: { number: 4 } }, actual), ['indicator.number: expected 4, got 0']);
});

test('enum values compare by number, so a name and its number are equal', () => {
  assert.deepEqual(subsetMismatches(Response, { kind: 1 }, actual), []);
  assert.equal(subsetMismatches(Response, { kind: 'WIN_KIND_KAFA' }, actual).length, 1);
  assert.equal(subsetMismatches(Response, { kind: 'NOT_A_KIND' }, actual).length, 1);
});

test('lists must have the same length and match element by element', () => {
  assert.deepEqual(subsetMismatches(Response, { kinds: ['WIN_KIND_MELDS', 'WIN_KIND_SEVEN_PAIRS'] }, actual), []);
  assert.match(subsetMismatches(Response, { kinds: ['WIN_KIND_MELDS'] }, actual)[0], /kinds: expected 1 elements, got 2/);
  assert.match(
    subsetMismatches(Response, { kinds: ['WIN_KIND_SEVEN_PAIRS', 'WIN_KIND_MELDS'] }, actual)[0],
    /kinds\[0\]: expected "WIN_KIND_SEVEN_PAIRS"/,
  );
  assert.deepEqual(subsetMismatches(Response, { arrangement: { melds: [{ kind: 'MELD_KIND_RUN' }] } }, actual), []);
});

test('scalars compare exactly and unknown expected fields are reported', () => {
  assert.equal(subsetMismatches(Response, { winning: false }, actual).length, 1);
  assert.equal(subsetMismatches(Response, { okey: { number: '5' } }, actual).length, 1);
  assert.match(subsetMismatches(Response, { winner: true }, actual)[0], /has no such field/);
});

test('a violation path names a field when equal or followed by an index or a sub-field', () => {
  assert.ok(fieldMatches('hand.tiles', 'hand.tiles'));
  assert.ok(fieldMatches('hand.tiles', 'hand.tiles[3]'));
  assert.ok(fieldMatches('hand.tiles', 'hand.tiles[3].number'));
  assert.ok(fieldMatches('hand', 'hand.tiles[3]'));
  assert.ok(!fieldMatches('hand', 'hand_notation'));
  assert.ok(!fieldMatches('hand.tiles[3]', 'hand.tiles'));
});
