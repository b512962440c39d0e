// Draws a PlayerView as a table: the three bots around, the wall, indicator and okey in
// the middle with Okey 101's table melds, every discard pile the view shows, and seat
// 0's rack at the bottom. What may be clicked comes from the legal moves (Affordances).

import { Game, Opened, type PlayerViewResponse, type SeatView, type Tile } from "@okey-rules/client/web";

import { HUMAN_SEAT, PLAYER_COUNT } from "./round.js";
import { tileElement, tileKey } from "./tiles.js";
import { penaltyWords, phaseWords, seatName } from "./words.js";

/** What seat 0 may do now, as the page offers it. */
export interface Affordances {
  readonly canDraw: boolean;
  readonly canTake: boolean;
  /** Rack tiles (tileKey) with a legal DISCARD. */
  readonly discardable: ReadonlySet<string>;
  /** Table melds the selected tile may be laid off onto. */
  readonly layOffMelds: ReadonlySet<number>;
  readonly selected: ReadonlySet<string>;
  /** Tiles staged into melds (Okey 101), shown dimmed in the rack. */
  readonly staged: ReadonlySet<string>;
}

export interface TableHandlers {
  selectTile(tile: Tile): void;
  discardTile(tile: Tile): void;
  moveTile(tile: Tile, beforeKey: string | null): void;
  draw(): void;
  take(): void;
  layOff(meld: number): void;
}

/** The seat whose discards seat 0 may take (the previous seat in turn order). */
export function previousSeat(seat: number, playerCount: number = PLAYER_COUNT): number {
  return (seat + playerCount - 1) % playerCount;
}

function element(tag: string, className: string, text?: string): HTMLElement {
  const made = document.createElement(tag);
  made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function pileElement(seat: SeatView, view: PlayerViewResponse, takeable: boolean, handlers: TableHandlers): HTMLElement {
  const pile = element("div", "pile");
  pile.dataset["pileSeat"] = String(seat.seat);
  const label = seat.seat === previousSeat(HUMAN_SEAT) ? "discards (you take from here)" : "discards";
  pile.append(element("div", "pile-label", `${label}: ${seat.discardCount}`));
  const tiles = element("div", "pile-tiles");
  const shown = seat.wholePile ? seat.discards : seat.discards.slice(-1);
  shown.forEach((tile, index) => {
    const box = tileElement(tile, { okey: view.okey, small: index < shown.length - 1 });
    if (index === shown.length - 1) box.classList.add("pile-top");
    tiles.append(box);
  });
  if (seat.discardCount === 0) tiles.append(element("span", "pile-empty", "empty"));
  pile.append(tiles);
  if (takeable) {
    pile.classList.add("clickable");
    pile.title = "take the top discard";
    pile.addEventListener("click", () => handlers.take());
  }
  return pile;
}

function seatPanel(view: PlayerViewResponse, seat: SeatView, affordances: Affordances, handlers: TableHandlers): HTMLElement {
  const panel = element("section", `seat seat-${seat.seat}`);
  panel.dataset["seat"] = String(seat.seat);
  if (view.turnSeat === seat.seat && view.outcome === undefined) panel.classList.add("on-turn");
  const title = element("div", "seat-title", seatName(seat.seat));
  if (seat.seat === view.dealerSeat) title.append(element("span", "badge", "dealer"));
  if (seat.gosterme) title.append(element("span", "badge", "gösterme"));
  if (seat.opened === Opened.MELDS) title.append(element("span", "badge badge-open", "opened"));
  if (seat.opened === Opened.PAIRS) title.append(element("span", "badge badge-open", "opened: pairs"));
  panel.append(title);
  if (seat.seat !== HUMAN_SEAT) {
    const backs = element("div", "tile-backs");
    for (let i = 0; i < seat.rackSize; i += 1) backs.append(element("span", "tile-back"));
    panel.append(backs, element("div", "seat-count", `${seat.rackSize} tiles`));
  }
  if (seat.penalties.length > 0) {
    panel.append(element("div", "penalties", `penalties: ${seat.penalties.map(penaltyWords).join(", ")}`));
  }
  const takeable = affordances.canTake && seat.seat === previousSeat(HUMAN_SEAT);
  panel.append(pileElement(seat, view, takeable, handlers));
  return panel;
}

function centre(view: PlayerViewResponse, affordances: Affordances, handlers: TableHandlers): HTMLElement {
  const middle = element("section", "centre");
  const row = element("div", "centre-row");
  const wall = element("div", "wall");
  wall.append(element("div", "wall-stack"), element("div", "wall-count", `${view.wallSize}`));
  wall.title = `${view.wallSize} tiles left in the ${view.ruleset?.game === Game.OKEY_101 ? "bank" : "wall"}`;
  wall.dataset["wallSize"] = String(view.wallSize);
  if (affordances.canDraw) {
    wall.classList.add("clickable");
    wall.addEventListener("click", () => handlers.draw());
  }
  const indicator = element("div", "marker");
  indicator.append(element("div", "marker-label", "indicator"));
  if (view.indicator !== undefined) indicator.append(tileElement(view.indicator));
  const okey = element("div", "marker");
  okey.append(element("div", "marker-label", "okey"));
  if (view.okey !== undefined) okey.append(tileElement({ ...view.okey, copy: 0 }, { okey: view.okey }));
  row.append(wall, indicator, okey);
  middle.append(row);
  const status =
    view.outcome !== undefined
      ? "Round over"
      : view.turnSeat === HUMAN_SEAT
        ? `Your turn: ${phaseWords(view.phase, true)}`
        : `${seatName(view.turnSeat)} ${phaseWords(view.phase, false)}`;
  const turn = element("div", "turn", `Round ${view.round} · ${status}`);
  turn.dataset["turnSeat"] = String(view.turnSeat);
  middle.append(turn);
  if (view.ruleset?.game === Game.OKEY_101) middle.append(tableMelds(view, affordances, handlers));
  return middle;
}

function tableMelds(view: PlayerViewResponse, affordances: Affordances, handlers: TableHandlers): HTMLElement {
  const melds = element("div", "table-melds");
  if (view.table.length === 0) melds.append(element("div", "muted", "No melds on the table yet."));
  for (const meld of view.table) {
    const row = element("div", "table-meld");
    row.dataset["meld"] = String(meld.index);
    row.append(element("span", "meld-label", `${meld.index + 1}. ${seatName(meld.ownerSeat)} · ${meld.value}`));
    for (const placed of meld.tiles) {
      if (placed.tile !== undefined) {
        row.append(tileElement(placed.tile, { okey: view.okey, small: true, standsFor: placed.wild ? placed.standsFor : undefined }));
      }
    }
    if (affordances.layOffMelds.has(meld.index)) {
      row.classList.add("clickable");
      row.title = "lay the selected tile off here";
      row.addEventListener("click", () => handlers.layOff(meld.index));
    }
    melds.append(row);
  }
  return melds;
}

function rackElement(
  view: PlayerViewResponse,
  rack: readonly Tile[],
  affordances: Affordances,
  handlers: TableHandlers,
): HTMLElement {
  const holder = element("div", "rack");
  holder.addEventListener("dragover", (event) => event.preventDefault());
  holder.addEventListener("drop", (event) => {
    event.preventDefault();
    const key = event.dataTransfer?.getData("text/plain");
    const dragged = rack.find((tile) => tileKey(tile) === key);
    if (dragged !== undefined && event.target === holder) handlers.moveTile(dragged, null);
  });
  for (const tile of rack) {
    const key = tileKey(tile);
    const box = tileElement(tile, { okey: view.okey });
    box.classList.add("rack-tile");
    box.draggable = true;
    if (affordances.discardable.has(key)) box.classList.add("discardable");
    if (affordances.selected.has(key)) box.classList.add("selected");
    if (affordances.staged.has(key)) box.classList.add("staged");
    box.addEventListener("click", () => handlers.selectTile(tile));
    box.addEventListener("dblclick", () => {
      if (affordances.discardable.has(key)) handlers.discardTile(tile);
    });
    box.addEventListener("dragstart", (event) => event.dataTransfer?.setData("text/plain", key));
    box.addEventListener("drop", (event) => {
      event.preventDefault();
      event.stopPropagation();
      const from = event.dataTransfer?.getData("text/plain");
      const dragged = rack.find((candidate) => tileKey(candidate) === from);
      if (dragged !== undefined && from !== key) handlers.moveTile(dragged, key);
    });
    holder.append(box);
  }
  return holder;
}

/** Redraws the table into `root` (the rack into `rackRoot`). */
export function renderTable(
  root: HTMLElement,
  rackRoot: HTMLElement,
  view: PlayerViewResponse,
  rack: readonly Tile[],
  affordances: Affordances,
  handlers: TableHandlers,
): void {
  const seats = new Map(view.seats.map((seat) => [seat.seat, seat]));
  const grid = element("div", "felt");
  for (const seatNumber of [2, 3, 1, HUMAN_SEAT]) {
    const seat = seats.get(seatNumber);
    if (seat !== undefined) grid.append(seatPanel(view, seat, affordances, handlers));
  }
  grid.append(centre(view, affordances, handlers));
  root.replaceChildren(grid);
  rackRoot.replaceChildren(rackElement(view, rack, affordances, handlers));
}

/** The winner's hand as shown at the round's end: each meld (or pair) apart. */
export function outcomeElement(view: PlayerViewResponse): HTMLElement | null {
  const melds = view.outcome?.arrangement?.melds ?? [];
  if (view.outcome === undefined || view.outcome.drawn || melds.length === 0) return null;
  const shown = element("div", "outcome");
  shown.id = "winning-hand";
  shown.append(element("span", "outcome-label", `${seatName(view.outcome.winnerSeat)}: winning hand`));
  for (const meld of melds) {
    const group = element("span", "outcome-meld");
    for (const placed of meld.tiles) {
      if (placed.tile !== undefined) {
        group.append(tileElement(placed.tile, { okey: view.okey, small: true, standsFor: placed.wild ? placed.standsFor : undefined }));
      }
    }
    shown.append(group);
  }
  return shown;
}
