// Runs the conformance vectors of tests/conformance (CheckHand, Deal,
// GameService, ScoringService and any other unary request/expect file) through OkeyClient
// against a live server, and the example script against the same server.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { OkeyClient, loadVectorFiles, runVectors } from '../src/index.js';
import { liveServer } from './live-server.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const server = await liveServer();
const skip = 'skip' in server ? server.skip : false;
const { files, skipped } = loadVectorFiles();

describe('conformance vectors against a live server', { skip }, () => {
  let client;
  /** @type {import('../src/conformance.js').CaseResult[]} */
  const results = [];

  before(async () => {
    client = new OkeyClient(server.address, { channelOptions: { 'grpc.so_reuseport': 0 } });
    await client.ready();
  });

  after(async () => {
    client?.close();
    await server.stop();
    const passed = results.filter((r) => r.passed).length;
    console.log(`conformance (node client, ${server.address}): ${passed} passed, ${results.length - passed} failed`);
    if (skipped.length > 0) console.log(`vector files not in request/expect shape, skipped: ${skipped.join(', ')}`);
  });

  test('tests/conformance holds CheckHand vectors', () => {
    assert.ok(
      files.some((f) => f.service === 'okey.v1.HandService' && f.method === 'CheckHand' && f.cases.length > 0),
      'no CheckHand vector file in tests/conformance',
    );
  });

  test('tests/conformance holds GameService vectors for every method, reaching states through given_state', () => {
    for (const method of ['ApplyMove', 'LegalMoves', 'PlayerView', 'Replay']) {
      const game = files.filter((f) => f.service === 'okey.v1.GameService' && f.method === method);
      assert.ok(game.some((f) => f.cases.length > 0), `no GameService/${method} vector file in tests/conformance`);
      assert.ok(game.some((f) => f.cases.some((c) => c.given_state !== undefined)), `no ${method} case carries given_state`);
    }
  });

  test('tests/conformance holds ScoringService vectors, ScoreRound scoring finished states through given_state', () => {
    for (const method of ['ScoreRound', 'ScoreGame']) {
      const scoring = files.filter((f) => f.service === 'okey.v1.ScoringService' && f.method === method);
      assert.ok(scoring.some((f) => f.cases.length > 0), `no ScoringService/${method} vector file in tests/conformance`);
    }
    const rounds = files.filter((f) => f.service === 'okey.v1.ScoringService' && f.method === 'ScoreRound');
    assert.ok(rounds.some((f) => f.cases.some((c) => c.given_state !== undefined)), 'no ScoreRound case carries given_state');
  });

  for (const vectors of files) {
    test(`${vectors.file}: ${vectors.service}/${vectors.method}`, async (t) => {
      const fileResults = await runVectors(client, [vectors]);
      results.push(...fileResults);
      for (const r of fileResults) {
        await t.test(r.name, () => {
          assert.ok(r.passed, `${r.name} (${r.reason}):\n  ${r.problems.join('\n  ')}`);
        });
      }
    });
  }

  test('the example checks a hand and deals against the same server', async () => {
    const example = path.resolve(HERE, '..', 'examples', 'check-and-deal.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, [example, '--server', server.address]);
    assert.match(stdout, /CheckHand: winning/);
    if (client.hasService('DealService')) assert.match(stdout, /Deal: seed /);
  });
});
