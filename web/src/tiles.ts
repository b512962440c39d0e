// Tiles as the page shows them: notation ("R7", "F"), the tile-shaped box, and the
// rack's sort orders. A tile's identity is its face plus its copy index: the server
// names tiles that way in moves, so the page never loses the copy.

import { Color, type Tile } from "@okey-rules/client/web";

const LETTERS: Record<Color, string> = {
  [Color.UNSPECIFIED]: "?",
  [Color.RED]: "R",
  [Color.YELLOW]: "Y",
  [Color.BLUE]: "B",
  [Color.BLACK]: "K",
};

const COLOUR_CLASSES: Record<Color, string> = {
  [Color.UNSPECIFIED]: "tile-unknown",
  [Color.RED]: "tile-red",
  [Color.YELLOW]: "tile-yellow",
  [Color.BLUE]: "tile-blue",
  [Color.BLACK]: "tile-black",
};

/** A face as the docs write it: "R7", "K13"; "F" for a false joker. */
export function notation(tile: Pick<Tile, "color" | "number" | "falseJoker">): string {
  return tile.falseJoker ? "F" : `${LETTERS[tile.color]}${tile.number}`;
}

/** The same face (copies aside). */
export function sameFace(a: Tile, b: Tile): boolean {
  return a.falseJoker === b.falseJoker && (a.falseJoker || (a.color === b.color && a.number === b.number));
}

/** The same physical tile: face and copy index. */
export function sameTile(a: Tile, b: Tile): boolean {
  return sameFace(a, b) && a.copy === b.copy;
}

/** A key naming one physical tile, for maps and DOM data attributes. */
export function tileKey(tile: Tile): string {
  return `${notation(tile)}#${tile.copy}`;
}

/** True when `tile` is a wild: a copy of the okey's face. */
export function isOkey(tile: Tile, okey: Tile | undefined): boolean {
  return okey !== undefined && !tile.falseJoker && tile.color === okey.color && tile.number === okey.number;
}

export interface TileLook {
  /** The round's okey, to mark its copies as wild. */
  readonly okey?: Tile | undefined;
  /** A smaller tile (discard piles, table melds). */
  readonly small?: boolean;
  /** What an okey stands for in a meld, shown under it. */
  readonly standsFor?: Tile | undefined;
}

/** A tile-shaped box: the number in its colour, a false joker drawn apart, the okey marked. */
export function tileElement(tile: Tile, look: TileLook = {}): HTMLElement {
  const box = document.createElement("span");
  box.className = `tile ${tile.falseJoker ? "tile-false-joker" : COLOUR_CLASSES[tile.color]}`;
  if (look.small === true) box.classList.add("tile-small");
  box.dataset["tile"] = tileKey(tile);
  box.title = tile.falseJoker ? "false joker (stands for the okey)" : notation(tile);
  const face = document.createElement("span");
  face.className = "tile-face";
  face.textContent = tile.falseJoker ? "★" : String(tile.number);
  box.append(face);
  if (isOkey(tile, look.okey)) {
    box.classList.add("tile-okey");
    box.title = `${notation(tile)}: the okey (wild)`;
    const mark = document.createElement("span");
    mark.className = "tile-mark";
    mark.textContent = "OKEY";
    box.append(mark);
  } else if (tile.falseJoker) {
    const mark = document.createElement("span");
    mark.className = "tile-mark";
    mark.textContent = "JOKER";
    box.append(mark);
  }
  if (look.standsFor !== undefined && !sameFace(look.standsFor, tile)) {
    const stands = document.createElement("span");
    stands.className = "tile-stands";
    stands.textContent = `=${notation(look.standsFor)}`;
    box.append(stands);
  }
  return box;
}

/** Tiles in notation, space-separated ("R1 R2 F"). */
export function notations(tiles: readonly Tile[]): string {
  return tiles.map(notation).join(" ");
}

function colourRank(tile: Tile): number {
  return tile.falseJoker ? 9 : tile.color;
}

/** By colour, then number within it (runs lie side by side); false jokers last. */
export function byColourThenNumber(a: Tile, b: Tile): number {
  return colourRank(a) - colourRank(b) || a.number - b.number || a.copy - b.copy;
}

/** By number, then colour (sets lie side by side); false jokers last. */
export function byNumberThenColour(a: Tile, b: Tile): number {
  const numberA = a.falseJoker ? 99 : a.number;
  const numberB = b.falseJoker ? 99 : b.number;
  return numberA - numberB || colourRank(a) - colourRank(b) || a.copy - b.copy;
}
