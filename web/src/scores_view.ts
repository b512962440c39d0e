// The score table across rounds: each round's changes from ScoringService.ScoreRound,
// the running totals it returns, the lines of the rules applied, and at the game's end
// ScoreGame's totals over every round's finished state as a cross-check.

import type { ScoreGameResponse, ScoreRoundResponse } from "@okey-rules/client/web";

import { PLAYER_COUNT } from "./round.js";
import { seatName } from "./words.js";

export interface ScoredRound {
  readonly round: number;
  readonly summary: string;
  readonly score: ScoreRoundResponse;
}

function cell(tag: "td" | "th", text: string, className = ""): HTMLElement {
  const made = document.createElement(tag);
  made.textContent = text;
  if (className !== "") made.className = className;
  return made;
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

export function renderScores(root: HTMLElement, rounds: readonly ScoredRound[], game: ScoreGameResponse | null): void {
  root.replaceChildren();
  if (rounds.length === 0) return;
  const heading = document.createElement("h2");
  heading.textContent = "Scores";
  const table = document.createElement("table");
  table.className = "score-table";
  table.id = "score-table";
  const head = document.createElement("tr");
  head.append(cell("th", "Round"), cell("th", "Result"));
  for (let seat = 0; seat < PLAYER_COUNT; seat += 1) head.append(cell("th", seatName(seat)));
  table.append(head);
  for (const scored of rounds) {
    const row = document.createElement("tr");
    row.append(cell("td", String(scored.round)), cell("td", scored.summary, "result"));
    scored.score.deltas.forEach((delta) => row.append(cell("td", signed(delta), "num")));
    table.append(row);
  }
  const last = rounds[rounds.length - 1]?.score;
  const totals = document.createElement("tr");
  totals.className = "totals";
  totals.append(cell("th", "Total"), cell("th", ""));
  for (const total of last?.table?.scores ?? []) totals.append(cell("th", String(total), "num"));
  table.append(totals);
  root.append(heading, table);
  if (last !== undefined && last.lines.length > 0) {
    const lines = document.createElement("ul");
    lines.className = "score-lines";
    for (const line of last.lines) lines.append(listItem(line.text));
    root.append(lines);
  }
  if (last?.gameOver === true) {
    const over = document.createElement("p");
    over.className = "game-over";
    over.id = "game-over";
    over.textContent = `Game over: ${last.winnerSeats.map(seatName).join(", ")} ${last.winnerSeats.length === 1 ? "wins" : "win"}.`;
    root.append(over);
  }
  if (game !== null) {
    const agree = game.table?.scores.join(",") === last?.table?.scores.join(",");
    const check = document.createElement("p");
    check.className = agree ? "verdict-ok" : "verdict-bad";
    check.id = "score-game-check";
    check.textContent = agree
      ? `ScoreGame over all ${game.rounds.length} rounds gives the same totals.`
      : `ScoreGame over all rounds disagrees: ${game.table?.scores.join(", ") ?? "no totals"}.`;
    root.append(check);
  }
}

function listItem(text: string): HTMLElement {
  const item = document.createElement("li");
  item.textContent = text;
  return item;
}
