// The service check page: every RPC of the five services once, through the TypeScript
// client from this browser, each answer summed up in a row (and in window.okeyCheck for
// tests).

import "./style.css";

import { ConnectError, MoveKind, WinKind } from "@okey-rules/client/web";

import { connectToServer } from "./connection.js";
import { commitmentFor } from "./fairness.js";
import { notation } from "./tiles.js";

interface CheckRow {
  readonly service: string;
  readonly rpc: string;
  readonly ok: boolean;
  readonly answer: string;
}

declare global {
  interface Window {
    okeyCheck?: { done: boolean; rows: CheckRow[] };
  }
}

const api = connectToServer();
// A classic round never takes this many moves (the wall runs out first).
const MAX_ROUND_MOVES = 400;
const rows: CheckRow[] = [];
window.okeyCheck = { done: false, rows };

function show(row: CheckRow): void {
  rows.push(row);
  const tr = document.createElement("tr");
  tr.className = row.ok ? "check-ok" : "check-bad";
  tr.dataset["rpc"] = `${row.service}/${row.rpc}`;
  for (const text of [row.service, row.rpc, row.answer, row.ok ? "✔" : "✘"]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  document.querySelector("#checks tbody")?.append(tr);
}

async function step(service: string, rpc: string, call: () => Promise<[boolean, string]>): Promise<void> {
  try {
    const [ok, answer] = await call();
    show({ service, rpc, ok, answer });
  } catch (error) {
    show({ service, rpc, ok: false, answer: error instanceof ConnectError ? error.message : String(error) });
  }
}

async function run(): Promise<void> {
  const hand = "HandService";
  await step(hand, "CheckHand", async () => {
    const answer = await api.checkHand("R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13", { indicator: "R4" });
    return [answer.winning && answer.kind === WinKind.MELDS, answer.summary];
  });
  await step(hand, "BestOpening", async () => {
    const answer = await api.bestOpening("R10 R11 R12 R13 Y10 Y11 Y12 Y13 B4 Y4 K4", { indicator: "K13" });
    return [answer.value > 0, `${answer.value} points, opens: ${answer.opens}`];
  });

  const deal = "DealService";
  let state: Uint8Array = new Uint8Array();
  await step(deal, "Deal", async () => {
    const answer = await api.deal.deal({ seed: "42", clientSeeds: ["alice", "bob"] });
    state = answer.state;
    const indicator = answer.indicator === undefined ? "?" : notation(answer.indicator);
    return [answer.racks.length === 4, `indicator ${indicator}, seat 1: ${answer.racks[1]?.notation ?? "?"}`];
  });
  await step(deal, "CommitSeed", async () => {
    const answer = await api.deal.commitSeed({ noClientSeeds: true });
    return [/^[0-9a-f]{64}$/.test(answer.commitment), `commitment ${answer.commitment}`];
  });
  await step(deal, "RevealSeed", async () => {
    // A committed round played to its end by level-1 bots: only then is the seed revealed.
    const committed = await api.deal.commitSeed({ noClientSeeds: true });
    const dealt = await api.dealCommitted(committed);
    let finished = dealt.state;
    let status = dealt.status;
    for (let moves = 0; moves < MAX_ROUND_MOVES && status?.roundOver !== true; moves += 1) {
      const seat = status?.turnSeat ?? 0;
      const suggestion = await api.analysis.suggestMove({ state: finished, seat, level: 1 });
      if (suggestion.move === undefined) break;
      const applied = await api.game.applyMove({ state: finished, move: suggestion.move });
      finished = applied.state;
      status = applied.status;
    }
    const revealed = await api.deal.revealSeed({ dealId: committed.dealId, state: finished });
    const inputs = revealed.inputs;
    const recomputed = inputs === undefined ? "" : await commitmentFor(revealed.seed, inputs);
    return [
      recomputed === committed.commitment,
      `seed ${revealed.seed.slice(0, 12)}… opens the commitment (recomputed in this browser)`,
    ];
  });

  const game = "GameService";
  let firstSeat = 0;
  await step(game, "PlayerView", async () => {
    const view = await api.game.playerView({ state, seat: 0 });
    firstSeat = view.turnSeat;
    return [view.rack.length >= 14, `seat 0 sees ${view.rack.length} tiles, wall ${view.wallSize}, seat ${view.turnSeat} on turn`];
  });
  const moves = await api.game.legalMoves({ state, seat: firstSeat }).catch(() => null);
  await step(game, "LegalMoves", async () => {
    const count = moves?.moves.length ?? 0;
    return [count > 0, `${count} legal moves for seat ${firstSeat}`];
  });
  const discard = moves?.moves.find((move) => move.kind === MoveKind.DISCARD);
  await step(game, "ApplyMove", async () => {
    if (discard === undefined) return [false, "no discard to apply"];
    const answer = await api.game.applyMove({ state, move: discard });
    return [answer.legal, `legal: ${answer.legal}, next seat ${answer.status?.turnSeat ?? "?"}`];
  });
  await step(game, "Replay", async () => {
    if (discard === undefined) return [false, "no move to replay"];
    const answer = await api.game.replay({ start: { case: "state", value: state }, moves: [{ move: discard }] });
    return [answer.legal && answer.movesApplied === 1, `legal: ${answer.legal}, ${answer.movesApplied} move applied`];
  });

  const scoring = "ScoringService";
  await step(scoring, "ScoreRound", async () => {
    const answer = await api.scoring.scoreRound({
      playerCount: 4,
      round: { round: { case: "result", value: { winnerSeat: 2, winKind: WinKind.MELDS } } },
    });
    return [answer.deltas.length === 4, `deltas ${answer.deltas.join(", ")}; totals ${answer.table?.scores.join(", ") ?? "?"}`];
  });
  await step(scoring, "ScoreGame", async () => {
    const answer = await api.scoring.scoreGame({
      playerCount: 4,
      rounds: [
        { round: { case: "result", value: { winnerSeat: 1, winKind: WinKind.MELDS } } },
        { round: { case: "result", value: { winnerSeat: 3, winKind: WinKind.SEVEN_PAIRS } } },
      ],
    });
    return [answer.rounds.length === 2, `totals ${answer.table?.scores.join(", ") ?? "?"} after ${answer.table?.roundsPlayed ?? 0} rounds`];
  });

  const analysis = "AnalysisService";
  await step(analysis, "AnalyzeHand", async () => {
    const answer = await api.analyzeHand("R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 B7", { indicator: "R4" });
    return [answer.distance !== undefined, `distance ${answer.distance?.best ?? "?"}`];
  });
  await step(analysis, "SuggestMove", async () => {
    const answer = await api.analysis.suggestMove({ state, seat: firstSeat, level: 2 });
    return [answer.move !== undefined, `${answer.reason}`];
  });

  const failed = rows.filter((row) => !row.ok).length;
  const summary = document.getElementById("check-summary");
  if (summary !== null) summary.textContent = `${rows.length - failed} passed, ${failed} failed`;
  window.okeyCheck = { done: true, rows };
}

void run();
