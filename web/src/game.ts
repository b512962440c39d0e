// The table's game: rounds one after another (the dealer moving on as ScoreRound
// says), the bots' turns by AnalysisService.SuggestMove, seat 0's turn offered from
// LegalMoves, each round scored, revealed and verifiable.

import {
  ConnectError,
  type Move,
  MoveKind,
  type OkeyClient,
  Opened,
  Phase,
  type PlayerViewResponse,
  type ScoreGameResponse,
  type TableScores,
  type Tile,
} from "@okey-rules/client/web";

import { type Control, renderControls } from "./controls.js";
import { eventLines } from "./events_text.js";
import { randomClientSeed } from "./fairness.js";
import { renderFairness } from "./fairness_view.js";
import { type MeldTiles, meldsMove, proposal } from "./melds.js";
import { HUMAN_SEAT, PLAYER_COUNT, Round } from "./round.js";
import { renderScores, type ScoredRound } from "./scores_view.js";
import { type Affordances, outcomeElement, renderTable } from "./table_view.js";
import { byColourThenNumber, byNumberThenColour, notation, notations, sameTile, tileKey } from "./tiles.js";
import { illegalSentence, seatName, winKindWords } from "./words.js";

export interface GameOptions {
  /** "classic" or "101". */
  readonly preset: string;
  readonly level: number;
  readonly delayMs: number;
  /** The player's client seed; null deals with no client seeds. */
  readonly clientSeed: string | null;
}

export interface Panels {
  readonly table: HTMLElement;
  readonly rack: HTMLElement;
  readonly controls: HTMLElement;
  readonly message: HTMLElement;
  readonly hint: HTMLElement;
  readonly log: HTMLElement;
  readonly scores: HTMLElement;
  readonly fairness: HTMLElement;
}

const HINT_LEVEL = 3;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class TableGame {
  private round!: Round;
  private legal: Move[] = [];
  /** The move number `legal` was listed at: seat 0 acts only on moves listed for this view. */
  private legalAt = -1;
  /**
   * Seats whose LegalMoves listed GOSTERME at the deal, while it stays listed. Only the
   * twin's holder can be here (one copy besides the indicator), and only until its first
   * draw: off turn it is asked again after each move, and dropped once it is not listed.
   */
  private gostermeSeats = new Set<number>();
  /** Seat 0's gösterme as LegalMoves listed it while a bot is on turn (null: not listed). */
  private gostermeOffTurn: Move | null = null;
  /** "Show gösterme" pressed while a bot was moving: played before the next bot move. */
  private gostermePending = false;
  private rack: Tile[] = [];
  private selected = new Set<string>();
  private staged: MeldTiles[] = [];
  private busy = false;
  private readonly scored: ScoredRound[] = [];
  private readonly finishedStates: Uint8Array[] = [];
  private scores: TableScores | undefined;
  private gameScore: ScoreGameResponse | null = null;
  private dealer = 0;
  private roundNumber = 1;
  private gameOver = false;

  constructor(
    private readonly api: OkeyClient,
    private readonly options: GameOptions,
    private readonly panels: Panels,
  ) {}

  private get is101(): boolean {
    return this.options.preset === "101";
  }

  private get view(): PlayerViewResponse {
    return this.round.view;
  }

  async start(): Promise<void> {
    await this.dealRound();
  }

  private async dealRound(): Promise<void> {
    this.say("Dealing a committed round…");
    document.body.dataset["waiting"] = "dealing";
    document.body.dataset["moveNumber"] = "-1";
    const botSeeds = Array.from({ length: PLAYER_COUNT - 1 }, () => randomClientSeed());
    this.round = await Round.deal(this.api, {
      preset: this.options.preset,
      dealerSeat: this.dealer,
      round: this.roundNumber,
      clientSeed: this.options.clientSeed,
      botSeeds,
    });
    this.rack = [];
    this.selected.clear();
    this.staged = [];
    this.gostermeOffTurn = null;
    this.gostermePending = false;
    this.gostermeSeats = await this.seatsThatMayShow();
    this.panels.log.replaceChildren();
    this.panels.hint.replaceChildren();
    this.log(`Round ${this.roundNumber}, dealer: ${seatName(this.dealer)}. Commitment ${this.round.published.commitment.slice(0, 16)}…`);
    renderFairness(this.panels.fairness, this.round, null, null);
    this.say("");
    await this.advance();
  }

  /** Plays the bots until it is seat 0's turn or the round is over. */
  private async advance(): Promise<void> {
    await this.offTurnGosterme();
    while (!this.round.over && this.round.turnSeat !== HUMAN_SEAT) {
      await this.botStep(this.round.turnSeat);
      await this.offTurnGosterme();
    }
    // Pressed during the last bot move: it is seat 0's turn now, and still played if listed.
    if (this.gostermePending) await this.offTurnGosterme();
    this.gostermeOffTurn = null;
    if (this.round.over) {
      await this.finishRound();
      return;
    }
    await this.refresh();
  }

  private async botStep(seat: number): Promise<void> {
    const suggestion = await this.round.suggest(seat, this.options.level);
    if (suggestion.move === undefined) throw new Error(`no move suggested for ${seatName(seat)}: ${suggestion.reason}`);
    const answer = await this.round.apply(suggestion.move);
    if (!answer.legal) throw new Error(`the bot's move was refused: ${answer.message}`);
    eventLines(answer.events).forEach((line) => this.log(line));
    await this.round.refresh();
    this.draw();
    if (this.options.delayMs > 0) await sleep(this.options.delayMs);
  }

  /** The seats LegalMoves lists GOSTERME for at the deal (a few calls, once a round). */
  private async seatsThatMayShow(): Promise<Set<number>> {
    const seats = Array.from({ length: PLAYER_COUNT }, (_, seat) => seat);
    const listed = await Promise.all(seats.map(async (seat) => (await this.round.legalMoves(seat)).some((m) => m.kind === MoveKind.GOSTERME)));
    return new Set(seats.filter((seat) => listed[seat] === true));
  }

  /**
   * Gösterme off turn (a seat may show the indicator's twin before its first draw, on
   * turn or not): between bot moves, seat 0's pressed "Show gösterme" is played, and
   * each seat that may still show it and is not on turn is asked LegalMoves again: a bot
   * plays what SuggestMove says, seat 0 is offered the button. The seat on turn is left
   * to its own turn (the bot's SuggestMove, seat 0's listed moves).
   */
  private async offTurnGosterme(): Promise<void> {
    if (this.gostermePending) {
      this.gostermePending = false;
      const shown = await this.showGosterme(HUMAN_SEAT, await this.listedGosterme(HUMAN_SEAT));
      if (!shown) this.say("Gösterme is no longer allowed.");
    }
    this.gostermeOffTurn = null;
    for (const seat of [...this.gostermeSeats]) {
      if (this.round.over || seat === this.round.turnSeat) continue;
      const listed = await this.listedGosterme(seat);
      if (listed === undefined) {
        this.gostermeSeats.delete(seat);
        continue;
      }
      if (seat === HUMAN_SEAT) {
        this.gostermeOffTurn = listed;
        continue;
      }
      const suggestion = await this.round.suggest(seat, this.options.level);
      if (suggestion.move?.kind === MoveKind.GOSTERME) {
        await this.showGosterme(seat, suggestion.move);
      }
    }
    this.draw();
  }

  private async listedGosterme(seat: number): Promise<Move | undefined> {
    return (await this.round.legalMoves(seat)).find((move) => move.kind === MoveKind.GOSTERME);
  }

  /** ApplyMove of a listed gösterme; logged with whose turn it was. */
  private async showGosterme(seat: number, move: Move | undefined): Promise<boolean> {
    if (move === undefined) return false;
    const onTurn = this.round.turnSeat;
    const answer = await this.round.apply(move);
    if (!answer.legal) throw new Error(`${seatName(seat)}'s gösterme was refused: ${answer.message}`);
    this.gostermeSeats.delete(seat);
    const when = onTurn === seat ? "" : ` (off turn: ${seatName(onTurn)} ${onTurn === HUMAN_SEAT ? "were" : "was"} on turn)`;
    eventLines(answer.events).forEach((line) => this.log(line.replace(/\.$/, `${when}.`)));
    await this.round.refresh();
    return true;
  }

  /** "Show gösterme" off turn: played between bot moves (the bots are not interrupted mid-move). */
  private queueGosterme(): void {
    this.gostermePending = true;
    this.say("Your gösterme is shown before the next bot move.");
    this.draw();
  }

  /** Seat 0's turn: the view, the legal moves, and the table drawn with them. */
  private async refresh(): Promise<void> {
    await this.round.refresh();
    this.legal = this.round.over ? [] : await this.round.legalMoves();
    this.legalAt = this.view.moveNumber;
    this.draw();
  }

  private keepRackOrder(): void {
    const fresh = this.view.rack;
    const kept = this.rack.filter((tile) => fresh.some((other) => sameTile(tile, other)));
    const added = fresh.filter((tile) => !kept.some((other) => sameTile(tile, other)));
    this.rack = [...kept, ...added];
    const present = new Set(this.rack.map(tileKey));
    for (const key of [...this.selected]) if (!present.has(key)) this.selected.delete(key);
  }

  private movesOf(kind: MoveKind): Move[] {
    return this.legal.filter((move) => move.kind === kind);
  }

  private moveFor(kind: MoveKind, tile: Tile | undefined): Move | undefined {
    return this.legal.find((move) => move.kind === kind && (tile === undefined || (move.tile !== undefined && sameTile(move.tile, tile))));
  }

  private selectedTiles(): Tile[] {
    return this.rack.filter((tile) => this.selected.has(tileKey(tile)));
  }

  private affordances(): Affordances {
    const single = this.selectedTiles().length === 1 ? this.selectedTiles()[0] : undefined;
    const layOffs = single === undefined ? [] : this.movesOf(MoveKind.LAY_OFF).filter((m) => m.tile !== undefined && sameTile(m.tile, single));
    return {
      canDraw: this.movesOf(MoveKind.DRAW_FROM_WALL).length > 0,
      canTake: this.movesOf(MoveKind.TAKE_DISCARD).length > 0,
      discardable: new Set(this.movesOf(MoveKind.DISCARD).flatMap((m) => (m.tile === undefined ? [] : [tileKey(m.tile)]))),
      layOffMelds: new Set(layOffs.map((m) => m.meld)),
      selected: this.selected,
      staged: new Set(this.staged.flatMap((meld) => meld.tiles.map((laid) => tileKey(laid.tile)))),
    };
  }

  private draw(): void {
    this.keepRackOrder();
    renderTable(this.panels.table, this.panels.rack, this.view, this.rack, this.affordances(), {
      selectTile: (tile) => this.toggle(tile),
      discardTile: (tile) => void this.playTile(MoveKind.DISCARD, tile),
      moveTile: (tile, before) => this.reorder(tile, before),
      draw: () => void this.playKind(MoveKind.DRAW_FROM_WALL),
      take: () => void this.playKind(MoveKind.TAKE_DISCARD),
      layOff: (meld) => void this.layOff(meld),
    });
    renderControls(this.panels.controls, this.controlGroups());
    // For tests and assistive tools: whose move the page waits for, and how many were played.
    document.body.dataset["waiting"] = this.round.over ? "round-over" : this.humanCanAct() ? "you" : "bots";
    document.body.dataset["moveNumber"] = String(this.view.moveNumber);
  }

  private humanCanAct(): boolean {
    // A bot's last move draws the table before seat 0's moves are listed: until they are,
    // the page is not waiting for seat 0 (nothing is offered from an older list).
    return !this.busy && !this.round.over && this.round.turnSeat === HUMAN_SEAT
      && this.legalAt === this.view.moveNumber;
  }

  /**
   * The laying part of an Okey 101 turn: after drawing, while DISCARDs are listed
   * (openings and new melds never are). The dealer's opening discard lays nothing.
   */
  private laying(): boolean {
    return this.is101 && this.humanCanAct() && this.view.phase === Phase.DISCARD && this.movesOf(MoveKind.DISCARD).length > 0;
  }

  private controlGroups(): Control[][] {
    const single = this.selectedTiles().length === 1 ? this.selectedTiles()[0] : undefined;
    const act = this.humanCanAct();
    const has = (kind: MoveKind): boolean => act && this.movesOf(kind).length > 0;
    const takeable = this.view.seats[(HUMAN_SEAT + PLAYER_COUNT - 1) % PLAYER_COUNT]?.discards.at(-1);
    const turn: Control[] = [
      { id: "draw", label: this.is101 ? "Draw from the bank" : "Draw from the wall", enabled: has(MoveKind.DRAW_FROM_WALL), run: () => void this.playKind(MoveKind.DRAW_FROM_WALL) },
      { id: "take", label: takeable === undefined ? "Take the discard" : `Take ${notation(takeable)}`, enabled: has(MoveKind.TAKE_DISCARD), run: () => void this.playKind(MoveKind.TAKE_DISCARD) },
      { id: "discard", label: single === undefined ? "Discard (select a tile)" : `Discard ${notation(single)}`, enabled: act && single !== undefined && this.moveFor(MoveKind.DISCARD, single) !== undefined, run: () => void this.playTile(MoveKind.DISCARD, single) },
    ];
    if (!this.is101) {
      turn.push({ id: "finish", label: single === undefined ? "Finish (select a tile)" : `Finish with ${notation(single)}`, enabled: act && single !== undefined && this.moveFor(MoveKind.DECLARE_WIN, single) !== undefined, title: "discard the selected tile onto the indicator and show the other 14", run: () => void this.playTile(MoveKind.DECLARE_WIN, single) });
    }
    const extra: Control[] = [];
    if (has(MoveKind.GOSTERME)) extra.push({ id: "gosterme", label: "Show gösterme", enabled: true, run: () => void this.playKind(MoveKind.GOSTERME) });
    else if (this.gostermeOffTurn !== null && !this.round.over && this.round.turnSeat !== HUMAN_SEAT) {
      // Listed by LegalMoves(state, 0) after the last bot move: offered between bot moves.
      extra.push({ id: "gosterme", label: "Show gösterme", enabled: !this.gostermePending, title: "show the indicator's twin now, off turn", run: () => this.queueGosterme() });
    }
    if (has(MoveKind.END_ROUND)) extra.push({ id: "end-round", label: "End the round", enabled: true, run: () => void this.playKind(MoveKind.END_ROUND) });
    if (has(MoveKind.RETURN_DISCARD)) extra.push({ id: "return-discard", label: "Give the discard back", enabled: true, run: () => void this.playKind(MoveKind.RETURN_DISCARD) });
    if (has(MoveKind.TAKE_BACK)) extra.push({ id: "take-back", label: "Take back", enabled: true, run: () => void this.playKind(MoveKind.TAKE_BACK) });
    const laying: Control[] = [];
    if (this.is101) {
      const opened = this.view.seats[HUMAN_SEAT]?.opened ?? Opened.UNSPECIFIED;
      const canLay = this.laying();
      if (opened === Opened.UNSPECIFIED) {
        laying.push({ id: "open-best", label: "Open with the best melds", enabled: canLay, run: () => void this.layBest(MoveKind.OPEN, false) });
        laying.push({ id: "open-pairs", label: "Open with pairs", enabled: canLay, run: () => void this.layBest(MoveKind.OPEN, true) });
      } else {
        laying.push({ id: "lay-best", label: "Lay the best melds", enabled: canLay, run: () => void this.layBest(MoveKind.LAY_MELD, opened === Opened.PAIRS) });
      }
      laying.push({ id: "stage", label: "Selected → meld", enabled: canLay && this.selected.size > 0, title: "put the selected tiles aside as one meld (or pair)", run: () => this.stage() });
      const stagedLabel = this.staged.length === 0 ? "" : ` (${this.staged.map((m) => notations(m.tiles.map((t) => t.tile))).join(" | ")})`;
      if (opened === Opened.UNSPECIFIED) {
        laying.push({ id: "open-staged", label: `Open with these${stagedLabel}`, enabled: canLay && this.staged.length > 0, run: () => void this.layStaged(MoveKind.OPEN) });
      } else {
        laying.push({ id: "lay-staged", label: `Lay these${stagedLabel}`, enabled: canLay && this.staged.length > 0, run: () => void this.layStaged(MoveKind.LAY_MELD) });
      }
      laying.push({ id: "clear-staged", label: "Clear", enabled: this.staged.length > 0, run: () => { this.staged = []; this.draw(); } });
    }
    const tools: Control[] = [
      { id: "sort-colour", label: "Sort by colour", enabled: true, run: () => this.sortRack(byColourThenNumber) },
      { id: "sort-number", label: "Sort by number", enabled: true, run: () => this.sortRack(byNumberThenColour) },
      { id: "hint", label: "Hint", enabled: act, run: () => void this.hint() },
    ];
    return [turn, extra, laying, tools];
  }

  private toggle(tile: Tile): void {
    const key = tileKey(tile);
    if (this.selected.has(key)) this.selected.delete(key);
    else {
      if (!this.is101) this.selected.clear();
      this.selected.add(key);
    }
    this.draw();
  }

  private reorder(tile: Tile, beforeKey: string | null): void {
    const rest = this.rack.filter((other) => !sameTile(other, tile));
    const at = beforeKey === null ? rest.length : rest.findIndex((other) => tileKey(other) === beforeKey);
    rest.splice(at < 0 ? rest.length : at, 0, tile);
    this.rack = rest;
    this.draw();
  }

  private sortRack(order: (a: Tile, b: Tile) => number): void {
    this.rack = [...this.rack].sort(order);
    this.draw();
  }

  private stage(): void {
    const tiles = this.selectedTiles();
    if (tiles.length === 0) return;
    this.staged.push({ tiles: tiles.map((tile) => ({ tile })) });
    this.selected.clear();
    this.draw();
  }

  private async playKind(kind: MoveKind): Promise<void> {
    const move = this.moveFor(kind, undefined);
    if (move !== undefined) await this.play(move);
  }

  private async playTile(kind: MoveKind, tile: Tile | undefined): Promise<void> {
    const move = this.moveFor(kind, tile);
    if (move !== undefined) await this.play(move);
  }

  private async layOff(meld: number): Promise<void> {
    const single = this.selectedTiles()[0];
    const move = this.legal.find((m) => m.kind === MoveKind.LAY_OFF && m.meld === meld && m.tile !== undefined && single !== undefined && sameTile(m.tile, single));
    if (move !== undefined) await this.play(move);
  }

  private async layBest(kind: MoveKind.OPEN | MoveKind.LAY_MELD, pairs: boolean): Promise<void> {
    const view = this.view;
    const answer = await this.api.hand.bestOpening({
      ...(view.ruleset === undefined ? {} : { ruleset: view.ruleset }),
      handForm: { case: "hand", value: { tiles: view.rack } },
      wild: view.indicator === undefined ? { case: undefined } : { case: "indicator", value: view.indicator },
    });
    const proposed = proposal(answer, view.rack, HUMAN_SEAT, kind, pairs);
    if (proposed === null) {
      this.say(pairs ? "BestOpening finds no pairs to lay." : "BestOpening finds no melds to lay.");
      return;
    }
    if (kind === MoveKind.OPEN && !proposed.opens) {
      this.say(`BestOpening's best is ${proposed.summary}: not enough to open (it would cost a penalty). Not sent.`);
      return;
    }
    this.say(`Laying BestOpening's ${proposed.summary}.`);
    await this.play(proposed.move);
  }

  private async layStaged(kind: MoveKind.OPEN | MoveKind.LAY_MELD): Promise<void> {
    const pairs = this.staged.every((meld) => meld.tiles.length === 2);
    const opened = this.view.seats[HUMAN_SEAT]?.opened ?? Opened.UNSPECIFIED;
    const move = meldsMove(kind, HUMAN_SEAT, this.staged, kind === MoveKind.OPEN ? pairs : opened === Opened.PAIRS);
    this.staged = [];
    await this.play(move);
  }

  /** ApplyMove for seat 0: an illegal answer is shown in words, a legal one played on. */
  private async play(move: Move): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const answer = await this.round.apply(move);
      if (!answer.legal) {
        this.showIllegal(illegalSentence(answer.reason), answer.message);
        await this.refresh();
        return;
      }
      this.say("");
      this.panels.hint.replaceChildren();
      this.selected.clear();
      eventLines(answer.events).forEach((line) => this.log(line));
      await this.refresh();
      this.busy = false;
      await this.advance();
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy = false;
      if (!this.round.over) this.draw();
    }
  }

  private async hint(): Promise<void> {
    const [suggestion, analysis] = await Promise.all([
      this.round.suggest(HUMAN_SEAT, HINT_LEVEL),
      this.api.analysis.analyzeHand({ state: this.round.state, seat: HUMAN_SEAT }),
    ]);
    const hint = this.panels.hint;
    hint.replaceChildren();
    const title = document.createElement("h3");
    title.textContent = "Hint";
    const what = document.createElement("p");
    what.id = "hint-move";
    what.textContent = `${suggestion.move === undefined ? "No move" : moveText(suggestion.move)}: ${suggestion.reason}`;
    hint.append(title, what);
    const facts = document.createElement("p");
    if (analysis.opening !== undefined && this.is101) {
      const opening = analysis.opening;
      facts.textContent =
        opening.opened === Opened.UNSPECIFIED
          ? `Opening: your best melds make ${opening.points} of ${opening.pointsNeeded} points (${opening.pointsMissing} missing); pairs ${opening.pairs} of ${opening.pairsNeeded}.`
          : `Opened. Tiles that fit a table meld: ${opening.layOffs.map((l) => `${l.tile === undefined ? "?" : notation(l.tile)}→${l.meld + 1}`).join(", ") || "none"}.`;
    } else if (analysis.distance !== undefined) {
      facts.textContent = `Distance to a win: ${analysis.distance.best} tile(s).`;
      const best = analysis.discards[analysis.bestDiscard];
      if (best !== undefined && best.tile !== undefined) {
        const draws = best.usefulDraws.map((d) => `${d.tile === undefined ? "?" : notation(d.tile)} (${d.unseen} unseen)`).join(", ");
        facts.textContent += ` Best discard ${notation(best.tile)} leaves ${best.distance?.best ?? "?"}; useful draws then: ${draws || "none"}.`;
      }
    }
    hint.append(facts);
    if (suggestion.move !== undefined) {
      const move = suggestion.move;
      const button = document.createElement("button");
      button.type = "button";
      button.id = "play-hint";
      button.textContent = "Play the hint";
      button.addEventListener("click", () => void this.play(move));
      hint.append(button);
    }
  }

  private async finishRound(): Promise<void> {
    await this.round.refresh();
    this.legal = [];
    this.draw();
    const outcome = this.view.outcome;
    const summary =
      outcome === undefined ? "over"
        : outcome.voidRound ? "void"
        : outcome.drawn ? "no winner"
        : `${seatName(outcome.winnerSeat)}: ${winKindWords(outcome.winKind)}${outcome.okeyDiscard ? " + okey" : ""}`;
    // A finished state carries its rules: no preset beside it.
    const score = await this.api.scoring.scoreRound({
      playerCount: PLAYER_COUNT,
      round: { round: { case: "state", value: this.round.state } },
      ...(this.scores === undefined ? {} : { table: this.scores }),
    });
    this.scores = score.table;
    this.scored.push({ round: this.roundNumber, summary, score });
    this.finishedStates.push(this.round.state);
    this.gameOver = score.gameOver;
    this.dealer = score.nextDealerSeat;
    this.roundNumber = score.nextRound || this.roundNumber + 1;
    if (this.gameOver) {
      this.gameScore = await this.api.scoring.scoreGame({
        playerCount: PLAYER_COUNT,
        rounds: this.finishedStates.map((state) => ({ round: { case: "state", value: state } })),
      });
    }
    renderScores(this.panels.scores, this.scored, this.gameScore);
    this.say(`Round over: ${summary}.`);
    const hand = outcomeElement(this.view);
    if (hand !== null) this.panels.message.append(hand);
    renderFairness(this.panels.fairness, this.round, () => this.round.verify(), this.gameOver ? null : () => void this.nextRound());
  }

  private async nextRound(): Promise<void> {
    try {
      await this.dealRound();
    } catch (error) {
      this.fail(error);
    }
  }

  private say(text: string): void {
    this.panels.message.className = "message";
    this.panels.message.textContent = text;
  }

  private showIllegal(sentence: string, serverMessage: string): void {
    const box = this.panels.message;
    box.className = "message illegal";
    box.replaceChildren();
    const strong = document.createElement("strong");
    strong.id = "illegal-reason";
    strong.textContent = sentence;
    const server = document.createElement("span");
    server.className = "server-message";
    server.textContent = serverMessage === "" ? "" : ` (server: ${serverMessage})`;
    box.append(strong, server);
  }

  private log(line: string): void {
    const item = document.createElement("li");
    item.textContent = line;
    this.panels.log.prepend(item);
  }

  /** A failed call: shown on the page (and thrown on so the console has it). */
  fail(error: unknown): void {
    const text = error instanceof ConnectError ? `${error.code}: ${error.rawMessage}` : String(error);
    this.panels.message.className = "message illegal";
    this.panels.message.textContent = `Something went wrong: ${text}`;
    throw error;
  }
}

/** A suggested move in words. */
export function moveText(move: Move): string {
  const tile = move.tile === undefined ? "" : notation(move.tile);
  switch (move.kind) {
    case MoveKind.DRAW_FROM_WALL: return "draw from the wall";
    case MoveKind.TAKE_DISCARD: return "take the discard";
    case MoveKind.DISCARD: return `discard ${tile}`;
    case MoveKind.DECLARE_WIN: return `finish with ${tile}`;
    case MoveKind.GOSTERME: return "show gösterme";
    case MoveKind.END_ROUND: return "end the round";
    case MoveKind.RETURN_DISCARD: return "give the discard back";
    case MoveKind.OPEN: return `open with ${move.melds.map((m) => notations(m.tiles.flatMap((t) => (t.tile === undefined ? [] : [t.tile])))).join(" | ")}`;
    case MoveKind.LAY_MELD: return `lay ${move.melds.map((m) => notations(m.tiles.flatMap((t) => (t.tile === undefined ? [] : [t.tile])))).join(" | ")}`;
    case MoveKind.LAY_OFF: return `lay ${tile} off onto meld ${move.meld + 1}`;
    case MoveKind.TAKE_BACK: return "take back";
    default: return `move ${move.kind}`;
  }
}

