#!/usr/bin/env node
// Example: check a hand, then (when the protos define DealService) deal a
// seeded round and ask which discards of the first player's rack win.
//
//   node examples/check-and-deal.mjs --server 127.0.0.1:50051
//   node examples/check-and-deal.mjs --hand "R1 R2 R3 ..." --indicator R4 --seed table-7

import { parseArgs } from 'node:util';

import { ErrorReason, OkeyClient, OkeyError } from '../src/index.js';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.OKEY_SERVER || '127.0.0.1:50051' },
    hand: { type: 'string', default: 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5' },
    indicator: { type: 'string', default: 'R4' },
    seed: { type: 'string', default: 'check-and-deal example' },
  },
});

// Display only: a Tile message in the notation of tile.proto ("R7", "F").
const LETTERS = { COLOR_RED: 'R', COLOR_YELLOW: 'Y', COLOR_BLUE: 'B', COLOR_BLACK: 'K' };
const notation = (tile) => (tile.falseJoker ? 'F' : `${LETTERS[tile.color] ?? '?'}${tile.number}`);

const client = new OkeyClient(args.server);
try {
  // 1. A hand in notation; the indicator R4 makes R5 the okey (wild). The
  // hand is one of `handNotation` or `hand: {tiles: [...]}`, the wild one of
  // `indicatorNotation`, `okeyNotation`, `indicator` or `okey`.
  const verdict = await client.checkHand({ handNotation: args.hand, indicatorNotation: args.indicator });
  console.log(`CheckHand: ${verdict.winning ? 'winning' : 'not winning'} (${verdict.summary})`);
  if (verdict.arrangement) console.log(`  arrangement: ${verdict.arrangement.notation}`);

  // 2. A malformed hand is an error naming the bad field and a stable
  // reason to switch on, not a verdict.
  try {
    await client.checkHand({ handNotation: 'R1 R2 R14', indicatorNotation: args.indicator });
  } catch (err) {
    if (!(err instanceof OkeyError)) throw err;
    const fields = err.fieldViolations.map((v) => `${v.field}: ${v.description}`).join('; ');
    const what = err.reason === ErrorReason.ERROR_REASON_INVALID_TILES ? 'the hand' : 'the request';
    console.log(`CheckHand of "R1 R2 R14": ${err.codeName} ${err.reason}, ${what} is wrong (${fields || err.details})`);
  }

  // 3. Deal a seeded round, then check the first player's 15 tiles: every
  // tile of the answer is a Tile message, so the rack goes back as it came.
  if (client.hasService('DealService')) {
    const deal = await client.deal({ seed: args.seed, playerCount: 4 });
    const [indicator, okey] = [deal.indicator, deal.okey].map((t) => (t ? notation(t) : '?'));
    console.log(`Deal: seed ${JSON.stringify(deal.seed)}, indicator ${indicator}, okey ${okey}, wall ${deal.wall.length} tiles`);
    for (const rack of deal.racks) console.log(`  seat ${rack.seat}: ${rack.notation}`);
    const first = deal.racks.find((rack) => rack.seat === deal.firstSeat);
    if (first) {
      // Only which discards win is wanted here, not how: omitArrangements
      // keeps the answer small.
      const answer = await client.checkHand({
        hand: { tiles: first.tiles },
        indicator: deal.indicator,
        omitArrangements: true,
      });
      const discards = answer.winningDiscards.length;
      console.log(`  seat ${first.seat} (moves first): ${answer.winning ? `${discards} winning discard(s)` : 'no winning discard'}`);
    }
  } else {
    console.log('Deal: the loaded protos have no DealService; skipped');
  }
} catch (err) {
  console.error(err instanceof OkeyError ? `${err.message}` : err);
  process.exitCode = 1;
} finally {
  client.close();
}
