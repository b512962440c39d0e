// proto3 JSON <-> proto-loader objects: JSON names by protoc's rule, both
// spellings accepted on input, defaults filled on output, bad shapes refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import protobuf from 'protobufjs';

import { JsonShapeError, formatTimestamp, fromJson, jsonName, loadContract, parseTimestamp, toJson } from '../src/index.js';

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
  // Ruleset's enums (game, scoring_mode, colour_double) have no presence; its
  // other options are proto3 optional.
  const enums = { game: 'GAME_UNSPECIFIED', scoringMode: 'SCORING_MODE_UNSPECIFIED', colourDouble: 'COLOUR_DOUBLE_UNSPECIFIED' };
  const ruleset = toJson(Ruleset, {});
  assert.deepEqual(ruleset, enums, 'proto3 optional fields stay absent when unset');
  assert.deepEqual(toJson(Ruleset, { kafa: false }), { ...enums, kafa: false });
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

// google.protobuf.Timestamp: proto3 JSON writes it as an RFC 3339 string.
const applyMove = contract.services.get('okey.v1.GameService').get('ApplyMove');
const replay = contract.services.get('okey.v1.GameService').get('Replay');
const playerView = contract.services.get('okey.v1.GameService').get('PlayerView');

test('a Timestamp is read from RFC 3339 (Z or an offset, 0-9 fractional digits) into {seconds, nanos}', () => {
  const read = (now) => fromJson(applyMove.requestType, { now }).now;
  assert.deepEqual(read('2026-12-01T18:00:00Z'), { seconds: '1796148000', nanos: 0 });
  assert.deepEqual(read('2026-12-01T21:00:00+03:00'), { seconds: '1796148000', nanos: 0 }, 'an offset moves to UTC');
  assert.deepEqual(read('2026-12-01T12:30:00-05:30'), { seconds: '1796148000', nanos: 0 });
  assert.deepEqual(read('2026-12-01T18:00:00.5Z'), { seconds: '1796148000', nanos: 500_000_000 });
  assert.deepEqual(read('2026-12-01T18:00:00.000250Z'), { seconds: '1796148000', nanos: 250_000 });
  assert.deepEqual(read('2026-12-01T18:00:00.123456789Z'), { seconds: '1796148000', nanos: 123_456_789 });
  assert.deepEqual(read('1969-12-31T23:59:59.75Z'), { seconds: '-1', nanos: 750_000_000 }, 'nanos count forward, also before 1970');
  assert.deepEqual(read('2024-02-29T00:00:00Z'), { seconds: '1709164800', nanos: 0 }, 'a leap day');
  assert.deepEqual(read('0001-01-01T00:00:00Z'), { seconds: '-62135596800', nanos: 0 });
  assert.deepEqual(read('9999-12-31T23:59:59.999999999Z'), { seconds: '253402300799', nanos: 999_999_999 });
  assert.deepEqual(fromJson(applyMove.requestType, { now: null }), {}, 'null is not set');
});

test('a Timestamp that is not an RFC 3339 string in years 1-9999 is refused, naming the field', () => {
  const bad = [
    1796148000, // proto3 JSON has no numeric form
    { seconds: '1796148000' }, // nor an object form
    '',
    '2026-12-01T18:00:00', // no zone
    '2026-12-01 18:00:00Z', // space for T
    '2026-12-01t18:00:00z', // lower case
    '2026-12-01T18:00Z', // no seconds
    '2026-12-01T18:00:00.Z', // a point without digits
    '2026-12-01T18:00:00.1234567890Z', // ten fractional digits
    '2026-12-01T18:00:00+0300', // offset without a colon
    '2026-12-01T18:00:00+24:00',
    '2026-12-01T18:00:00+03:60',
    '2026-13-01T18:00:00Z',
    '2026-00-01T18:00:00Z',
    '2026-02-29T18:00:00Z', // 2026 is not a leap year
    '1900-02-29T18:00:00Z', // nor 1900
    '2026-04-31T18:00:00Z',
    '2026-12-01T24:00:00Z',
    '2026-12-01T18:60:00Z',
    '2026-12-31T23:59:60Z', // Timestamp smears leap seconds
    '0000-12-31T18:00:00Z',
    '0001-01-01T00:00:00+00:01', // before year 1 in UTC
    '9999-12-31T23:59:59-00:01', // after year 9999 in UTC
    '+12026-12-01T18:00:00Z',
    ' 2026-12-01T18:00:00Z',
  ];
  for (const now of bad) {
    assert.throws(() => fromJson(applyMove.requestType, { now }), (err) => {
      assert.ok(err instanceof JsonShapeError, `${JSON.stringify(now)}: ${err}`);
      assert.equal(err.path, 'ApplyMoveRequest.now');
      assert.match(err.message, /RFC 3339/);
      return true;
    }, JSON.stringify(now));
  }
  assert.throws(
    () => fromJson(replay.requestType, { state: 'AQID', moves: [{ now: '2026-12-01T18:00:00Z' }, { now: 'tomorrow' }] }),
    (err) => err instanceof JsonShapeError && err.path === 'ReplayRequest.moves[1].now',
  );
});

test('a decoded Timestamp is written as UTC with Z and 0, 3, 6 or 9 fractional digits', () => {
  const write = (turn_deadline) => toJson(playerView.responseType, { turn_deadline }).turnDeadline;
  assert.equal(write({ seconds: '1796148000' }), '2026-12-01T18:00:00Z', 'nanos left out by the decoder are 0');
  assert.equal(write({ seconds: '1796148000', nanos: 0 }), '2026-12-01T18:00:00Z');
  assert.equal(write({ seconds: '1796148000', nanos: 500_000_000 }), '2026-12-01T18:00:00.500Z');
  assert.equal(write({ seconds: '1796148000', nanos: 120_000 }), '2026-12-01T18:00:00.000120Z');
  assert.equal(write({ seconds: '1796148000', nanos: 1 }), '2026-12-01T18:00:00.000000001Z');
  assert.equal(write({ seconds: 1796148000, nanos: 123_456_780 }), '2026-12-01T18:00:00.123456780Z');
  assert.equal(write({}), '1970-01-01T00:00:00Z', 'seconds left out by the decoder are 0');
  assert.equal(write({ seconds: '-1', nanos: 750_000_000 }), '1969-12-31T23:59:59.750Z');
  assert.equal(write({ seconds: '-62135596800' }), '0001-01-01T00:00:00Z');
  assert.equal(write({ seconds: protobuf.util.Long.fromString('253402300799'), nanos: 999_999_999 }), '9999-12-31T23:59:59.999999999Z');
  assert.ok(!('turnDeadline' in toJson(playerView.responseType, {})), 'an unset Timestamp stays absent');
  for (const out of [{ seconds: '253402300800' }, { seconds: '-62135596801' }, { seconds: '0', nanos: 1e9 }, { seconds: '0', nanos: -1 }]) {
    assert.throws(() => write(out), RangeError, JSON.stringify(out));
  }
});

test('Timestamp dates agree with the JavaScript Date calendar across years 1-9999', () => {
  // A fixed pseudo-random sample (xorshift) over the whole range, checked
  // against Date's own proleptic Gregorian arithmetic.
  let x = 0x2545f491;
  const next = () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const min = -62_135_596_800;
  const max = 253_402_300_799;
  for (let i = 0; i < 5000; i++) {
    const seconds = Math.floor(min + next() * (max - min));
    const ms = Math.floor(next() * 1000);
    const text = formatTimestamp({ seconds: String(seconds), nanos: ms * 1_000_000 });
    assert.equal(text, new Date(seconds * 1000 + ms).toISOString().replace('.000Z', 'Z'));
    assert.deepEqual(parseTimestamp(text, 'now'), { seconds, nanos: ms * 1_000_000 });
  }
});

test('a Timestamp survives the wire both ways: RFC 3339 -> bytes -> RFC 3339 names the same instant', () => {
  const cases = [
    ['2026-12-01T18:00:00Z', '2026-12-01T18:00:00Z'],
    ['2026-12-01T21:00:00.25+03:00', '2026-12-01T18:00:00.250Z'],
    ['2026-12-01T18:00:00.000000Z', '2026-12-01T18:00:00Z'],
    ['1960-06-15T08:30:00.000001-01:00', '1960-06-15T09:30:00.000001Z'],
  ];
  const type = applyMove.requestType;
  for (const [given, canonical] of cases) {
    const bytes = applyMove.serialize(fromJson(type, { now: given, move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 } }));
    const decoded = type.toObject(type.decode(bytes), { enums: String, longs: String, bytes: String });
    const json = toJson(type, decoded, { emitDefaults: false });
    assert.equal(json.now, canonical);
    assert.deepEqual(json.move, { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 });
    assert.deepEqual(fromJson(type, { now: json.now }).now, fromJson(type, { now: given }).now);
  }
});
