// OkeyClient against an in-process grpc-js server built from the same protos:
// JSON in and out, and OkeyError with the google.rpc details of a refusal.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { OkeyClient, OkeyError, encodeStatus, loadContract } from '../src/index.js';

const contract = loadContract();
let server;
let client;
let lastRequest;

before(async () => {
  server = new grpc.Server({ 'grpc.so_reuseport': 0 });
  server.addService(contract.definition['okey.v1.HandService'], {
    CheckHand(call, callback) {
      lastRequest = call.request;
      if (call.request.tiles_notation === 'R99') {
        const metadata = new grpc.Metadata();
        metadata.set('grpc-status-details-bin', encodeStatus({
          code: grpc.status.INVALID_ARGUMENT,
          message: 'bad tile',
          details: [
            { typeName: 'google.rpc.BadRequest', value: { fieldViolations: [{ field: 'tiles_notation', description: 'no tile R99' }] } },
            { typeName: 'google.rpc.ErrorInfo', value: { reason: 'INVALID_TILE', domain: 'okey.v1' } },
          ],
        }));
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'bad tile', metadata });
        return;
      }
      callback(null, { winning: true, kinds: ['WIN_KIND_MELDS'], okey: { color: 'COLOR_RED', number: 5 } });
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
  const response = await client.checkHand({ tilesNotation: 'R1 R2 R3', indicatorNotation: 'R4', ruleset: { runs13To1: true } });
  assert.deepEqual(lastRequest, { tiles_notation: 'R1 R2 R3', indicator_notation: 'R4', ruleset: { runs_13_to_1: true } });
  assert.equal(response.winning, true);
  assert.deepEqual(response.kinds, ['WIN_KIND_MELDS']);
  assert.deepEqual(response.okey, { color: 'COLOR_RED', number: 5, falseJoker: false, copy: 0 });
  assert.equal(response.okeyDiscardWins, false);
});

test('a refusal becomes an OkeyError with code, details, field violations and error info', async () => {
  await assert.rejects(client.checkHand({ tilesNotation: 'R99' }), (err) => {
    assert.ok(err instanceof OkeyError);
    assert.equal(err.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(err.codeName, 'INVALID_ARGUMENT');
    assert.equal(err.details, 'bad tile');
    assert.deepEqual(err.fieldViolations, [{ field: 'tiles_notation', description: 'no tile R99' }]);
    assert.equal(err.errorInfo.reason, 'INVALID_TILE');
    assert.equal(err.method, '/okey.v1.HandService/CheckHand');
    return true;
  });
});

test('a service the server lacks is UNIMPLEMENTED, a method the protos lack is refused locally', async () => {
  await assert.rejects(client.call('DealService', 'Deal', {}), (err) => err instanceof OkeyError && err.codeName === 'UNIMPLEMENTED');
  await assert.rejects(client.call('HandService', 'Nope', {}), /no method okey\.v1\.HandService\/Nope/);
});

test('the client lists every service of the loaded protos', () => {
  assert.ok(client.services().includes('okey.v1.HandService'));
  assert.ok(client.hasService('HandService'));
  assert.ok(!client.hasService('NoSuchService'));
});
