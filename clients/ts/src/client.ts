// createOkeyClient: the five okey.v1 services as typed connect-es clients on one
// transport, and a few conveniences for the calls a table makes most. The
// transport decides the protocol (Connect, gRPC-Web, gRPC): see ./web and ./node.

import type { DescMessage, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { type CallOptions, type Client, createClient, type Transport } from "@connectrpc/connect";

import { AnalysisService, type AnalyzeHandResponse } from "./gen/okey/v1/analysis_pb.js";
import {
  type CommitSeedResponse,
  type DealRequestSchema,
  type DealResponse,
  DealService,
  type StackedDealSchema,
} from "./gen/okey/v1/deal_pb.js";
import { GameService } from "./gen/okey/v1/game_pb.js";
import {
  type BestOpeningResponse,
  type CheckHandRequestSchema,
  type CheckHandResponse,
  HandService,
} from "./gen/okey/v1/hand_pb.js";
import type { RulesetSchema } from "./gen/okey/v1/ruleset_pb.js";
import { ScoringService } from "./gen/okey/v1/scoring_pb.js";

/**
 * A message's fields as a plain object, every one optional: MessageInitShape
 * without its other member (a whole message), so that Omit<> applies to it.
 */
export type FieldsInit<Desc extends DescMessage> = Exclude<MessageInitShape<Desc>, MessageShape<Desc>>;

/** The wild of a hand in notation: the indicator tile ("R4") or the okey itself ("R5"). */
export type WildNotation = { readonly indicator: string } | { readonly okey: string };

/** The rules of a request: a preset and/or a Ruleset whose set fields override it. */
export interface Rules {
  readonly preset?: string;
  readonly ruleset?: MessageInitShape<typeof RulesetSchema>;
}

/** What dealCommitted takes beside the CommitSeed answer. */
export interface CommittedDealOptions extends Rules {
  /** The players' client seeds, in seat order (those whose hashes were committed). */
  readonly clientSeeds?: readonly string[];
  /** Starts a timed first turn (the move timer counts from it). */
  readonly now?: MessageInitShape<typeof DealRequestSchema>["now"];
}

export interface OkeyClient {
  /** HandService: CheckHand, BestOpening. */
  readonly hand: Client<typeof HandService>;
  /** DealService: Deal, CommitSeed, RevealSeed. */
  readonly deal: Client<typeof DealService>;
  /** GameService: ApplyMove, LegalMoves, PlayerView, Replay. */
  readonly game: Client<typeof GameService>;
  /** ScoringService: ScoreRound, ScoreGame. */
  readonly scoring: Client<typeof ScoringService>;
  /** AnalysisService: AnalyzeHand, SuggestMove. */
  readonly analysis: Client<typeof AnalysisService>;
  /** The transport every call goes through. */
  readonly transport: Transport;

  /** HandService.CheckHand of a hand in notation ("R1 R2 R3 ..."), 14 or 15 tiles. */
  checkHand(
    hand: string,
    wild: WildNotation,
    options?: Rules & { readonly omitArrangements?: boolean },
    call?: CallOptions,
  ): Promise<CheckHandResponse>;
  /** HandService.BestOpening of an Okey 101 rack in notation (preset "101" unless given). */
  bestOpening(hand: string, wild: WildNotation, options?: Rules, call?: CallOptions): Promise<BestOpeningResponse>;
  /** AnalysisService.AnalyzeHand of a hand in notation: its distance to a win, or each discard's. */
  analyzeHand(hand: string, wild: WildNotation, options?: Rules, call?: CallOptions): Promise<AnalyzeHandResponse>;
  /**
   * DealService.Deal under a commitment: the deal id and the committed inputs
   * (game, seats, dealer, method, round) from `committed`, CommitSeed's answer.
   * `preset` and `ruleset` must repeat the CommitSeed request's (the answer does
   * not list the rule options).
   */
  dealCommitted(committed: CommitSeedResponse, options?: CommittedDealOptions, call?: CallOptions): Promise<DealResponse>;
  /**
   * DealService.Deal of a position set up on purpose (racks, wall, indicator
   * tile by tile): answered as DEAL_KIND_STACKED, never a fair deal.
   */
  dealStacked(
    stacked: MessageInitShape<typeof StackedDealSchema>,
    request?: Omit<FieldsInit<typeof DealRequestSchema>, "stacked">,
    call?: CallOptions,
  ): Promise<DealResponse>;
}

/** The default preset of BestOpening, which only Okey 101 has. */
const OKEY_101_PRESET = "101";

/** A oneof member of the wild as the requests spell it. */
function wildOf(wild: WildNotation): MessageInitShape<typeof CheckHandRequestSchema>["wild"] {
  return "indicator" in wild
    ? { case: "indicatorNotation", value: wild.indicator }
    : { case: "okeyNotation", value: wild.okey };
}

/** The rules of a request, leaving out what was not given. */
function rulesOf(rules: Rules | undefined, defaultPreset?: string): Rules {
  const preset = rules?.preset ?? defaultPreset;
  return {
    ...(preset === undefined ? {} : { preset }),
    ...(rules?.ruleset === undefined ? {} : { ruleset: rules.ruleset }),
  };
}

/** The five typed service clients on `transport`, with the conveniences of OkeyClient. */
export function createOkeyClient(transport: Transport): OkeyClient {
  const hand = createClient(HandService, transport);
  const deal = createClient(DealService, transport);
  const game = createClient(GameService, transport);
  const scoring = createClient(ScoringService, transport);
  const analysis = createClient(AnalysisService, transport);
  return {
    hand,
    deal,
    game,
    scoring,
    analysis,
    transport,
    checkHand(handNotation, wild, options, call) {
      const request = {
        ...rulesOf(options),
        handForm: { case: "handNotation", value: handNotation },
        wild: wildOf(wild),
        omitArrangements: options?.omitArrangements ?? false,
      } as const;
      return hand.checkHand(request, call);
    },
    bestOpening(handNotation, wild, options, call) {
      const request = {
        ...rulesOf(options, OKEY_101_PRESET),
        handForm: { case: "handNotation", value: handNotation },
        wild: wildOf(wild),
      } as const;
      return hand.bestOpening(request, call);
    },
    analyzeHand(handNotation, wild, options, call) {
      const request = {
        ...rulesOf(options),
        handForm: { case: "handNotation", value: handNotation },
        wild: wildOf(wild),
      } as const;
      return analysis.analyzeHand(request, call);
    },
    dealCommitted(committed, options, call) {
      const inputs = committed.inputs;
      if (committed.dealId === "" || inputs === undefined) {
        return Promise.reject(new TypeError("dealCommitted: the CommitSeed answer has no dealId or inputs"));
      }
      return deal.deal(
        {
          ...rulesOf(options),
          // The committed game travels in the ruleset; the rest of it must repeat CommitSeed's.
          ruleset: { ...options?.ruleset, game: inputs.game },
          dealId: committed.dealId,
          clientSeeds: [...(options?.clientSeeds ?? [])],
          playerCount: inputs.playerCount,
          dealerSeat: inputs.dealerSeat,
          method: inputs.method,
          round: inputs.round,
          ...(options?.now === undefined ? {} : { now: options.now }),
        },
        call,
      );
    },
    dealStacked(stacked, request, call) {
      return deal.deal({ ...request, stacked }, call);
    },
  };
}

/**
 * The hex SHA-256 of a client seed's UTF-8 bytes: what CommitSeed's
 * `clientSeedHashes` takes for it (Web Crypto: browsers and Node alike).
 */
export async function clientSeedHash(clientSeed: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(clientSeed));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
