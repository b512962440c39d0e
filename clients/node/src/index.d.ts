// Types of okey-rules-client. Message types are generated into okey.d.ts
// from the protos (npm run gen-types); this file types the wrapper.

import type { ChannelCredentials, ChannelOptions, Metadata } from '@grpc/grpc-js';

import type { CommittedInputs, ErrorReason, OkeyMethods, Ruleset, StackedDeal } from './okey.js';

export * from './okey.js';

/** A JSON value as proto3 JSON uses it. */
export type JsonObject = { [key: string]: unknown };

/** Every field optional, at every depth (absent = default value). */
export type DeepPartial<T> = T extends (infer E)[]
  ? DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * A request: every field optional (absent = default). A oneof stays a union,
 * so at most one of its members can be given.
 */
export type RequestOf<S extends keyof OkeyMethods, M extends keyof OkeyMethods[S]> =
  OkeyMethods[S][M] extends [infer Req, unknown] ? DeepPartial<Req> : JsonObject;

/** A response in proto3 JSON form. */
export type ResponseOf<S extends keyof OkeyMethods, M extends keyof OkeyMethods[S]> =
  OkeyMethods[S][M] extends [unknown, infer Res] ? Res : JsonObject;

/**
 * An answer as the named helpers return it: the sealed `state` (base64 in
 * proto3 JSON) as a Buffer, opaque bytes to pass back unchanged.
 */
export type WithStateBuffer<T> = T extends { state: unknown } ? Omit<T, 'state'> & { state: Buffer } : T;

/** An answer's `state` as a Buffer (what the named helpers do to theirs). */
export declare function withStateBytes<T extends JsonObject>(answer: T): WithStateBuffer<T>;

/**
 * The hex SHA-256 of a client seed's UTF-8 bytes: what CommitSeed's
 * `clientSeedHashes` takes for it.
 */
export declare function clientSeedHash(clientSeed: string): string;

/**
 * The commitment to a revealed seed and the inputs it binds (a
 * CommittedInputs as CommitSeed or RevealSeed answers it), computed here as
 * docs/dealing.md defines it: equal to the published one when the server
 * kept its promise.
 */
export declare function commitmentOf(seed: string, inputs: DeepPartial<CommittedInputs>): string;

/** A service by full ("okey.v1.HandService") or short ("HandService") name. */
export type ServiceName = keyof OkeyMethods | (keyof OkeyMethods extends `okey.v1.${infer Short}` ? Short : never);

/** The full name of a ServiceName. */
export type FullName<N extends ServiceName> = N extends keyof OkeyMethods
  ? N
  : `okey.v1.${N}` & keyof OkeyMethods;

/** TLS to the server; every file is given as its PEM text, not its path. */
export interface OkeyTlsOptions {
  /** CA certificates to trust (default: Node's root certificates). */
  ca?: Buffer | string;
  /** Client certificate, for a server that requires one (mutual TLS); needs `key`. */
  cert?: Buffer | string;
  /** Private key of `cert`. */
  key?: Buffer | string;
  /** The name the server certificate must carry (default: the host of the first address). */
  serverName?: string;
}

export interface OkeyClientOptions {
  /** Where okey/v1/*.proto live (default: the repository's proto/ directory). */
  protoDir?: string;
  /** Talk TLS: `true` trusts Node's root certificates. Default: plaintext. */
  tls?: true | OkeyTlsOptions;
  /** Credentials of your own, instead of `tls`. Default: plaintext. */
  credentials?: ChannelCredentials;
  /** Per-call deadline in milliseconds (default 10000). */
  deadlineMs?: number;
  /** Responses carry every field without presence at its default (default true). */
  emitDefaults?: boolean;
  /** Added to, and overriding, the client's own channel options. */
  channelOptions?: ChannelOptions;
}

export interface CallOptions {
  deadlineMs?: number;
  metadata?: Metadata;
}

export declare class OkeyClient {
  /**
   * `address` is "host:port"; several IP:port addresses (comma-separated or an
   * array) share the calls round-robin, as does a "dns:///name:port" target.
   */
  constructor(address: string | string[], options?: OkeyClientOptions);
  /** The address as given (an array joined with commas). */
  readonly address: string;
  /** Full names of the services the loaded protos define. */
  services(): string[];
  /** Whether the loaded protos define the service ("HandService" or "okey.v1.HandService"). */
  hasService(service: string): boolean;
  /** Calls any unary RPC of okey.v1 with a proto3 JSON request. */
  call<N extends ServiceName, M extends keyof OkeyMethods[FullName<N>] & string>(
    service: N,
    method: M,
    request?: RequestOf<FullName<N>, M>,
    options?: CallOptions,
  ): Promise<ResponseOf<FullName<N>, M>>;
  call(service: string, method: string, request?: JsonObject, options?: CallOptions): Promise<JsonObject>;
  /** HandService.CheckHand. */
  checkHand(request: RequestOf<'okey.v1.HandService', 'CheckHand'>): Promise<ResponseOf<'okey.v1.HandService', 'CheckHand'>>;
  /** AnalysisService.AnalyzeHand: distance to a win, or each discard's useful draws. */
  analyzeHand(request: RequestOf<'okey.v1.AnalysisService', 'AnalyzeHand'>): Promise<ResponseOf<'okey.v1.AnalysisService', 'AnalyzeHand'>>;
  /** AnalysisService.SuggestMove: a bot's move for a seat, from its view only. */
  suggestMove(request: RequestOf<'okey.v1.AnalysisService', 'SuggestMove'>): Promise<ResponseOf<'okey.v1.AnalysisService', 'SuggestMove'>>;
  /** DealService.Deal; the answer's `state` (the sealed opening state) as a Buffer. */
  deal(request?: RequestOf<'okey.v1.DealService', 'Deal'>): Promise<WithStateBuffer<ResponseOf<'okey.v1.DealService', 'Deal'>>>;
  /**
   * DealService.CommitSeed: `clientSeedHashes` one hex SHA-256 per seat in seat
   * order (`clientSeedHash`), or `noClientSeeds: true`. Publish `commitment`;
   * keep `dealId` secret (table backend only).
   */
  commitSeed(request: RequestOf<'okey.v1.DealService', 'CommitSeed'>): Promise<ResponseOf<'okey.v1.DealService', 'CommitSeed'>>;
  /**
   * DealService.Deal under a commitment: deal id and committed inputs from the
   * CommitSeed answer, the players' client seeds in seat order; `preset` and
   * `ruleset` must repeat the CommitSeed request's.
   */
  dealCommitted(
    committed: ResponseOf<'okey.v1.DealService', 'CommitSeed'>,
    options?: { clientSeeds?: string[]; preset?: string; ruleset?: DeepPartial<Ruleset>; now?: string },
  ): Promise<WithStateBuffer<ResponseOf<'okey.v1.DealService', 'Deal'>>>;
  /** DealService.Deal of a stacked position (racks, wall, indicator tile by tile): DEAL_KIND_STACKED. */
  dealStacked(
    stacked: DeepPartial<StackedDeal>,
    request?: Omit<RequestOf<'okey.v1.DealService', 'Deal'>, 'stacked'>,
  ): Promise<WithStateBuffer<ResponseOf<'okey.v1.DealService', 'Deal'>>>;
  /** DealService.RevealSeed: the seed and the inputs it binds, with the finished sealed state. */
  revealSeed(request: RequestOf<'okey.v1.DealService', 'RevealSeed'>): Promise<ResponseOf<'okey.v1.DealService', 'RevealSeed'>>;
  /** GameService.ApplyMove; legal: the next sealed state as a Buffer, and its `status`. */
  applyMove(request: RequestOf<'okey.v1.GameService', 'ApplyMove'>): Promise<WithStateBuffer<ResponseOf<'okey.v1.GameService', 'ApplyMove'>>>;
  /** GameService.LegalMoves. */
  legalMoves(request: RequestOf<'okey.v1.GameService', 'LegalMoves'>): Promise<ResponseOf<'okey.v1.GameService', 'LegalMoves'>>;
  /** GameService.PlayerView. */
  playerView(request: RequestOf<'okey.v1.GameService', 'PlayerView'>): Promise<ResponseOf<'okey.v1.GameService', 'PlayerView'>>;
  /** GameService.Replay; the answer's `state` as a Buffer. */
  replay(request: RequestOf<'okey.v1.GameService', 'Replay'>): Promise<WithStateBuffer<ResponseOf<'okey.v1.GameService', 'Replay'>>>;
  /** Resolves once the channel is connected. */
  ready(timeoutMs?: number): Promise<void>;
  /** Closes the channel. */
  close(): void;
}

export interface FieldViolation {
  /** Proto path of the offending request field, e.g. "hand.tiles[3].number" or "hand_notation". */
  field: string;
  /** Why, in plain words; may change between server versions. */
  description: string;
  /** The same reason as the ErrorInfo's (ERROR_REASON_UNSPECIFIED when none was sent). */
  reason: ErrorReason;
}

export interface ErrorInfo {
  /** An okey.v1.ErrorReason value name, e.g. "ERROR_REASON_INVALID_TILES". */
  reason: ErrorReason;
  /** "okey-rules". */
  domain: string;
  /** e.g. { field: "hand.tiles[3].number" } */
  metadata: { [key: string]: string };
}

/** A failed call: the gRPC status and its google.rpc details. */
export declare class OkeyError extends Error {
  /** Numeric gRPC status code. */
  readonly code: number;
  /** The code's name, e.g. "INVALID_ARGUMENT". */
  readonly codeName: string;
  /** The server's status message. */
  readonly details: string;
  readonly fieldViolations: FieldViolation[];
  readonly errorInfo: ErrorInfo | null;
  /**
   * Why the request was refused (ErrorInfo.reason), to switch on; the
   * description may change, the reason does not. ERROR_REASON_UNSPECIFIED
   * when the status carries no ErrorInfo (a transport failure, a deadline).
   * A server newer than these protos may send a name not listed here.
   */
  readonly reason: ErrorReason;
  readonly statusDetails: { typeUrl: string; value: JsonObject }[];
  /** "/okey.v1.HandService/CheckHand" */
  readonly method: string;
}

/**
 * Raised before any call when a request does not fit its message type: an
 * unknown field, a wrong type, a field given twice, two members of a oneof.
 */
export declare class JsonShapeError extends TypeError {
  readonly path: string;
}

export declare const CODE_NAMES: Readonly<Record<number, string>>;
export declare const PACKAGE: 'okey.v1';
export declare const DEFAULT_PROTO_DIR: string;
export declare const DEFAULT_VECTORS_DIR: string;

/** Whether a violation path names the expected field ("hand.tiles" matches "hand.tiles[3]", "hand.tiles[3].number"). */
export declare function fieldMatches(expected: string, actual: string): boolean;

/**
 * An RFC 3339 timestamp (proto3 JSON of google.protobuf.Timestamp, e.g.
 * "2026-12-01T18:00:00Z" or "2026-12-01T21:00:00.250+03:00") -> the instant
 * as seconds since the Unix epoch and nanoseconds. Throws JsonShapeError
 * naming `where` for anything else.
 */
export declare function parseTimestamp(value: unknown, where: string): { seconds: number; nanos: number };
/**
 * A google.protobuf.Timestamp ({seconds, nanos}) -> its proto3 JSON string:
 * UTC with "Z" and 0, 3, 6 or 9 fractional digits.
 */
export declare function formatTimestamp(value: { seconds?: string | number | { toString(): string }; nanos?: number }, where?: string): string;
