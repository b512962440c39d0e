// Okey 101 moves built from tiles: an opening or new melds from BestOpening's
// arrangement (its tiles matched to the rack's own copies) or from tiles the player
// picked. The server judges them; the page only spells them.

import {
  type Arrangement,
  type BestOpeningResponse,
  create,
  type Move,
  MoveKind,
  MoveSchema,
  type Tile,
} from "@okey-rules/client/web";

import { sameFace, sameTile } from "./tiles.js";

/** One meld to lay: each tile, and for an okey the face it stands for (unset: server picks). */
export interface MeldTiles {
  readonly tiles: readonly { readonly tile: Tile; readonly standsFor?: Tile | undefined }[];
}

/**
 * BestOpening names tiles by face with canonical copies: take the rack's own copies
 * (each at most once). Null when the rack lacks one (it never should).
 */
export function meldsFromArrangement(arrangement: Arrangement, rack: readonly Tile[]): MeldTiles[] | null {
  const left = [...rack];
  const melds: MeldTiles[] = [];
  for (const meld of arrangement.melds) {
    const tiles: { tile: Tile; standsFor?: Tile | undefined }[] = [];
    for (const placed of meld.tiles) {
      const wanted = placed.tile;
      if (wanted === undefined) return null;
      const index = left.findIndex((tile) => sameTile(tile, wanted));
      const at = index >= 0 ? index : left.findIndex((tile) => sameFace(tile, wanted));
      if (at < 0) return null;
      const [tile] = left.splice(at, 1);
      if (tile === undefined) return null;
      tiles.push({ tile, standsFor: placed.wild ? placed.standsFor : undefined });
    }
    melds.push({ tiles });
  }
  return melds;
}

/** An OPEN or LAY_MELD move laying `melds` for `seat`. */
export function meldsMove(kind: MoveKind, seat: number, melds: readonly MeldTiles[], pairs: boolean): Move {
  return create(MoveSchema, {
    kind,
    seat,
    pairs,
    melds: melds.map((meld) => ({
      tiles: meld.tiles.map((laid) => ({
        tile: laid.tile,
        ...(laid.standsFor === undefined ? {} : { standsFor: laid.standsFor }),
      })),
    })),
  });
}

/** What BestOpening proposes, as a move: the melds (or the pairs), and whether it reaches the mark. */
export interface Proposal {
  readonly move: Move;
  readonly opens: boolean;
  readonly summary: string;
}

export function proposal(
  answer: BestOpeningResponse,
  rack: readonly Tile[],
  seat: number,
  kind: MoveKind.OPEN | MoveKind.LAY_MELD,
  pairs: boolean,
): Proposal | null {
  const arrangement = pairs ? answer.pairs?.arrangement : answer.arrangement;
  if (arrangement === undefined || arrangement.melds.length === 0) return null;
  const melds = meldsFromArrangement(arrangement, rack);
  if (melds === null) return null;
  const opens = pairs ? (answer.pairs?.opens ?? false) : answer.opens;
  const summary = pairs
    ? `${answer.pairs?.count ?? 0} pairs: ${arrangement.notation}`
    : `${answer.value} points: ${arrangement.notation}`;
  return { move: meldsMove(kind, seat, melds, pairs), opens, summary };
}
