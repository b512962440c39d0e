// The client's retry policy: a call refused UNAVAILABLE or RESOURCE_EXHAUSTED
// is tried again by grpc-js (with back-off, at most RETRY_POLICY.maxAttempts
// times in all), any other failure is final. In-process grpc-js servers that
// refuse the first calls they get.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { OkeyClient, loadContract } from '../src/index.js';
import { RETRY_POLICY, withRetries } from '../src/client.js';

const contract = loadContract();
const REQUEST = { handNotation: 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5', indicatorNotation: 'R4' };
/** @type {grpc.Server[]} */
const servers = [];
/** @type {OkeyClient[]} */
const clients = [];

after(() => {
  for (const made of clients) made.close();
  for (const server of servers) server.forceShutdown();
});

/** A server whose CheckHand fails with `codes` in turn, then answers; `calls` counts every call. */
async function refusingServer(codes) {
  const entry = { calls: 0, port: 0 };
  const server = new grpc.Server({ 'grpc.so_reuseport': 0 });
  server.addService(contract.definition['okey.v1.HandService'], {
    CheckHand(_call, callback) {
      const code = codes[entry.calls];
      entry.calls += 1;
      if (code === undefined) callback(null, { winning: true });
      else callback({ code, details: `refused with ${code}` });
    },
  });
  entry.port = await new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  servers.push(server);
  return entry;
}

function client(port) {
  const made = new OkeyClient(`127.0.0.1:${port}`, { channelOptions: { 'grpc.so_reuseport': 0 } });
  clients.push(made);
  return made;
}

test('UNAVAILABLE and RESOURCE_EXHAUSTED are retried until the call succeeds', async () => {
  const served = await refusingServer([grpc.status.RESOURCE_EXHAUSTED, grpc.status.UNAVAILABLE]);
  const answer = await client(served.port).checkHand(REQUEST);
  assert.equal(answer.winning, true);
  assert.equal(served.calls, 3);
});

test('retries stop after maxAttempts tries', async () => {
  const refusals = Array(RETRY_POLICY.maxAttempts + 2).fill(grpc.status.UNAVAILABLE);
  const served = await refusingServer(refusals);
  await assert.rejects(client(served.port).checkHand(REQUEST), (error) => error.code === grpc.status.UNAVAILABLE);
  assert.equal(served.calls, RETRY_POLICY.maxAttempts);
});

test('other codes are final: INVALID_ARGUMENT, CANCELLED, DEADLINE_EXCEEDED are not retried', async () => {
  for (const code of [grpc.status.INVALID_ARGUMENT, grpc.status.CANCELLED, grpc.status.DEADLINE_EXCEEDED]) {
    const served = await refusingServer([code]);
    await assert.rejects(client(served.port).checkHand(REQUEST), (error) => error.code === code);
    assert.equal(served.calls, 1, `code ${code}`);
  }
});

test('the retry policy joins a round-robin service config rather than replacing it', () => {
  const options = withRetries(
    { 'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }) },
    ['okey.v1.HandService'],
  );
  const config = JSON.parse(options['grpc.service_config']);
  assert.deepEqual(config.loadBalancingConfig, [{ round_robin: {} }]);
  assert.deepEqual(config.methodConfig[0].retryPolicy.retryableStatusCodes, ['UNAVAILABLE', 'RESOURCE_EXHAUSTED']);
  assert.deepEqual(config.methodConfig[0].name[0], { service: 'okey.v1.HandService' });
});
