// The web table's entry: the setup form, and a TableGame per "New game". The page talks
// to the server it was loaded from (okey-server's HTTP listener) over Connect.

import "./style.css";

import { connectToServer } from "./connection.js";
import { randomClientSeed } from "./fairness.js";
import { type Panels, TableGame } from "./game.js";

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

const panels: Panels = {
  table: byId("table"),
  rack: byId("rack"),
  controls: byId("controls"),
  message: byId("message"),
  hint: byId("hint"),
  log: byId("log"),
  scores: byId("scores"),
  fairness: byId("fairness"),
};

const seedInput = byId<HTMLInputElement>("client-seed");
seedInput.value = randomClientSeed();
const api = connectToServer();

byId<HTMLFormElement>("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  const noSeed = byId<HTMLInputElement>("no-client-seed").checked;
  const seed = seedInput.value.trim();
  for (const panel of [panels.scores, panels.hint, panels.fairness, panels.log, panels.controls, panels.rack]) {
    panel.replaceChildren();
  }
  const game = new TableGame(
    api,
    {
      preset: byId<HTMLSelectElement>("game").value,
      level: Number(byId<HTMLSelectElement>("level").value),
      delayMs: Math.max(0, Number(byId<HTMLInputElement>("delay").value) || 0),
      clientSeed: noSeed || seed === "" ? null : seed,
    },
    panels,
  );
  // Each game draws a new seed for the next one: a client seed is used for one deal's
  // commitment at a time (the same seed is fine across rounds, as each round's server
  // seed is fresh).
  seedInput.value = randomClientSeed();
  game.start().catch((error: unknown) => game.fail(error));
});
