// The okey.v1 contract as this client sees it from a live server, beyond what
// the vectors pin: omit_arrangements, ErrorReason names on refusals, deal
// answers made of Tile messages with every default filled in, timestamps
// through GameService (which the server serves: an UNIMPLEMENTED answer fails),
// the sealed state carried as bytes with its RoundStatus, and committed and
// stacked deals through the helpers.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ErrorReason, OkeyClient, OkeyError, clientSeedHash, commitmentOf, parseTimestamp } from '../src/index.js';
import { liveServer } from './live-server.js';

const server = await liveServer();
const skip = 'skip' in server ? server.skip : false;

const TILE_KEYS = ['color', 'copy', 'falseJoker', 'number'];
const WINNING_14 = 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5';
const WINNING_15 = `${WINNING_14} K13`;
// The moves `playOut` plays a round to its end with, first offered first: a win
// as soon as one is offered (it may be required), else draw, end the round at
// an empty wall, discard; a discard is taken only when nothing else is offered.
const MOVE_ORDER = ['MOVE_KIND_DECLARE_WIN', 'MOVE_KIND_DRAW_FROM_WALL', 'MOVE_KIND_END_ROUND', 'MOVE_KIND_DISCARD', 'MOVE_KIND_TAKE_DISCARD'];
const MAX_MOVES = 1000; // far more than a round takes; bounds the loop

/**
 * Plays a dealt round to its end through the helpers, whose turn read from each
 * answer's status (never from the token), and returns the finished state.
 */
async function playOut(client, dealt) {
  let { state, status } = dealt;
  for (let i = 0; i < MAX_MOVES && !status.roundOver; i += 1) {
    const { moves } = await client.legalMoves({ state, seat: status.turnSeat });
    const move = MOVE_ORDER.map((kind) => moves.find((m) => m.kind === kind)).find(Boolean);
    const answer = await client.applyMove({ state, move });
    assert.equal(answer.legal, true, answer.message);
    ({ state, status } = answer);
  }
  assert.equal(status.roundOver, true);
  assert.equal(status.phase, 'PHASE_ROUND_OVER');
  return state;
}

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
    const deadline = parseTimestamp('2026-12-01T18:00:45Z', 'expected');
    assert.deepEqual(parseTimestamp(view.turnDeadline, 'turnDeadline'), deadline);
    // The deal's status says the same without opening anything.
    assert.deepEqual(parseTimestamp(deal.status.turnDeadline, 'status.turnDeadline'), deadline);
  });

  test("a seeded deal's status and views name it by its keyed id, never by a deal id a seat could re-deal", async () => {
    const deal = await client.deal({ seed: 'node seeded id' });
    assert.ok(Buffer.isBuffer(deal.state), 'the helper hands the sealed state out as bytes');
    assert.equal(deal.status.dealKind, 'DEAL_KIND_SEEDED');
    assert.match(deal.status.seededDealId, /^[0-9a-f]{32}$/);
    assert.equal(deal.dealId, deal.status.seededDealId);
    assert.equal(deal.commitment, '');
    assert.equal(deal.status.turnSeat, deal.firstSeat);
    assert.equal(deal.status.phase, 'PHASE_FIRST_DISCARD');
    const view = await client.playerView({ state: deal.state, seat: 0 });
    assert.ok(!('dealId' in view));
    assert.equal(view.dealKind, 'DEAL_KIND_SEEDED');
    assert.equal(view.seededDealId, deal.status.seededDealId);
  });

  test('a changed token is refused on state with ERROR_REASON_INVALID_STATE', async () => {
    const deal = await client.deal({ seed: 'node tampered token' });
    const changed = Buffer.from(deal.state);
    changed[changed.length - 1] ^= 1;
    const err = await refusal(client.playerView({ state: changed, seat: 0 }));
    assert.equal(err.codeName, 'INVALID_ARGUMENT');
    assert.equal(err.reason, ErrorReason.ERROR_REASON_INVALID_STATE);
    assert.deepEqual(err.fieldViolations.map((v) => v.field), ['state']);
  });

  test('a committed deal: CommitSeed with the client seed hashes, Deal under its id, RevealSeed once over, the commitment recomputed here', async () => {
    const clientSeeds = ['north: 7 1 4', 'east', 'south ✓', 'west'];
    const committed = await client.commitSeed({ playerCount: 4, dealerSeat: 2, clientSeedHashes: clientSeeds.map(clientSeedHash) });
    assert.match(committed.commitment, /^[0-9a-f]{64}$/);
    assert.deepEqual(committed.inputs.clientSeedHashes, clientSeeds.map(clientSeedHash));
    const dealt = await client.dealCommitted(committed, { clientSeeds });
    assert.equal(dealt.seed, '', 'the seed is withheld until the round is over');
    assert.equal(dealt.commitment, committed.commitment);
    assert.equal(dealt.status.dealKind, 'DEAL_KIND_COMMITTED');
    assert.equal(dealt.status.commitment, committed.commitment);
    assert.equal(dealt.dealerSeat, 2);
    assert.deepEqual(dealt.clientSeeds, clientSeeds);
    const view = await client.playerView({ state: dealt.state, seat: 0 });
    assert.equal(view.commitment, committed.commitment);
    assert.equal(view.seededDealId, '');

    // Before the round is over the seed stays secret.
    const early = await refusal(client.revealSeed({ dealId: committed.dealId, state: dealt.state }));
    assert.deepEqual(early.fieldViolations.map((v) => v.field), ['state']);

    const finished = await playOut(client, dealt);
    const revealed = await client.revealSeed({ dealId: committed.dealId, state: finished });
    assert.equal(revealed.commitment, committed.commitment);
    assert.deepEqual(revealed.inputs, committed.inputs);
    assert.equal(commitmentOf(revealed.seed, revealed.inputs), committed.commitment);
    assert.notEqual(commitmentOf(`${revealed.seed}x`, revealed.inputs), committed.commitment);
  });

  test('a deal under a commitment with another input or other client seeds is ERROR_REASON_COMMITMENT_MISMATCH', async () => {
    const clientSeeds = ['a', 'b'];
    const committed = await client.commitSeed({ playerCount: 2, clientSeedHashes: clientSeeds.map(clientSeedHash) });
    const swapped = await refusal(client.dealCommitted(committed, { clientSeeds: ['b', 'a'] }));
    assert.equal(swapped.reason, ErrorReason.ERROR_REASON_COMMITMENT_MISMATCH);
    assert.deepEqual(swapped.fieldViolations.map((v) => v.field), ['client_seeds[0]']);
    const other = await refusal(client.deal({ dealId: committed.dealId, clientSeeds, playerCount: 3 }));
    assert.equal(other.reason, ErrorReason.ERROR_REASON_COMMITMENT_MISMATCH);
    assert.deepEqual(other.fieldViolations.map((v) => v.field), ['player_count']);
    const none = await refusal(client.commitSeed({ playerCount: 2 }));
    assert.deepEqual(none.fieldViolations.map((v) => v.field), ['client_seed_hashes']);
  });

  test('a stacked position is dealt tile by tile as given and marked DEAL_KIND_STACKED', async () => {
    const seeded = await client.deal({ seed: 'node stacked' });
    const racks = seeded.racks.map((r) => ({ tiles: r.tiles }));
    [racks[0], racks[2]] = [racks[2], racks[0]];
    const stacked = await client.dealStacked({ racks, wall: seeded.wall, indicator: seeded.indicator });
    assert.equal(stacked.status.dealKind, 'DEAL_KIND_STACKED');
    assert.deepEqual([stacked.seed, stacked.dealId, stacked.commitment], ['', '', '']);
    assert.deepEqual(stacked.racks[0].tiles, seeded.racks[2].tiles);
    assert.deepEqual(stacked.wall, seeded.wall);
    const view = await client.playerView({ state: stacked.state, seat: 0 });
    assert.equal(view.dealKind, 'DEAL_KIND_STACKED');
    assert.deepEqual(view.rack, seeded.racks[2].tiles);
  });

  test('a state carried unchanged from answer to answer plays the opening turns', async () => {
    // The state is a sealed token: the helpers hand it out as a Buffer, call()
    // as base64 text; either goes back byte for byte, or it does not open.
    const deal = await client.deal({ seed: 'node state round trip' });
    const first = deal.firstSeat;
    const next = (first + 1) % deal.playerCount;
    const tile = deal.racks.find((r) => r.seat === first).tiles[0];
    const opened = await client.applyMove({ state: deal.state, move: { kind: 'MOVE_KIND_DISCARD', seat: first, tile } });
    assert.equal(opened.legal, true, opened.message);
    assert.ok(Buffer.isBuffer(opened.state));
    assert.deepEqual(opened.events.map((e) => [e.kind, e.seat]), [['EVENT_KIND_DISCARDED', first]]);
    assert.deepEqual([opened.status.turnSeat, opened.status.phase, opened.status.moveNumber], [next, 'PHASE_DRAW', 1]);
    const moves = await client.legalMoves({ state: opened.state, seat: next });
    assert.ok(moves.moves.some((m) => m.kind === 'MOVE_KIND_TAKE_DISCARD'));
    const drew = await client.call('GameService', 'ApplyMove', { state: opened.state.toString('base64'), move: { kind: 'MOVE_KIND_DRAW_FROM_WALL', seat: next } });
    assert.equal(drew.legal, true, drew.message);
    assert.equal(typeof drew.state, 'string', 'call() answers proto3 JSON: bytes in base64');
    const view = await client.playerView({ state: drew.state, seat: next });
    assert.equal(view.rack.length, 15);
    assert.equal(view.phase, 'PHASE_DISCARD');
    assert.deepEqual(view.seats[first].discards, [tile]);
  });

  test('Replay takes a DealRequest and a move log with a clock per move', async () => {
    const request = { seed: 'node replay', now: '2026-12-01T18:00:00Z' };
    const deal = await client.deal(request);
    const tile = deal.racks.find((r) => r.seat === deal.firstSeat).tiles[0];
    const move = { kind: 'MOVE_KIND_DISCARD', seat: deal.firstSeat, tile };
    const answer = await client.replay({
      deal: request,
      moves: [{ move, now: '2026-12-01T18:00:05.250Z' }],
    });
    assert.equal(answer.legal, true, answer.message);
    assert.equal(answer.movesApplied, 1);
    assert.ok(Buffer.isBuffer(answer.state) && answer.state.length > 0);
    assert.deepEqual([answer.status.moveNumber, answer.status.phase], [1, 'PHASE_DRAW']);
  });
});
