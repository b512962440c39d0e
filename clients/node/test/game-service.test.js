// GameService through OkeyClient and the conformance runner, against an
// in-process grpc-js server built from the same protos: timestamps cross the
// wire as google.protobuf.Timestamp and come back as RFC 3339 strings, and a
// case's `given_state` is replayed into its request's `state` (or, for
// ScoringService/ScoreRound, into `round.state`). The state is a sealed token,
// opaque bytes: the fake hands out bytes that say what it was replayed from,
// with the public RoundStatus beside them, and the tests check that the bytes
// come back to the server unchanged.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { OkeyClient, encodeStatus, loadContract, loadVectorFiles, runCase, runVectors } from '../src/index.js';

const contract = loadContract();
/** @type {grpc.Server} */
let server;
/** @type {OkeyClient} */
let client;
/** Every request the fake server received, as [method, decoded request]. */
let received = [];

/** The token the fake Replay hands out: bytes that record what it was replayed from. */
function replayedState(request) {
  const seed = request.deal?.seed ?? 'from-state';
  return Buffer.from(`sealed:${seed}:${(request.moves ?? []).length}`);
}

/** The public facts the fake hands out beside a token. */
function replayedStatus(request) {
  return { move_number: (request.moves ?? []).length, player_count: 4, turn_seat: 2, phase: 'PHASE_DRAW' };
}

/** A token as the fake server received it (bytes arrive as base64 text). */
function tokenText(received) {
  return Buffer.from(received, 'base64').toString();
}

before(async () => {
  server = new grpc.Server({ 'grpc.so_reuseport': 0 });
  server.addService(contract.definition['okey.v1.GameService'], {
    Replay(call, callback) {
      received.push(['Replay', call.request]);
      const { request } = call;
      if (request.deal?.seed === 'refused') {
        const metadata = new grpc.Metadata();
        metadata.set('grpc-status-details-bin', encodeStatus({
          code: grpc.status.INVALID_ARGUMENT,
          message: 'deal.seed: refused',
          details: [{ typeName: 'google.rpc.BadRequest', value: { fieldViolations: [{ field: 'deal.seed', description: 'refused' }] } }],
        }));
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'deal.seed: refused', metadata });
        return;
      }
      const moves = request.moves ?? [];
      const bad = moves.findIndex((m) => m.move?.seat === 9);
      if (bad >= 0) {
        callback(null, {
          legal: false,
          moves_applied: bad,
          illegal_index: bad,
          reason: 'ILLEGAL_REASON_NOT_YOUR_TURN',
          message: 'seat 9 is not on turn',
          state: replayedState({ ...request, moves: moves.slice(0, bad) }),
          status: replayedStatus({ ...request, moves: moves.slice(0, bad) }),
        });
        return;
      }
      callback(null, { legal: true, moves_applied: moves.length, state: replayedState(request), status: replayedStatus(request) });
    },
    ApplyMove(call, callback) {
      received.push(['ApplyMove', call.request]);
      // Echoes the state it was given, so a test sees what was sent.
      callback(null, {
        legal: true,
        state: call.request.state,
        status: { move_number: 7, turn_seat: 1, phase: 'PHASE_DISCARD' },
        events: [{ kind: 'EVENT_KIND_DREW_FROM_WALL', seat: 1 }],
      });
    },
    LegalMoves(call, callback) {
      received.push(['LegalMoves', call.request]);
      callback(null, { moves: [{ kind: 'MOVE_KIND_TIMEOUT', seat: call.request.seat }] });
    },
    PlayerView(call, callback) {
      received.push(['PlayerView', call.request]);
      const seconds = call.request.seat === 3 ? '253402300800' : '1796148000'; // seat 3: past year 9999
      callback(null, { seat: call.request.seat, turn_deadline: { seconds, nanos: 250_000_000 } });
    },
  });
  server.addService(contract.definition['okey.v1.ScoringService'], {
    ScoreRound(call, callback) {
      received.push(['ScoreRound', call.request]);
      const token = call.request.round?.state;
      callback(null, { round_value: 2, next_round: token ? Number(tokenText(token).split(':')[2]) : 0 });
    },
    ScoreGame(call, callback) {
      received.push(['ScoreGame', call.request]);
      callback(null, {});
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

describe('GameService through OkeyClient.call', () => {
  test('a request Timestamp given in RFC 3339 reaches the server as seconds and nanos', async () => {
    received = [];
    await client.call('GameService', 'LegalMoves', { state: 'AQID', seat: 2, now: '2026-12-01T21:00:00.5+03:00' });
    assert.deepEqual(received, [['LegalMoves', { state: 'AQID', seat: 2, now: { seconds: '1796148000', nanos: 500_000_000 } }]]);
  });

  test('a response Timestamp comes back as an RFC 3339 string in UTC', async () => {
    const view = await client.call('okey.v1.GameService', 'PlayerView', { state: 'AQID', seat: 1 });
    assert.equal(view.turnDeadline, '2026-12-01T18:00:00.250Z');
    assert.equal(view.seat, 1);
  });

  test('a response Timestamp proto3 JSON cannot write fails the call instead of throwing out of the callback', async () => {
    await assert.rejects(
      client.call('GameService', 'PlayerView', { state: 'AQID', seat: 3 }),
      (err) => err instanceof RangeError && /turn_deadline/.test(err.message),
    );
  });

  test('a Replay log carries a Timestamp per move', async () => {
    received = [];
    const answer = await client.call('GameService', 'Replay', {
      deal: { seed: 'table-7', now: '2026-12-01T18:00:00Z' },
      moves: [{ move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 }, now: '2026-12-01T18:00:05Z' }],
    });
    assert.deepEqual(received[0][1].deal.now, { seconds: '1796148000', nanos: 0 });
    assert.deepEqual(received[0][1].moves[0].now, { seconds: '1796148005', nanos: 0 });
    assert.equal(answer.legal, true);
    assert.equal(answer.movesApplied, 1);
  });

  test('call() answers the sealed state as base64 (proto3 JSON); the helpers hand it out as a Buffer', async () => {
    const request = { deal: { seed: 'bytes' }, moves: [{ move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 } }] };
    const asJson = await client.call('GameService', 'Replay', request);
    assert.equal(asJson.state, Buffer.from('sealed:bytes:1').toString('base64'));
    const replayed = await client.replay(request);
    assert.ok(Buffer.isBuffer(replayed.state));
    assert.equal(replayed.state.toString(), 'sealed:bytes:1');
    assert.deepEqual(replayed.status, asJson.status, 'the public facts are the same either way');
    assert.equal(replayed.status.turnSeat, 2);
  });

  test('a state goes out byte for byte whether given as a Buffer, a Uint8Array or base64 text', async () => {
    const token = Buffer.from([1, 0, 0, 0, 7, 0xfb, 0xff, 0x3e]);
    const forms = [token, new Uint8Array(token), token.toString('base64'), token.toString('base64url')];
    for (const state of forms) {
      received = [];
      const answer = await client.applyMove({ state, move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 } });
      assert.deepEqual(Buffer.from(received[0][1].state, 'base64'), token, `sent as ${state.constructor.name}`);
      assert.deepEqual(answer.state, token, 'the echoed token comes back as the same bytes');
      assert.equal(answer.status.moveNumber, 7);
    }
    // A Uint8Array that views part of a larger buffer sends only its own bytes.
    const inside = new Uint8Array([120, 120, ...token]).subarray(2);
    received = [];
    await client.applyMove({ state: inside, move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 } });
    assert.deepEqual(Buffer.from(received[0][1].state, 'base64'), token);
  });

  test('text that is not base64 is refused before any call, naming the field', async () => {
    received = [];
    await assert.rejects(
      client.applyMove({ state: 'not base64!', move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 1 } }),
      (err) => err.name === 'JsonShapeError' && err.path === 'ApplyMoveRequest.state',
    );
    await assert.rejects(
      client.applyMove({ state: { dealId: 'an old GameState object' } }),
      (err) => err.name === 'JsonShapeError' && /Buffer/.test(err.message),
    );
    assert.deepEqual(received, []);
  });
});

describe('conformance cases with given_state', () => {
  const vectors = { file: 'game_probe.json', suite: 'probe', source: 'game.proto', service: 'okey.v1.GameService', method: 'ApplyMove', cases: [] };
  const given = {
    deal: { seed: 'table-7', playerCount: 4 },
    moves: [{ move: { kind: 'MOVE_KIND_DISCARD', seat: 1, tile: { color: 'COLOR_RED', number: 5 } }, now: '2026-12-01T18:00:00Z' }],
  };
  const applyCase = (extra) => ({
    name: 'probe',
    reason: 'game.proto: a probe',
    request: { move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 2 }, now: '2026-12-01T18:00:10Z' },
    expect: { response: { legal: true, state: Buffer.from('sealed:table-7:1').toString('base64'), status: { moveNumber: 7 } } },
    given_state: given,
    ...extra,
  });

  test('the Replay answer\'s state becomes the request\'s state, then the case\'s method is called', async () => {
    received = [];
    const result = await runCase(client, vectors, applyCase({}));
    assert.deepEqual(result.problems, []);
    assert.ok(result.passed);
    assert.deepEqual(received.map(([m]) => m), ['Replay', 'ApplyMove']);
    assert.deepEqual(received[0][1].moves[0].now, { seconds: '1796148000', nanos: 0 }, 'given_state is sent as a ReplayRequest');
    assert.equal(tokenText(received[1][1].state), 'sealed:table-7:1', 'the token is carried unchanged');
    assert.deepEqual(received[1][1].now, { seconds: '1796148010', nanos: 0 });
  });

  test('a state written in the request is overwritten by the replayed one', async () => {
    received = [];
    const testCase = applyCase({});
    testCase.request = { ...testCase.request, state: Buffer.from('stale').toString('base64') };
    const result = await runCase(client, vectors, testCase);
    assert.ok(result.passed, result.problems.join('\n'));
    assert.equal(tokenText(received[1][1].state), 'sealed:table-7:1');
  });

  test('without given_state the request goes out as written and Replay is not called', async () => {
    received = [];
    const written = Buffer.from('as-written').toString('base64');
    const testCase = applyCase({ expect: { response: { legal: true, state: written } } });
    delete testCase.given_state;
    testCase.request = { ...testCase.request, state: written };
    const result = await runCase(client, vectors, testCase);
    assert.ok(result.passed, result.problems.join('\n'));
    assert.deepEqual(received.map(([m]) => m), ['ApplyMove']);
  });

  test('a given_state Replay answers legal: false: the case fails naming the move and reason, and the method is not called', async () => {
    received = [];
    const illegal = { ...given, moves: [...given.moves, { move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 9 } }] };
    const result = await runCase(client, vectors, applyCase({ given_state: illegal }));
    assert.equal(result.passed, false);
    assert.deepEqual(result.problems, [
      'given_state: okey.v1.GameService/Replay answered legal: false, move 1 is illegal: ILLEGAL_REASON_NOT_YOUR_TURN (seat 9 is not on turn)',
    ]);
    assert.deepEqual(received.map(([m]) => m), ['Replay']);
  });

  test('a given_state Replay call that fails fails the case with the status', async () => {
    received = [];
    const result = await runCase(client, vectors, applyCase({ given_state: { deal: { seed: 'refused' } } }));
    assert.equal(result.passed, false);
    assert.deepEqual(result.problems, ['given_state: okey.v1.GameService/Replay failed: INVALID_ARGUMENT: deal.seed: refused']);
    assert.deepEqual(received.map(([m]) => m), ['Replay']);
  });

  test('a given_state that is not a ReplayRequest fails the case before any call', async () => {
    received = [];
    const result = await runCase(client, vectors, applyCase({ given_state: { deal: {}, state: 'AQID' } }));
    assert.equal(result.passed, false);
    assert.match(result.problems[0], /^given_state: okey\.v1\.GameService\/Replay failed: .*oneof start/);
    const notObject = await runCase(client, vectors, applyCase({ given_state: ['deal'] }));
    assert.match(notObject.problems[0], /^given_state: expected a ReplayRequest object/);
    assert.deepEqual(received, []);
  });

  test('given_state on a method whose request has no state field fails the case', async () => {
    const hand = { ...vectors, service: 'okey.v1.HandService', method: 'CheckHand' };
    const result = await runCase(client, hand, applyCase({ request: { handNotation: 'R1' } }));
    assert.deepEqual(result.problems, ['given_state: okey.v1.CheckHandRequest has no state field to put the replayed state in']);
  });

  test('ScoreRound: the replayed state goes into round.state and replaces a result given there', async () => {
    received = [];
    const scoring = { ...vectors, service: 'okey.v1.ScoringService', method: 'ScoreRound' };
    const testCase = applyCase({
      request: { round: { result: { drawn: true } }, table: { scores: [20, 20, 20, 20] } },
      expect: { response: { roundValue: 2, nextRound: 1 } },
    });
    const result = await runCase(client, scoring, testCase);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(received.map(([m]) => m), ['Replay', 'ScoreRound']);
    const sent = received[1][1];
    assert.equal(tokenText(sent.round.state), 'sealed:table-7:1');
    assert.equal(sent.round.result, undefined, 'the oneof holds the state, not the result');
    assert.deepEqual(sent.table.scores, [20, 20, 20, 20], 'the rest of the request is sent as written');
  });

  test('ScoreGame has no single place for a state (rounds is a list): given_state fails the case', async () => {
    received = [];
    const scoring = { ...vectors, service: 'okey.v1.ScoringService', method: 'ScoreGame' };
    const result = await runCase(client, scoring, applyCase({ request: { rounds: [] } }));
    assert.deepEqual(result.problems, ['given_state: okey.v1.ScoreGameRequest has no state field to put the replayed state in']);
    assert.deepEqual(received, []);
  });

  test('an unknown case key fails the case, so a misspelt given_state is not ignored', async () => {
    received = [];
    const testCase = applyCase({});
    delete testCase.given_state;
    testCase.givenState = given;
    const result = await runCase(client, vectors, testCase);
    assert.equal(result.passed, false);
    assert.match(result.problems[0], /^unknown case key "givenState"; a case has name, reason, request, expect, given_state\b/);
    assert.deepEqual(received, []);
  });

  test('the expected response compares the replayed answer, so a wrong expectation fails', async () => {
    const result = await runCase(client, vectors, applyCase({ expect: { response: { status: { moveNumber: 2 } } } }));
    assert.deepEqual(result.problems, ['status.moveNumber: expected 2, got 7']);
  });
});

test('a vector file whose cases carry given_state loads and runs like any other', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'okey-vectors-'));
  try {
    writeFileSync(path.join(dir, 'game_probe.json'), JSON.stringify({
      suite: 'game-probe',
      source: 'game.proto',
      service: 'okey.v1.GameService',
      method: 'ApplyMove',
      cases: [{
        name: 'draw-after-a-discard',
        reason: 'game.proto: a probe',
        given_state: { deal: { seed: 'file' }, moves: [{ move: { kind: 'MOVE_KIND_DISCARD', seat: 1 }, now: '2026-12-01T18:00:00Z' }] },
        request: { move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: 2 } },
        expect: { response: { legal: true, state: Buffer.from('sealed:file:1').toString('base64') } },
      }],
    }));
    const { files, skipped } = loadVectorFiles(dir);
    assert.deepEqual(skipped, []);
    assert.equal(files.length, 1);
    const results = await runVectors(client, files);
    assert.deepEqual(results.map((r) => [r.name, r.passed, r.problems]), [['draw-after-a-discard', true, []]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
