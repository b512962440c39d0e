// The Deal conformance vectors re-derived in JavaScript from docs/dealing.md:
// the docs promise that a client in any language gets the same deal from the
// same seed, so this file implements the documented stream, shuffle and deals
// (sharing no code with the Python server or scripts/deal_referee.py)
// and checks every seeded vector against it. No server needed; the live run
// of the same vectors through OkeyClient is in conformance.test.js.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import { loadVectorFiles } from '../src/index.js';

const DOMAIN = Buffer.from('okey-rules/v1/shuffle\0', 'ascii');
const isFalseJoker = (code) => code % 53 === 52;

/** The SHA-256 counter-mode word stream of a seed (docs/dealing.md, "The random stream"). */
function stream(seed) {
  const seedBytes = Buffer.from(seed, 'utf8');
  let block = 0n;
  let words = [];
  const word = () => {
    if (words.length === 0) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(block++);
      const digest = createHash('sha256').update(Buffer.concat([DOMAIN, seedBytes, counter])).digest();
      words = Array.from({ length: 8 }, (_, i) => digest.readUInt32BE(4 * i));
    }
    return words.shift();
  };
  const below = (n) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const w = word();
      if (w < limit) return w % n;
    }
  };
  return { below, die: () => below(6) + 1 };
}

function shuffle(s) {
  const a = Array.from({ length: 106 }, (_, i) => i);
  for (let i = 105; i >= 1; i--) {
    const j = s.below(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Informal classic and Okey 101 deals: indicator, racks by seat, wall, first seat. */
function dealInformal(seed, players, dealer, okey101, drawableLast) {
  const s = stream(seed);
  const a = shuffle(s);
  // A false joker turned up is put back: it swaps with a[1 + below(105)].
  while (isFalseJoker(a[0])) {
    const j = 1 + s.below(105);
    [a[0], a[j]] = [a[j], a[0]];
  }
  const indicator = a[0];
  const rest = a.slice(1);
  const first = okey101 ? dealer : (dealer + 1) % players;
  const sizes = okey101 ? [22, 21] : [15, 14];
  const racks = [];
  let pos = 0;
  for (let step = 0; step < players; step++) {
    const size = step === 0 ? sizes[0] : sizes[1];
    racks[(first + step) % players] = rest.slice(pos, pos + size);
    pos += size;
  }
  const wall = [...rest.slice(pos), ...(drawableLast ? [indicator] : [])];
  return { indicator, racks, wall, first };
}

/** The formal deal (docs/dealing.md): 21 stacks of 5 and a spare, dice, takes 15/14/14/14. */
function dealFormal(seed, dealer, givenDice, drawableLast) {
  const s = stream(seed);
  const a = shuffle(s);
  const stacks = Array.from({ length: 21 }, (_, k) => a.slice(5 * k, 5 * k + 5));
  const spare = a[105];
  const given = givenDice && givenDice.length > 0 ? [...givenDice] : null;
  const roll = () => (given ? given.shift() : s.die());
  const dice = [roll()];
  const p = dice[0] - 1;
  const tall = [...stacks[p], spare];
  let position;
  do {
    position = roll();
    dice.push(position);
  } while (isFalseJoker(tall[position - 1]));
  const at = (letter) => (p + 1 + 'abcdefghijklmnopqrst'.indexOf(letter)) % 21;
  const [first, opposite, left] = [1, 2, 3].map((n) => (dealer + n) % 4);
  const parts = [
    [first, 'a', 'whole', 0, 5], [opposite, 'b', 'whole', 0, 5], [left, 'c', 'whole', 0, 5],
    [dealer, 'd', 'whole', 0, 5], [first, 'e', 'whole', 0, 5], [opposite, 'f', 'whole', 0, 5],
    [left, 'g', 'whole', 0, 5], [dealer, 'h', 'whole', 0, 5], [first, 'i', 'whole', 0, 5],
    [opposite, 'j', 'top 4', 1, 5], [left, 'j', 'bottom 1', 0, 1], [left, 'k', 'top 3', 2, 5],
    [dealer, 'k', 'bottom 2', 0, 2], [dealer, 'l', 'top 2', 3, 5],
  ];
  const racks = [[], [], [], []];
  const takes = parts.map(([seat, letter, part, from, to]) => {
    const tiles = stacks[at(letter)].slice(from, to);
    racks[seat].push(...tiles);
    return { seat, stack: at(letter), letter, part, tiles };
  });
  const wall = stacks[at('l')].slice(0, 3).reverse();
  for (const letter of 'mnopqrst') wall.push(...[...stacks[at(letter)]].reverse());
  wall.push(...tall.filter((_, i) => i !== position - 1).reverse());
  if (drawableLast) wall.push(tall[position - 1]);
  return {
    indicator: tall[position - 1], racks, wall, first,
    formal: { dice, spare, indicatorStack: p, indicatorPosition: position, takes, stacks },
  };
}

/**
 * The seed the shuffle runs on (docs/dealing.md, "Client seeds"): the seed
 * itself without client seeds, else the lower-case hex SHA-256 of the
 * domain and every string length-prefixed (u32 big-endian), seed first.
 */
function mixedSeed(seed, clientSeeds) {
  if (!clientSeeds || clientSeeds.length === 0) return seed;
  const parts = [Buffer.from('okey.v1.client-seeds\0', 'ascii')];
  for (const text of [seed, ...clientSeeds]) {
    const raw = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(raw.length);
    parts.push(length, raw);
  }
  return createHash('sha256').update(Buffer.concat(parts)).digest('hex');
}

function derive(request) {
  const ruleset = request.ruleset ?? {};
  const seed = mixedSeed(request.seed, request.clientSeeds ?? request.client_seeds);
  const okey101 = request.preset === '101' || ruleset.game === 'GAME_OKEY_101';
  const players = request.playerCount || 4;
  const dealer = request.dealerSeat ?? 0;
  const drawableLast = ruleset.indicatorDrawableLast === true;
  if (request.method === 'DEAL_METHOD_FORMAL') return dealFormal(seed, dealer, request.dice, drawableLast);
  return dealInformal(seed, players, dealer, okey101, drawableLast);
}

const COLOURS = ['COLOR_RED', 'COLOR_YELLOW', 'COLOR_BLUE', 'COLOR_BLACK'];

/** A Tile in proto3 JSON as its place among the 106 (copy * 53 + face; face 52: false joker). */
function code(tile) {
  const face = tile.falseJoker ? 52 : COLOURS.indexOf(tile.color) * 13 + tile.number - 1;
  return (tile.copy ?? 0) * 53 + face;
}
const codes = (tiles) => tiles.map(code);

const dealFiles = loadVectorFiles().files.filter((f) => f.service === 'okey.v1.DealService' && f.method === 'Deal');
const answered = dealFiles.flatMap((f) => f.cases.filter((c) => c.expect.response).map((c) => ({ file: f.file, ...c })));
// Deals from a seed the request gives; a stacked deal places its tiles, and a
// committed one (given_commitment) shuffles from a seed nobody knows yet.
const seeded = answered.filter((c) => typeof c.request.seed === 'string' && c.given_commitment === undefined);
const stacked = answered.filter((c) => c.request.stacked !== undefined);

describe('Deal vectors re-derived in JavaScript from docs/dealing.md', () => {
  test('tests/conformance holds Deal vectors the conformance runner loads', () => {
    assert.ok(dealFiles.length > 0, 'no okey.v1.DealService/Deal vector file in tests/conformance');
    assert.ok(seeded.length >= 20, `only ${seeded.length} seeded deal vectors`);
  });

  for (const vector of seeded) {
    test(`${vector.file}: ${vector.name}`, () => {
      const want = vector.expect.response;
      const got = derive(vector.request);
      // deal.proto: only a committed deal has a commitment; a seeded one is marked as such
      // (its keyed deal id depends on the server's key and is not pinned).
      assert.equal(want.commitment, '');
      assert.equal(want.dealId, undefined);
      assert.equal(want.status.dealKind, 'DEAL_KIND_SEEDED');
      assert.equal(got.indicator, code(want.indicator), 'indicator');
      assert.equal(got.first, want.firstSeat, 'first seat');
      assert.deepEqual(got.racks, want.racks.map((r) => codes(r.tiles)), 'racks');
      assert.deepEqual(got.wall, codes(want.wall), 'wall');
      if (!want.formal) return;
      const { stacks, ...procedure } = got.formal;
      assert.deepEqual(procedure, {
        dice: want.formal.dice,
        spare: code(want.formal.spare),
        indicatorStack: want.formal.indicatorStack,
        indicatorPosition: want.formal.indicatorPosition,
        takes: want.formal.takes.map((t) => ({ ...t, tiles: codes(t.tiles) })),
      });
      assert.deepEqual(stacks, want.formal.stacks.map((st) => codes(st.tiles)), 'stacks');
    });
  }

  test('tests/conformance holds stacked deals', () => {
    assert.ok(stacked.length >= 3, `only ${stacked.length} stacked deal vectors`);
  });

  for (const vector of stacked) {
    test(`${vector.file}: ${vector.name} deals the position as given`, () => {
      const want = vector.expect.response;
      const given = vector.request.stacked;
      // deal.proto, DealRequest.stacked: racks, wall and indicator come back tile for tile.
      assert.deepEqual(want.racks.map((r) => codes(r.tiles)), given.racks.map((r) => codes(r.tiles)), 'racks');
      assert.deepEqual(codes(want.wall), codes(given.wall), 'wall');
      assert.equal(code(want.indicator), code(given.indicator), 'indicator');
      const placed = [...given.racks.flatMap((r) => codes(r.tiles)), ...codes(given.wall)];
      if (placed.length === 105) placed.push(code(given.indicator));
      assert.deepEqual([...placed].sort((a, b) => a - b), Array.from({ length: 106 }, (_, i) => i), 'every tile once');
      assert.equal(want.status.dealKind, 'DEAL_KIND_STACKED');
      assert.equal(want.seed, '');
    });
  }
});
