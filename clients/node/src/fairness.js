// The checks a player can make of a committed deal without trusting the
// server (docs/dealing.md, "Fairness you can verify"): the hash a player
// commits to for a client seed, and the commitment recomputed from a
// revealed seed and the inputs it binds.

import { createHash } from 'node:crypto';

const COMMITMENT_LABEL = Buffer.from('okey-rules commitment v1\0', 'utf8');
const GAME_NAMES = Object.freeze({ GAME_CLASSIC: 'classic', GAME_OKEY_101: '101' });
const METHOD_NAMES = Object.freeze({ DEAL_METHOD_INFORMAL: 'informal', DEAL_METHOD_FORMAL: 'formal' });
const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * What CommitSeedRequest.clientSeedHashes takes for one client seed: the
 * lower-case hex SHA-256 of its UTF-8 bytes. A player computes it on their
 * own machine and gives only the hash before the commitment is published.
 * @param {string} clientSeed
 * @returns {string}
 */
export function clientSeedHash(clientSeed) {
  if (typeof clientSeed !== 'string') throw new TypeError('a client seed is a string');
  return createHash('sha256').update(clientSeed, 'utf8').digest('hex');
}

/** @param {number} n */
function u32(n) {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff) throw new RangeError(`not a uint32: ${n}`);
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
}

/** u32be(byte length) || the UTF-8 bytes. @param {string} text */
function lengthPrefixed(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u32(bytes.length), bytes]);
}

/**
 * The commitment to `seed` and `inputs` (a CommittedInputs in proto3 JSON, as
 * CommitSeed and RevealSeed answer it): lower-case hex SHA-256 of
 * "okey-rules commitment v1\0" || lp(seed) || lp(game) || lp(method) ||
 * u32be(playerCount) || u32be(dealerSeat) || u32be(round) ||
 * u32be(clientSeedCount) || u32be(number of hashes) || each 32-byte hash,
 * lp(s) being u32be(byte length) || s in UTF-8, game "classic" or "101",
 * method "informal" or "formal" (docs/dealing.md gives the encoding).
 * Equal to the commitment published before play when the server kept its
 * promise.
 * @param {string} seed the revealed seed
 * @param {Record<string, unknown>} inputs
 * @returns {string}
 */
export function commitmentOf(seed, inputs) {
  const game = GAME_NAMES[/** @type {keyof typeof GAME_NAMES} */ (String(inputs.game ?? 'GAME_CLASSIC'))];
  const method = METHOD_NAMES[/** @type {keyof typeof METHOD_NAMES} */ (String(inputs.method ?? 'DEAL_METHOD_INFORMAL'))];
  if (game === undefined) throw new TypeError(`inputs.game: not a game a deal is committed for: ${inputs.game}`);
  if (method === undefined) throw new TypeError(`inputs.method: not a committed method: ${inputs.method}`);
  const hashes = /** @type {string[]} */ (inputs.clientSeedHashes ?? []);
  for (const [i, hash] of hashes.entries()) {
    if (!HEX_SHA256.test(String(hash))) throw new TypeError(`inputs.clientSeedHashes[${i}]: not 64 lower-case hex digits`);
  }
  const parts = [
    COMMITMENT_LABEL,
    lengthPrefixed(seed),
    lengthPrefixed(game),
    lengthPrefixed(method),
    u32(Number(inputs.playerCount ?? 0)),
    u32(Number(inputs.dealerSeat ?? 0)),
    u32(Number(inputs.round ?? 0)),
    u32(Number(inputs.clientSeedCount ?? 0)),
    u32(hashes.length),
    ...hashes.map((hash) => Buffer.from(hash, 'hex')),
  ];
  return createHash('sha256').update(Buffer.concat(parts)).digest('hex');
}
