// The okey.v1 contract as this client sees it from a live server, beyond what
// the vectors pin: omit_arrangements, ErrorReason names on refusals, deal
// answers made of Tile messages with every default filled in, and timestamps
// through GameService (which the server serves: an UNIMPLEMENTED answer fails).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ErrorReason, OkeyClient, OkeyError, parseTimestamp } from '../src/index.js';
import { liveServer } from './live-server.js';

const server = await liveServer();
const skip = 'skip' in server ? server.skip : false;

const TILE_KEYS = ['color', 'copy', 'falseJoker', 'number'];
const WINNING_14 = 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5';
const WINNING_15 = `${WINNING_14} K13`;

/** Calls and returns the OkeyError it must fail with. */
async function refusal(promise) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OkeyError) return err;
    throw err;
  }
  throw new assert.AssertionError({ message: 'the call was answered, not refused' });
}

describe('the okey.v1 contract against a live server', { skip }, () => {
  let client;

  before(async () => {
    client = new OkeyClient(server.address, { channelOptions: { 'grpc.so_reuseport': 0 } });
    await client.ready();
  });

  after(async () => {
    client?.close();
    await server.stop();
  });

  test('omitArrangements leaves the arrangement of a 14-tile hand out, the verdict unchanged', async () => {
    const full = await client.checkHand({ handNotation: WINNING_14, indicatorNotation: 'R4' });
    const bare = await client.checkHand({ handNotation: WINNING_14, indicatorNotation: 'R4', omitArrangements: true });
    assert.ok(full.arrangement, 'without the option the arrangement is there');
    assert.ok(!('arrangement' in bare));
    const { arrangement, ...verdict } = full;
    assert.deepEqual(bare, verdict);
  });

  test('omitArrangements lists the winning discards of a 15-tile hand without their arrangements', async () => {
    const full = await client.checkHand({ handNotation: WINNING_15, okeyNotation: 'R5' });
    const bare = await client.checkHand({ handNotation: WINNING_15, okeyNotation: 'R5', omitArrangements: true });
    assert.ok(full.winningDiscards.length > 0);
    assert.ok(full.winningDiscards.every((d) => d.arrangement));
    assert.ok(bare.winningDiscards.every((d) => !('arrangement' in d)));
    assert.deepEqual(bare.winningDiscards, full.winningDiscards.map(({ arrangement, ...rest }) => rest));
  });

  test('a refusal carries an ErrorReason name, in ErrorInfo and in the field violation', async () => {
    const cases = [
      [{ hand: { tiles: [{ color: 'COLOR_RED', number: 1 }] }, indicatorNotation: 'R4' }, 'hand.tiles', 'ERROR_REASON_INVALID_TILES'],
      [{ handNotation: 'R1 R2 R14', indicatorNotation: 'R4' }, 'hand_notation', 'ERROR_REASON_INVALID_TILES'],
      [{ handNotation: WINNING_14, indicatorNotation: 'F' }, 'indicator_notation', 'ERROR_REASON_INVALID_INDICATOR'],
      [{ handNotation: WINNING_14, okey: { falseJoker: true } }, 'okey', 'ERROR_REASON_INVALID_OKEY'],
      [{ handNotation: WINNING_14, indicatorNotation: 'R4', preset: 'no such preset' }, 'preset', 'ERROR_REASON_INVALID_RULESET'],
    ];
    for (const [request, field, reason] of cases) {
      const err = await refusal(client.checkHand(request));
      assert.equal(err.codeName, 'INVALID_ARGUMENT');
      assert.equal(err.reason, reason, JSON.stringify(request));
      assert.ok(Object.hasOwn(ErrorReason, err.reason));
      assert.equal(err.errorInfo.domain, 'okey-rules');
      assert.equal(err.fieldViolations.length, 1);
      const [violation] = err.fieldViolations;
      assert.ok(violation.field === field || violation.field.startsWith(`${field}[`), `${violation.field} is under ${field}`);
      assert.equal(violation.reason, reason);
    }
    const deal = await refusal(client.deal({ seed: '42', playerCount: 5 }));
    assert.equal(deal.reason, ErrorReason.ERROR_REASON_INVALID_DEAL);
  });

  test('a formal deal answers every tile as a Tile message with its copy, defaults filled', async () => {
    const deal = await client.deal({ seed: '42', method: 'DEAL_METHOD_FORMAL' });
    assert.ok(!('indicatorCode' in deal));
    const tiles = [
      deal.indicator,
      deal.okey,
      deal.formal.spare,
      ...deal.racks.flatMap((r) => r.tiles),
      ...deal.wall,
      ...deal.formal.stacks.flatMap((s) => s.tiles),
      ...deal.formal.takes.flatMap((t) => t.tiles),
    ];
    for (const tile of tiles) assert.deepEqual(Object.keys(tile).sort(), TILE_KEYS);
    // Racks, wall and the face-up indicator are the 106 tiles, each once.
    const place = (t) => `${t.copy}:${t.falseJoker ? 'F' : `${t.color}${t.number}`}`;
    const dealt = [deal.indicator, ...deal.racks.flatMap((r) => r.tiles), ...deal.wall].map(place);
    assert.equal(new Set(dealt).size, 106);
  });

  test("a dealt rack's Tile messages go back as the hand and get the verdict of its notation", async () => {
    const deal = await client.deal({ seed: 'rack round trip' });
    const rack = deal.racks.find((r) => r.seat === deal.firstSeat);
    const byTiles = await client.checkHand({ hand: { tiles: rack.tiles }, indicator: deal.indicator });
    const byNotation = await client.checkHand({ handNotation: rack.notation, indicator: deal.indicator });
    assert.deepEqual(byTiles, byNotation);
  });

  test("a timed deal's clock reaches the state, and PlayerView answers the first turn's deadline in RFC 3339", async () => {
    const deal = await client.deal({ seed: 'node timestamps', now: '2026-12-01T21:00:00+03:00', ruleset: { moveTimerSeconds: 45 } });
    const view = await client.call('GameService', 'PlayerView', { state: deal.state, seat: deal.firstSeat });
    assert.equal(view.seat, deal.firstSeat);
    assert.equal(view.rack.length, 15);
    // 45 s after the deal's clock, however the server spells the instant.
    assert.deepEqual(parseTimestamp(view.turnDeadline, 'turnDeadline'), parseTimestamp('2026-12-01T18:00:45Z', 'expected'));
  });

  test('a state carried unchanged from answer to answer plays the opening turns', async () => {
    // The state crosses the client as proto3 JSON (bytes in base64, uint64 as
    // strings) and must come back byte for byte, or its MAC fails.
    const deal = await client.deal({ seed: 'node state round trip' });
    const first = deal.firstSeat;
    const next = (first + 1) % deal.playerCount;
    const tile = deal.racks.find((r) => r.seat === first).tiles[0];
    const opened = await client.call('GameService', 'ApplyMove', { state: deal.state, move: { kind: 'MOVE_KIND_DISCARD', seat: first, tile } });
    assert.equal(opened.legal, true, opened.message);
    assert.deepEqual(opened.events.map((e) => [e.kind, e.seat]), [['EVENT_KIND_DISCARDED', first]]);
    const moves = await client.call('GameService', 'LegalMoves', { state: opened.state, seat: next });
    assert.ok(moves.moves.some((m) => m.kind === 'MOVE_KIND_TAKE_DISCARD'));
    const drew = await client.call('GameService', 'ApplyMove', { state: opened.state, move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: next } });
    assert.equal(drew.legal, true, drew.message);
    const view = await client.call('GameService', 'PlayerView', { state: drew.state, seat: next });
    assert.equal(view.rack.length, 15);
    assert.equal(view.phase, 'PHASE_DISCARD');
    assert.deepEqual(view.seats[first].discards, [tile]);
  });

  test('Replay takes a DealRequest and a move log with a clock per move', async () => {
    const request = { seed: 'node replay', now: '2026-12-01T18:00:00Z' };
    const deal = await client.deal(request);
    const tile = deal.racks.find((r) => r.seat === deal.firstSeat).tiles[0];
    const move = { kind: 'MOVE_KIND_DISCARD', seat: deal.firstSeat, tile };
    const answer = await client.call('GameService', 'Replay', {
      deal: request,
      moves: [{ move, now: '2026-12-01T18:00:05.250Z' }],
    });
    assert.equal(answer.legal, true, answer.message);
    assert.equal(answer.movesApplied, 1);
    assert.ok(answer.state);
  });
});
