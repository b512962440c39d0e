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

test('null for a message field asserts that it is not set', () => {
  assert.deepEqual(subsetMismatches(Response, { indicator: null }, actual), []);
  assert.deepEqual(
    subsetMismatches(Response, { okey: null }, actual),
    ['okey: expected not set, got {"color":"COLOR_RED","number":5}'],
  );
});

const View = loadContract().root.lookupType('okey.v1.PlayerViewResponse');

test('a Timestamp compares by the instant it names, not by its spelling', () => {
  const view = { seat: 1, turnDeadline: '2026-12-01T18:00:00Z' };
  for (const same of ['2026-12-01T18:00:00Z', '2026-12-01T18:00:00.000Z', '2026-12-01T18:00:00.000000000Z', '2026-12-01T21:00:00+03:00']) {
    assert.deepEqual(subsetMismatches(View, { turnDeadline: same }, view), [], same);
  }
  assert.deepEqual(subsetMismatches(View, { turn_deadline: '2026-12-01T17:59:59.999Z' }, { turnDeadline: '2026-12-01T18:00:00.000Z' }), [
    'turn_deadline: expected "2026-12-01T17:59:59.999Z", got "2026-12-01T18:00:00.000Z"',
  ]);
  assert.deepEqual(subsetMismatches(View, { turnDeadline: '2026-12-01T18:00:00.5Z' }, { turnDeadline: '2026-12-01T18:00:00.500Z' }), []);
  assert.equal(subsetMismatches(View, { turnDeadline: '2026-12-01T18:00:00.000000001Z' }, view).length, 1);
});

test('a Timestamp expected null must be unset; one expected set must be there and be a valid timestamp', () => {
  assert.deepEqual(subsetMismatches(View, { turnDeadline: null }, { seat: 1 }), []);
  assert.match(subsetMismatches(View, { turnDeadline: null }, { turnDeadline: '2026-12-01T18:00:00Z' })[0], /expected no timestamp/);
  assert.match(subsetMismatches(View, { turnDeadline: '2026-12-01T18:00:00Z' }, { seat: 1 })[0], /got no timestamp/);
  assert.match(subsetMismatches(View, { turnDeadline: '2026-12-01 18:00' }, { turnDeadline: '2026-12-01T18:00:00Z' })[0], /expected value is not a timestamp/);
  assert.match(subsetMismatches(View, { turnDeadline: { seconds: 1796148000 } }, { turnDeadline: '2026-12-01T18:00:00Z' })[0], /expected value is not a timestamp/);
});
