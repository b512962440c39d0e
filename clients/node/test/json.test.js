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

test('requests accept JSON names and proto names alike, oneof members included', () => {
  const a = fromJson(checkHand.requestType, { handNotation: 'R1', okeyNotation: 'R5', ruleset: { runs13To1: false } });
  const b = fromJson(checkHand.requestType, { hand_notation: 'R1', okey_notation: 'R5', ruleset: { runs_13_to_1: false } });
  assert.deepEqual(a, b);
  assert.deepEqual(a, { hand_notation: 'R1', okey_notation: 'R5', ruleset: { runs_13_to_1: false } });
  const c = fromJson(checkHand.requestType, { hand: { tiles: [{ falseJoker: true }] }, indicator: { color: 'COLOR_RED', number: 4 } });
  assert.deepEqual(c, { hand: { tiles: [{ false_joker: true }] }, indicator: { color: 'COLOR_RED', number: 4 } });
});

/** Encodes a request as the client does and decodes it as the server would. */
function overTheWire(request) {
  const bytes = checkHand.serialize(fromJson(checkHand.requestType, request));
  const type = checkHand.requestType;
  return type.toObject(type.decode(bytes), { enums: String, longs: String, bytes: String });
}

test('a request survives the wire: JSON -> bytes -> JSON, a message-valued oneof member included', () => {
  const request = {
    hand: { tiles: [{ color: 'COLOR_RED', number: 7, copy: 1 }, { falseJoker: true }] },
    indicatorNotation: 'R4',
    ruleset: { game: 'GAME_CLASSIC', kafa: false },
    omitArrangements: true,
  };
  assert.deepEqual(toJson(checkHand.requestType, overTheWire(request), { emitDefaults: false }), request);
});

test('a oneof member keeps its presence: set to its default it is sent and shown, unset it stays absent', () => {
  // An empty hand_notation is a choice of hand_form (the server then refuses
  // the empty hand by name), not the absence of a hand.
  const decoded = overTheWire({ handNotation: '', okey: {} });
  assert.deepEqual(decoded, { hand_notation: '', okey: {} });
  const json = toJson(checkHand.requestType, decoded);
  assert.equal(json.handNotation, '');
  assert.deepEqual(json.okey, { color: 'COLOR_UNSPECIFIED', number: 0, falseJoker: false, copy: 0 });
  for (const unset of ['hand', 'indicator', 'indicatorNotation', 'okeyNotation']) {
    assert.ok(!(unset in json), `${unset} is not set, so not shown even with defaults filled`);
  }
  assert.equal(json.omitArrangements, false, 'a field without presence is filled');
});

test('two members of one oneof are refused before any call, naming the oneof', () => {
  const cases = [
    [{ hand: { tiles: [] }, handNotation: 'R1' }, /"hand" and "handNotation" are both members of oneof hand_form/],
    [{ handNotation: 'R1', hand: { tiles: [] } }, /"handNotation" and "hand" are both members of oneof hand_form/],
    [{ indicatorNotation: 'R4', okey: { color: 'COLOR_RED', number: 5 } }, /oneof wild/],
    [{ indicator_notation: 'R4', okeyNotation: 'R5' }, /"indicator_notation" and "okeyNotation" are both members of oneof wild/],
    [{ indicator: {}, okey: {} }, /oneof wild; give only one of "indicator", "okey", "indicatorNotation", "okeyNotation"/],
  ];
  for (const [request, message] of cases) {
    assert.throws(() => fromJson(checkHand.requestType, request), (err) => {
      assert.ok(err instanceof JsonShapeError);
      assert.equal(err.path, 'CheckHandRequest');
      assert.match(err.message, message);
      return true;
    });
  }
});

test('a member given as null or undefined is not set, so it does not clash with another', () => {
  const request = { hand: null, handNotation: 'R1', okey: undefined, okeyNotation: 'R5' };
  assert.deepEqual(fromJson(checkHand.requestType, request), { hand_notation: 'R1', okey_notation: 'R5' });
});

test('a field given under both its JSON name and its proto name is refused', () => {
  assert.throws(
    () => fromJson(checkHand.requestType, { handNotation: 'R1', hand_notation: 'R2' }),
    /field "hand_notation" is given twice, as "handNotation" and "hand_notation"/,
  );
  assert.throws(
    () => fromJson(checkHand.requestType, { handNotation: 'R1', ruleset: { runs13To1: true, runs_13_to_1: false } }),
    /CheckHandRequest\.ruleset: field "runs_13_to_1" is given twice/,
  );
});

test('responses fill defaults for fields without presence, not for messages or optionals', () => {
  const json = toJson(checkHand.responseType, { winning: true });
  assert.equal(json.winning, true);
  assert.equal(json.kind, 'WIN_KIND_UNSPECIFIED');
  assert.deepEqual(json.kinds, []);
  assert.deepEqual(json.winningDiscards, [], 'a list of messages has no presence: unset, it is empty');
  assert.equal(json.summary, '');
  assert.ok(!('arrangement' in json), 'an unset message stays absent');
  const ruleset = toJson(Ruleset, {});
  assert.deepEqual(ruleset, { game: 'GAME_UNSPECIFIED' }, 'proto3 optional fields stay absent when unset');
  assert.deepEqual(toJson(Ruleset, { kafa: false }), { game: 'GAME_UNSPECIFIED', kafa: false });
});

test('unknown fields, wrong types and unknown enum names are refused before any call', () => {
  const cases = [
    [{ handNotaton: 'R1' }, /unknown field "handNotaton"/],
    [{ tilesNotation: 'R1' }, /unknown field "tilesNotation"/],
    [{ handNotation: 5 }, /handNotation: expected a string/],
    [{ hand: [{ color: 'COLOR_RED' }] }, /hand: expected a JSON object for okey\.v1\.TileList/],
    [{ hand: { tiles: { color: 'COLOR_RED' } } }, /hand\.tiles: expected a JSON array/],
    [{ hand: { tiles: [{ color: 'COLOR_PINK' }] } }, /hand\.tiles\[0\]\.color: not a value of enum okey\.v1\.Color/],
    [{ hand: { tiles: [{ number: 'seven' }] } }, /hand\.tiles\[0\]\.number: expected a number/],
    [{ omitArrangements: 'yes' }, /omitArrangements: expected true or false/],
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
