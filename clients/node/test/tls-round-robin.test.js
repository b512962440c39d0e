// OkeyClient with several addresses: one channel, calls shared round-robin
// between in-process grpc-js servers that count what they answer; one address
// and a dns: target as before; address lists grpc-js cannot balance refused.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { OkeyClient, loadContract } from '../src/index.js';
import { channelTarget } from '../src/client.js';

const contract = loadContract();
// Calls until both servers have answered once: a bound, round-robin needs two or three.
const WARM_UP_CALLS = 50;
const REQUEST = { handNotation: 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5', indicatorNotation: 'R4' };
/** @type {{server: grpc.Server, port: number, calls: number}[]} */
const servers = [];
/** @type {OkeyClient[]} */
const clients = [];

async function countingServer() {
  const entry = { server: new grpc.Server({ 'grpc.so_reuseport': 0 }), port: 0, calls: 0 };
  entry.server.addService(contract.definition['okey.v1.HandService'], {
    CheckHand(_call, callback) {
      entry.calls += 1;
      callback(null, { winning: true });
    },
  });
  entry.port = await new Promise((resolve, reject) => {
    entry.server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  servers.push(entry);
  return entry;
}

function client(address) {
  const made = new OkeyClient(address, { channelOptions: { 'grpc.so_reuseport': 0 } });
  clients.push(made);
  return made;
}

let first;
let second;

before(async () => {
  first = await countingServer();
  second = await countingServer();
});

after(() => {
  for (const made of clients) made.close();
  for (const { server } of servers) server.forceShutdown();
});

/** Calls until every server has answered once (bounded), then `calls` more: what each answered of those. */
async function spread(okey, counted, calls) {
  for (let i = 0; i < WARM_UP_CALLS && !counted.every((entry) => entry.calls > 0); i += 1) {
    await okey.checkHand(REQUEST);
  }
  assert.ok(counted.every((entry) => entry.calls > 0), `not every server answered: ${counted.map((e) => e.calls)}`);
  const before = counted.map((entry) => entry.calls);
  for (let i = 0; i < calls; i += 1) await okey.checkHand(REQUEST);
  return counted.map((entry, i) => entry.calls - before[i]);
}

test('two comma-separated addresses share the calls of one client in turn', async () => {
  first.calls = 0;
  second.calls = 0;
  const okey = client(`127.0.0.1:${first.port},127.0.0.1:${second.port}`);
  // Once both are connected, round-robin alternates strictly.
  assert.deepEqual(await spread(okey, [first, second], 20), [10, 10]);
  assert.equal(okey.address, `127.0.0.1:${first.port},127.0.0.1:${second.port}`);
});

test('an array of addresses is the same as the comma-separated list', async () => {
  first.calls = 0;
  second.calls = 0;
  const okey = client([`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`]);
  assert.deepEqual(await spread(okey, [first, second], 10), [5, 5]);
});

test('one address sends every call to that server', async () => {
  first.calls = 0;
  second.calls = 0;
  const okey = client(`127.0.0.1:${first.port}`);
  for (let i = 0; i < 5; i += 1) await okey.checkHand(REQUEST);
  assert.deepEqual([first.calls, second.calls], [5, 0]);
});

test('a dns: target is dialled through the resolver', async () => {
  first.calls = 0;
  // localhost resolves to 127.0.0.1 (and maybe ::1, where nothing listens: skipped).
  const okey = client(`dns:///localhost:${first.port}`);
  await okey.checkHand(REQUEST);
  assert.equal(first.calls, 1);
});

test('addresses become grpc-js targets, lists and dns: targets balanced round-robin', () => {
  const roundRobin = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });
  assert.deepEqual(channelTarget('127.0.0.1:1'), { target: '127.0.0.1:1', channelOptions: {} });
  assert.deepEqual(channelTarget('okey.internal:50051'), { target: 'okey.internal:50051', channelOptions: {} });
  assert.deepEqual(channelTarget('10.0.0.1:1, 10.0.0.2:2'), {
    target: 'ipv4:10.0.0.1:1,10.0.0.2:2',
    channelOptions: { 'grpc.service_config': roundRobin },
  });
  assert.equal(channelTarget(['[::1]:1', '[fe80::1]:2']).target, 'ipv6:[::1]:1,[fe80::1]:2');
  assert.deepEqual(channelTarget('dns:///okey.internal:50051').channelOptions, { 'grpc.service_config': roundRobin });
});

test('an address list grpc-js cannot balance is refused when the client is made', () => {
  assert.throws(() => new OkeyClient('okey-a:1,okey-b:2'), /several addresses must each be IP:port/);
  assert.throws(() => new OkeyClient('127.0.0.1,127.0.0.2:2'), /several addresses must each be IP:port/);
  assert.throws(() => new OkeyClient('127.0.0.1:1,[::1]:2'), /mixes IPv4 and IPv6/);
  assert.throws(() => new OkeyClient(' , '), /no server address/);
});
