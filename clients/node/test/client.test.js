// OkeyClient against an in-process grpc-js server built from the same protos:
// JSON in and out, and OkeyError with the google.rpc details of a refusal.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { ErrorReason, JsonShapeError, OkeyClient, OkeyError, encodeStatus, loadContract } from '../src/index.js';

const contract = loadContract();
let server;
let client;
let lastRequest;

before(async () => {
  server = new grpc.Server({ 'grpc.so_reuseport': 0 });
  server.addService(contract.definition['okey.v1.HandService'], {
    CheckHand(call, callback) {
      lastRequest = call.request;
      if (call.request.hand_notation === 'R99') {
        const reason = 'ERROR_REASON_INVALID_TILES';
        const metadata = new grpc.Metadata();
        metadata.set('grpc-status-details-bin', encodeStatus({
          code: grpc.status.INVALID_ARGUMENT,
          message: 'bad tile',
          details: [
            { typeName: 'google.rpc.BadRequest', value: { fieldViolations: [{ field: 'hand_notation', description: 'no tile R99', reason }] } },
            { typeName: 'google.rpc.ErrorInfo', value: { reason, domain: 'okey-rules', metadata: { field: 'hand_notation' } } },
          ],
        }));
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'bad tile', metadata });
        return;
      }
      callback(null, { winning: true, kinds: ['WIN_KIND_MELDS'], okey: { color: 'COLOR_RED', number: 5 } });
    },
  });
  server.addService(contract.definition['okey.v1.AnalysisService'], {
    AnalyzeHand(call, callback) {
      lastRequest = call.request;
      callback(null, { distance: { melds: 1, seven_pairs: 6, best: 1 } });
    },
    SuggestMove(call, callback) {
      lastRequest = call.request;
      callback(null, { move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: call.request.seat }, reason: 'draw', level: 3 });
    },
  });
  const port = await new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  client = new OkeyClient(`127.0.0.1:${port}`, { channelOptions: { 'grpc.so_reuseport': 0 } });
});

after(() => {
  client?.close();
  server?.forceShutdown();
});

test('checkHand sends proto3 JSON and answers proto3 JSON with defaults filled', async () => {
  const response = await client.checkHand({ handNotation: 'R1 R2 R3', indicatorNotation: 'R4', ruleset: { runs13To1: true } });
  assert.deepEqual(lastRequest, { hand_notation: 'R1 R2 R3', indicator_notation: 'R4', ruleset: { runs_13_to_1: true } });
  assert.equal(response.winning, true);
  assert.deepEqual(response.kinds, ['WIN_KIND_MELDS']);
  assert.deepEqual(response.okey, { color: 'COLOR_RED', number: 5, falseJoker: false, copy: 0 });
  assert.equal(response.okeyDiscardWins, false);
});

test('a oneof member that is a message (hand: TileList) and a wild tile reach the server as set', async () => {
  const tiles = [{ color: 'COLOR_RED', number: 1 }, { falseJoker: true }];
  await client.checkHand({ hand: { tiles }, okey: { color: 'COLOR_RED', number: 5 }, omitArrangements: true });
  assert.deepEqual(lastRequest, {
    hand: { tiles: [{ color: 'COLOR_RED', number: 1 }, { false_joker: true }] },
    okey: { color: 'COLOR_RED', number: 5 },
    omit_arrangements: true,
  });
});

test('two members of one oneof are refused with a JsonShapeError before any call', async () => {
  lastRequest = undefined;
  await assert.rejects(
    client.checkHand({ handNotation: 'R1', hand: { tiles: [] }, indicatorNotation: 'R4' }),
    (err) => err instanceof JsonShapeError && /oneof hand_form/.test(err.message),
  );
  await assert.rejects(
    client.checkHand({ handNotation: 'R1', indicatorNotation: 'R4', okey_notation: 'R5' }),
    (err) => err instanceof JsonShapeError && /oneof wild/.test(err.message),
  );
  assert.equal(lastRequest, undefined, 'nothing reached the server');
});

test('a refusal becomes an OkeyError with code, details, field violations and the ErrorReason', async () => {
  await assert.rejects(client.checkHand({ handNotation: 'R99', indicatorNotation: 'R4' }), (err) => {
    assert.ok(err instanceof OkeyError);
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(err.codeName, 'INVALID_ARGUMENT');
    assert.equal(err.details, 'bad tile');
    assert.deepEqual(err.fieldViolations, [
      { field: 'hand_notation', description: 'no tile R99', reason: 'ERROR_REASON_INVALID_TILES' },
    ]);
    assert.deepEqual(err.errorInfo, {
      reason: 'ERROR_REASON_INVALID_TILES', domain: 'okey-rules', metadata: { field: 'hand_notation' },
    });
    assert.equal(err.reason, ErrorReason.ERROR_REASON_INVALID_TILES);
    assert.equal(err.method, '/okey.v1.HandService/CheckHand');
    return true;
  });
});

test('the exported ErrorReason names are the values of okey.v1.ErrorReason', () => {
  const names = Object.keys(contract.root.lookupEnum('okey.v1.ErrorReason').values);
  assert.deepEqual(Object.keys(ErrorReason), names);
  for (const name of names) assert.equal(ErrorReason[name], name);
  assert.ok(Object.isFrozen(ErrorReason));
});

test('a service the server lacks is UNIMPLEMENTED, a method the protos lack is refused locally', async () => {
  await assert.rejects(client.call('DealService', 'Deal', {}), (err) => {
    assert.ok(err instanceof OkeyError);
    assert.equal(err.codeName, 'UNIMPLEMENTED');
    assert.equal(err.reason, 'ERROR_REASON_UNSPECIFIED', 'no ErrorInfo: the reason is the unset value');
    return true;
  });
  await assert.rejects(client.call('HandService', 'Nope', {}), /no method okey\.v1\.HandService\/Nope/);
});

test('the client lists every service of the loaded protos', () => {
  assert.ok(client.services().includes('okey.v1.HandService'));
  assert.ok(client.hasService('HandService'));
  assert.ok(!client.hasService('NoSuchService'));
});

test('analyzeHand and suggestMove call AnalysisService with proto3 JSON', async () => {
  const analysis = await client.analyzeHand({ handNotation: 'R1 R2 R3', okeyNotation: 'R5', seenNotation: 'K9' });
  assert.equal(lastRequest.seen_notation, 'K9');
  assert.equal(analysis.distance.best, 1);
  assert.equal(analysis.distance.sevenPairs, 6);
  const suggestion = await client.suggestMove({ state: Buffer.from('token'), seat: 2, level: 3 });
  assert.equal(lastRequest.level, 3);
  assert.equal(suggestion.move.kind, 'MOVE_KIND_DRAW_FROM_WALL');
  assert.equal(suggestion.move.seat, 2);
  assert.equal(suggestion.reason, 'draw');
});
