// One round at the page's table: dealt under a commitment, played through the game
// service with the sealed state the page keeps, revealed and checked afterwards.
//
// The page is this table's backend (there is no other): it holds the sealed state and,
// while the round lasts, the secret deal id. From the deal it keeps nothing else: not
// the DealResponse's racks or wall, only what seat 0's PlayerView shows.

import {
  type ApplyMoveResponse,
  type CommittedInputs,
  type Move,
  type OkeyClient,
  type PlayerViewResponse,
  type RoundStatus,
  type SuggestMoveResponse,
  type Tile,
} from "@okey-rules/client/web";

import { type Check, commitmentFor, sameInputs, sameTiles, textHash } from "./fairness.js";
import { notation, notations } from "./tiles.js";

export const HUMAN_SEAT = 0;
export const PLAYER_COUNT = 4;

export interface RoundSetup {
  /** "classic" or "101": the preset every request names. */
  readonly preset: string;
  readonly dealerSeat: number;
  readonly round: number;
  /** The player's client seed, or null to deal with no_client_seeds. */
  readonly clientSeed: string | null;
  /** The bots' client seeds (one per bot seat), drawn by the page. */
  readonly botSeeds: readonly string[];
}

/** What the table published before the client seeds were given. */
export interface Published {
  readonly commitment: string;
  readonly inputs: CommittedInputs;
}

export class Round {
  /** The latest sealed state: only this one is ever passed on. */
  state: Uint8Array;
  status: RoundStatus | undefined;
  view!: PlayerViewResponse;
  /** Seat 0's rack and the indicator as first seen: what verifying compares. */
  private startRack: Tile[] = [];
  private startIndicator: Tile | undefined;

  private constructor(
    private readonly api: OkeyClient,
    readonly setup: RoundSetup,
    readonly published: Published,
    private readonly dealId: string,
    readonly clientSeeds: readonly string[],
    state: Uint8Array,
    status: RoundStatus | undefined,
  ) {
    this.state = state;
    this.status = status;
  }

  /** CommitSeed (publish), then Deal under it with the client seeds in seat order. */
  static async deal(api: OkeyClient, setup: RoundSetup): Promise<Round> {
    const clientSeeds = setup.clientSeed === null ? [] : [setup.clientSeed, ...setup.botSeeds];
    const hashes = await Promise.all(clientSeeds.map(textHash));
    const committed = await api.deal.commitSeed({
      preset: setup.preset,
      playerCount: PLAYER_COUNT,
      dealerSeat: setup.dealerSeat,
      round: setup.round,
      clientSeedHashes: hashes,
      noClientSeeds: setup.clientSeed === null,
    });
    if (committed.inputs === undefined) throw new Error("CommitSeed answered no inputs");
    const published = { commitment: committed.commitment, inputs: committed.inputs };
    const dealt = await api.dealCommitted(committed, { preset: setup.preset, clientSeeds });
    const round = new Round(api, setup, published, committed.dealId, clientSeeds, dealt.state, dealt.status);
    await round.refresh();
    round.startRack = [...round.view.rack];
    round.startIndicator = round.view.indicator;
    return round;
  }

  get over(): boolean {
    return this.status?.roundOver ?? false;
  }

  get turnSeat(): number {
    return this.status?.turnSeat ?? 0;
  }

  /** PlayerView for seat 0: everything the page draws comes from it. */
  async refresh(): Promise<PlayerViewResponse> {
    this.view = await this.api.game.playerView({ state: this.state, seat: HUMAN_SEAT });
    return this.view;
  }

  async legalMoves(seat: number = HUMAN_SEAT): Promise<Move[]> {
    return (await this.api.game.legalMoves({ state: this.state, seat })).moves;
  }

  /** ApplyMove; a legal answer's state replaces the one before. */
  async apply(move: Move): Promise<ApplyMoveResponse> {
    const answer = await this.api.game.applyMove({ state: this.state, move });
    if (answer.legal) {
      this.state = answer.state;
      this.status = answer.status;
    }
    return answer;
  }

  suggest(seat: number, level: number): Promise<SuggestMoveResponse> {
    return this.api.analysis.suggestMove({ state: this.state, seat, level });
  }

  /**
   * After the round: RevealSeed, then every check docs/dealing.md lists for a player
   * (the commitment opens, the inputs are those published, each client seed matches
   * its hash, ours at seat 0) and the deal itself: the revealed seed dealt again as a
   * plain seeded Deal gives the indicator and seat 0's rack that were played.
   */
  async verify(): Promise<{ seed: string; checks: Check[] }> {
    const revealed = await this.api.deal.revealSeed({ dealId: this.dealId, state: this.state });
    const inputs = revealed.inputs;
    if (inputs === undefined) throw new Error("RevealSeed answered no inputs");
    const checks: Check[] = [];
    const recomputed = await commitmentFor(revealed.seed, inputs);
    checks.push({
      what: "the commitment opens",
      ok: recomputed === this.published.commitment,
      detail: `SHA-256 in this browser: ${recomputed}; published before the client seeds: ${this.published.commitment}`,
    });
    checks.push({
      what: "the inputs are those published",
      ok: sameInputs(this.published.inputs, inputs),
      detail: `game, ${inputs.playerCount} seats, dealer ${inputs.dealerSeat}, round ${inputs.round}, ${inputs.clientSeedCount} client seeds`,
    });
    const hashes = await Promise.all(this.clientSeeds.map(textHash));
    const ownSeed = this.setup.clientSeed;
    checks.push({
      what: "each client seed matches its committed hash",
      ok: hashes.length === inputs.clientSeedHashes.length && hashes.every((h, i) => h === inputs.clientSeedHashes[i]),
      detail:
        ownSeed === null
          ? "dealt with no client seeds: the server's seed alone decided the deal"
          : `your seed ${ownSeed} is at seat 0 (${hashes[0] ?? "?"})`,
    });
    const again = await this.api.deal.deal({
      preset: this.setup.preset,
      seed: revealed.seed,
      clientSeeds: [...this.clientSeeds],
      playerCount: inputs.playerCount,
      dealerSeat: inputs.dealerSeat,
      method: inputs.method,
      round: inputs.round,
    });
    const rack = again.racks[HUMAN_SEAT]?.tiles ?? [];
    const indicator = again.indicator;
    const sameIndicator =
      indicator !== undefined && this.startIndicator !== undefined && notation(indicator) === notation(this.startIndicator)
      && indicator.copy === this.startIndicator.copy;
    checks.push({
      what: "the seed deals the round that was played",
      ok: sameIndicator && sameTiles(rack, this.startRack),
      detail: `indicator ${indicator === undefined ? "?" : notation(indicator)}; your rack ${notations(rack)}`,
    });
    return { seed: revealed.seed, checks };
  }
}
