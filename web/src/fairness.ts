// Fair deals in the browser: the player's client seed, the commitment recomputed with
// Web Crypto exactly as docs/dealing.md ("Fairness you can verify") specifies it, and
// the checks a player makes once the round is over.

import { type CommittedInputs, DealMethod, Game, type Tile } from "@okey-rules/client/web";

const COMMITMENT_DOMAIN = "okey-rules commitment v1";
const CLIENT_SEED_BYTES = 16;

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(text.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/** A client seed nobody can guess: 16 random bytes as 32 hex digits (as the docs advise). */
export function randomClientSeed(): string {
  return hex(globalThis.crypto.getRandomValues(new Uint8Array(CLIENT_SEED_BYTES)));
}

/** The lower-case hex SHA-256 of some bytes. */
export async function sha256Hex(data: Uint8Array): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

/** The hex SHA-256 of a text's UTF-8 bytes: a client seed's committed hash. */
export function textHash(text: string): Promise<string> {
  return sha256Hex(encoder.encode(text));
}

class ByteWriter {
  private readonly parts: Uint8Array[] = [];

  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    return this;
  }

  u32(value: number): this {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, value, false);
    return this.raw(bytes);
  }

  /** lp(s): the UTF-8 byte length as u32be, then the bytes. */
  lengthPrefixed(text: string): this {
    const bytes = encoder.encode(text);
    return this.u32(bytes.length).raw(bytes);
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((total, part) => total + part.length, 0));
    let offset = 0;
    for (const part of this.parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }
}

const GAME_NAMES: Partial<Record<Game, string>> = { [Game.CLASSIC]: "classic", [Game.OKEY_101]: "101" };
const METHOD_NAMES: Partial<Record<DealMethod, string>> = {
  [DealMethod.INFORMAL]: "informal",
  [DealMethod.FORMAL]: "formal",
};

/** The commitment to `seed` and `inputs`: docs/dealing.md's byte string, hashed. */
export function commitmentFor(seed: string, inputs: CommittedInputs): Promise<string> {
  const game = GAME_NAMES[inputs.game];
  const method = METHOD_NAMES[inputs.method];
  if (game === undefined || method === undefined) {
    return Promise.reject(new Error(`inputs name no known game or method (${inputs.game}, ${inputs.method})`));
  }
  const writer = new ByteWriter()
    .raw(encoder.encode(COMMITMENT_DOMAIN))
    .raw(new Uint8Array([0]))
    .lengthPrefixed(seed)
    .lengthPrefixed(game)
    .lengthPrefixed(method)
    .u32(inputs.playerCount)
    .u32(inputs.dealerSeat)
    .u32(inputs.round)
    .u32(inputs.clientSeedCount)
    .u32(inputs.clientSeedHashes.length);
  for (const hash of inputs.clientSeedHashes) writer.raw(fromHex(hash));
  return sha256Hex(writer.bytes());
}

/** One check of the verdict: what was checked and whether it held. */
export interface Check {
  readonly what: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** The inputs the table published before the client seeds, against the revealed ones. */
export function sameInputs(published: CommittedInputs, revealed: CommittedInputs): boolean {
  return (
    published.game === revealed.game &&
    published.playerCount === revealed.playerCount &&
    published.dealerSeat === revealed.dealerSeat &&
    published.method === revealed.method &&
    published.round === revealed.round &&
    published.clientSeedCount === revealed.clientSeedCount &&
    published.clientSeedHashes.join(",") === revealed.clientSeedHashes.join(",")
  );
}

/** Two racks hold the same physical tiles (order aside). */
export function sameTiles(a: readonly Tile[], b: readonly Tile[]): boolean {
  const key = (tile: Tile): string => `${tile.falseJoker ? "F" : `${tile.color}:${tile.number}`}#${tile.copy}`;
  const left = a.map(key).sort();
  const right = b.map(key).sort();
  return left.length === right.length && left.every((value, index) => value === right[index]);
}
