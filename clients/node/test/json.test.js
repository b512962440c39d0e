// proto3 JSON <-> proto-loader objects: JSON names by protoc's rule, both
// spellings accepted on input, defaults filled on output, bad shapes refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import protobuf from 'protobufjs';

import { JsonShapeError, fromJson, jsonName, loadContract, toJson } from '../src/index.js';

const contract = loadContract();
const checkHand = contract.services.get('okey.v1.HandService').get('CheckHand');
const Ruleset = contract.root.lookupType('okey.v1.Ruleset');

test('json names follow protoc: digits after underscores keep their case', () => {
  assert.equal(jsonName(Ruleset.fields.runs_13_to_1), 'runs13To1');
  assert.equal(jsonName(Ruleset.fields.indicator_drawable_last), 'indicatorDrawableLast');
});

test('requests accept JSON names and proto names alike', () => {
  const a = fromJson(checkHand.requestType, { tilesNotation: 'R1', ruleset: { runs13To1: false } });
  const b = fromJson(checkHand.requestType, { tiles_notation: 'R1', ruleset: { runs_13_to_1: false } });
  assert.deepEqual(a, b);
  assert.deepEqual(a, { tiles_notation: 'R1', ruleset: { runs_13_to_1: false } });
});

test('a request survives the wire: JSON -> bytes -> JSON', () => {
  const request = {
    tiles: [{ color: 'COLOR_RED', number: 7, copy: 1 }, { falseJoker: true }],
    indicatorNotation: 'R4',
    ruleset: { game: 'GAME_CLASSIC', kafa: false },
  };
  const bytes = checkHand.serialize(fromJson(checkHand.requestType, request));
  const type = checkHand.requestType;
  const decoded = type.toObject(type.decode(bytes), { enums: String, longs: String, bytes: String });
  const json = toJson(type, decoded, { emitDefaults: false });
  assert.deepEqual(json, request);
});

test('responses fill defaults for fields without presence, not for messages or optionals', () => {
  const json = toJson(checkHand.responseType, { winning: true });
  assert.equal(json.winning, true);
  assert.equal(json.kind, 'WIN_KIND_UNSPECIFIED');
  assert.deepEqual(json.kinds, []);
  assert.equal(json.summary, '');
  assert.ok(!('arrangement' in json), 'an unset message stays absent');
  const ruleset = toJson(Ruleset, {});
  assert.deepEqual(ruleset, { game: 'GAME_UNSPECIFIED' }, 'proto3 optional fields stay absent when unset');
  assert.deepEqual(toJson(Ruleset, { kafa: false }), { game: 'GAME_UNSPECIFIED', kafa: false });
});

test('unknown fields, wrong types and unknown enum names are refused before any call', () => {
  const cases = [
    [{ tilesNotaton: 'R1' }, /unknown field "tilesNotaton"/],
    [{ tilesNotation: 5 }, /tilesNotation: expected a string/],
    [{ tiles: { color: 'COLOR_RED' } }, /tiles: expected a JSON array/],
    [{ tiles: [{ color: 'COLOR_PINK' }] }, /tiles\[0\]\.color: not a value of enum okey\.v1\.Color/],
    [{ tiles: [{ number: 'seven' }] }, /tiles\[0\]\.number: expected a number/],
    [{ ruleset: { kafa: 'yes' } }, /ruleset\.kafa: expected true or false/],
    [[], /expected a JSON object/],
  ];
  for (const [request, message] of cases) {
    assert.throws(() => fromJson(checkHand.requestType, request), (err) => {
      assert.ok(err instanceof JsonShapeError);
      assert.match(err.message, message);
      return true;
    });
  }
});

test('maps, 64-bit integers, bytes, doubles and oneofs follow the proto3 JSON mapping', () => {
  const { root } = protobuf.parse(`
    syntax = "proto3";
    package probe;
    message Probe {
      map<string, int64> counts = 1;
      bytes blob = 2;
      double ratio = 3;
      oneof choice { string name = 4; uint64 id = 5; }
      repeated sint64 deltas = 6;
    }`, { keepCase: true });
  root.resolveAll();
  const Probe = root.lookupType('probe.Probe');
  const request = { counts: { a: '9007199254740993' }, blob: 'AQID', ratio: 'NaN', id: 42, deltas: ['-5', 7] };
  const bytes = Probe.encode(Probe.fromObject(fromJson(Probe, request))).finish();
  const decoded = Probe.toObject(Probe.decode(bytes), { longs: String, enums: String, bytes: String });
  assert.deepEqual(toJson(Probe, decoded), {
    counts: { a: '9007199254740993' },
    blob: 'AQID',
    ratio: 'NaN',
    id: '42',
    deltas: ['-5', '7'],
  });
  assert.throws(() => fromJson(Probe, { counts: { a: 1.5 } }), /counts\.a: expected an integer/);
});
