// The fairness panel: during a round, the commitment the table published before the
// client seeds were given; after it, "Verify the deal" (RevealSeed, then the checks of
// docs/dealing.md run in this browser) with the verdict, and the next round.

import type { Check } from "./fairness.js";
import type { Round } from "./round.js";

type Verify = () => Promise<{ seed: string; checks: Check[] }>;

function line(label: string, value: string, id?: string): HTMLElement {
  const row = document.createElement("div");
  row.className = "fact";
  const name = document.createElement("span");
  name.className = "fact-label";
  name.textContent = label;
  const text = document.createElement("code");
  text.textContent = value;
  if (id !== undefined) text.id = id;
  row.append(name, text);
  return row;
}

export function renderFairness(root: HTMLElement, round: Round, verify: Verify | null, next: (() => void) | null): void {
  root.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = "Fair deal";
  root.append(title, line("commitment", round.published.commitment, "commitment"));
  const seed = round.setup.clientSeed;
  root.append(line("your client seed", seed === null ? "none (the server's seed alone)" : seed));
  if (verify === null && next === null) {
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = "The seed stays sealed until the round is over; then it can be revealed and checked here.";
    root.append(note);
    return;
  }
  const actions = document.createElement("div");
  actions.className = "control-group";
  const result = document.createElement("div");
  result.className = "verify-result";
  if (verify !== null) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "verify-deal";
    button.textContent = "Verify the deal";
    button.addEventListener("click", () => {
      button.disabled = true;
      void verify().then(
        ({ seed: revealed, checks }) => showVerdict(result, revealed, checks),
        (error: unknown) => {
          button.disabled = false;
          result.textContent = `Could not verify: ${String(error)}`;
          throw error;
        },
      );
    });
    actions.append(button);
  }
  if (next !== null) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "next-round";
    button.textContent = "Next round";
    button.addEventListener("click", () => {
      button.disabled = true;
      next();
    });
    actions.append(button);
  }
  root.append(actions, result);
}

function showVerdict(root: HTMLElement, seed: string, checks: readonly Check[]): void {
  root.replaceChildren(line("revealed seed", seed, "revealed-seed"));
  const list = document.createElement("ul");
  list.className = "checks";
  for (const check of checks) {
    const item = document.createElement("li");
    item.className = check.ok ? "check-ok" : "check-bad";
    item.textContent = `${check.ok ? "✔" : "✘"} ${check.what}: ${check.detail}`;
    list.append(item);
  }
  const ok = checks.every((check) => check.ok);
  const verdict = document.createElement("p");
  verdict.id = "verdict";
  verdict.className = ok ? "verdict-ok" : "verdict-bad";
  verdict.textContent = ok ? "Deal verified: it was fixed before your seed was given, and it is the round you played." : "Deal NOT verified: see the failed checks.";
  root.append(list, verdict);
}
