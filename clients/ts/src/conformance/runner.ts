// Runs conformance vectors through the generated clients (createOkeyClient), so
// every case crosses the wire as the typed client sends it, on whatever transport
// the client has. A case with `given_state` first replays it (GameService/Replay)
// and puts the sealed state it answers into the request; one with
// `given_commitment` first commits (DealService/CommitSeed) and puts the deal id
// into it. Both are new on every server (docs/conformance.md), so a vector
// carries how to get them, never the values.

import {
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
  fromJson,
  type JsonObject,
  type JsonValue,
  type Message,
  ScalarType,
  toJson,
} from "@bufbuild/protobuf";
import { Code, type CallOptions, ConnectError } from "@connectrpc/connect";

import type { OkeyClient } from "../client.js";
import { codeName, fieldMatches, okeyError } from "../errors.js";
import { AnalysisService } from "../gen/okey/v1/analysis_pb.js";
import { CommitSeedRequestSchema, CommitSeedResponseSchema, DealService } from "../gen/okey/v1/deal_pb.js";
import { GameService, ReplayRequestSchema, ReplayResponseSchema } from "../gen/okey/v1/game_pb.js";
import { HandService } from "../gen/okey/v1/hand_pb.js";
import { ScoringService } from "../gen/okey/v1/scoring_pb.js";
import { fieldByKey, isObject, show, subsetMismatches } from "./match.js";
import { CASE_KEYS, type VectorCase, type VectorFile } from "./vectors.js";

export interface CaseResult {
  readonly file: string;
  readonly name: string;
  /** The rule the case pins. */
  readonly reason: string;
  readonly passed: boolean;
  /** Why it failed, one line each. */
  readonly problems: readonly string[];
  /** The server could not be reached (Code.Unavailable on a call). */
  readonly unreachable: boolean;
}

/** A state travels as an opaque sealed token: a singular `bytes` field named `state`. */
const STATE_FIELD = "state";
/** The request field a committed deal id goes into. */
const DEAL_ID_FIELD = "deal_id";
/** The fields of an answer that must repeat CommitSeed's (docs/conformance.md). */
const COMMITTED_ECHOES = ["commitment", "deal_id"] as const;
/** Each call's deadline: a bound, not a timing assertion. */
const CALL_TIMEOUT_MS = 30_000;

const SERVICES: readonly DescService[] = [HandService, DealService, GameService, ScoringService, AnalysisService];

type UnaryCall = (request: Message, options?: CallOptions) => Promise<Message>;

/** The generated client's method for a service and method name, with its descriptor. */
function methodOf(client: OkeyClient, service: string, method: string): { desc: DescMethod; call: UnaryCall } | undefined {
  const clients: Record<string, object> = {
    [HandService.typeName]: client.hand,
    [DealService.typeName]: client.deal,
    [GameService.typeName]: client.game,
    [ScoringService.typeName]: client.scoring,
    [AnalysisService.typeName]: client.analysis,
  };
  const desc = SERVICES.find((s) => s.typeName === service)?.methods.find((m) => m.name === method);
  const serviceClient = clients[service];
  if (desc === undefined || serviceClient === undefined || desc.methodKind !== "unary") return undefined;
  // A connect-es client has one property per method, named by the method's localName.
  const call = (serviceClient as Record<string, UnaryCall | undefined>)[desc.localName];
  return call === undefined ? undefined : { desc, call };
}

function why(error: unknown): string {
  if (error instanceof ConnectError) return `${codeName(error.code)}: ${error.rawMessage}`;
  return error instanceof Error ? error.message : String(error);
}

function isStateField(field: DescField): boolean {
  return field.fieldKind === "scalar" && field.scalar === ScalarType.BYTES && field.name === STATE_FIELD;
}

function byNumber(message: DescMessage): DescField[] {
  return [...message.fields].sort((a, b) => a.number - b.number);
}

/**
 * Where a replayed state goes in a request: its own singular `bytes state`,
 * else one a level down in a singular message field (ScoreRoundRequest:
 * `round.state`); fields in number order, the first found wins; undefined when
 * there is none (lists are not searched).
 */
export function statePath(request: DescMessage): DescField[] | undefined {
  const fields = byNumber(request);
  const direct = fields.find(isStateField);
  if (direct !== undefined) return [direct];
  for (const outer of fields) {
    if (outer.fieldKind !== "message") continue;
    const inner = byNumber(outer.message).find(isStateField);
    if (inner !== undefined) return [outer, inner];
  }
  return undefined;
}

/**
 * `object` (proto3 JSON) with `value` at `path`, replacing the field under
 * either spelling and, in a oneof, every other member (as setting a member
 * does), copying each object on the way down.
 */
function withFieldAt(object: JsonObject, path: readonly DescField[], value: JsonValue): JsonObject {
  const [field, ...rest] = path;
  if (field === undefined) return object;
  const out: JsonObject = { ...object };
  const existing = out[field.jsonName] ?? out[field.name];
  for (const member of field.oneof?.fields ?? [field]) {
    delete out[member.name];
    delete out[member.jsonName];
  }
  out[field.jsonName] = rest.length === 0 ? value : withFieldAt(isObject(existing) ? existing : {}, rest, value);
  return out;
}

/** Counts a call that could not reach the server, so a runner can stop early. */
class Problems {
  readonly lines: string[] = [];
  unreachable = false;

  push(line: string): void {
    this.lines.push(line);
  }

  callFailed(what: string, error: unknown): void {
    if (error instanceof ConnectError && error.code === Code.Unavailable) this.unreachable = true;
    this.lines.push(`${what} failed: ${why(error)}`);
  }
}

/** The sealed state (base64, as proto3 JSON writes bytes) that Replay answers for `given`. */
async function givenState(client: OkeyClient, given: JsonValue, problems: Problems): Promise<string | undefined> {
  let request;
  try {
    request = fromJson(ReplayRequestSchema, given);
  } catch (error) {
    problems.push(`given_state: not a ReplayRequest: ${why(error)}`);
    return undefined;
  }
  let replay;
  try {
    replay = await client.game.replay(request, { timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    problems.callFailed("given_state: okey.v1.GameService/Replay", error);
    return undefined;
  }
  if (!replay.legal) {
    problems.push(
      `given_state: okey.v1.GameService/Replay answered legal: false, move ${replay.illegalIndex} is illegal: ` +
        `${show(toJson(ReplayResponseSchema, replay)["reason"])} (${replay.message})`,
    );
    return undefined;
  }
  const state = toJson(ReplayResponseSchema, replay)["state"];
  if (typeof state !== "string" || state === "") {
    problems.push("given_state: okey.v1.GameService/Replay answered legal: true without a state");
    return undefined;
  }
  return state;
}

/** CommitSeed's answer (proto3 JSON) for `given`. */
async function givenCommitment(client: OkeyClient, given: JsonValue, problems: Problems): Promise<JsonObject | undefined> {
  let request;
  try {
    request = fromJson(CommitSeedRequestSchema, given);
  } catch (error) {
    problems.push(`given_commitment: not a CommitSeedRequest: ${why(error)}`);
    return undefined;
  }
  try {
    const answer = await client.deal.commitSeed(request, { timeoutMs: CALL_TIMEOUT_MS });
    return toJson(CommitSeedResponseSchema, answer) as JsonObject;
  } catch (error) {
    problems.callFailed("given_commitment: okey.v1.DealService/CommitSeed", error);
    return undefined;
  }
}

/** A deal under a commitment carries that commitment and deal id (the vector cannot pin them). */
function committedEchoes(response: DescMessage, committed: JsonObject, answer: JsonObject): string[] {
  const problems: string[] = [];
  for (const name of COMMITTED_ECHOES) {
    const field = fieldByKey(response, name);
    if (field === undefined) continue;
    const want = committed[field.jsonName] ?? "";
    const got = answer[field.jsonName] ?? "";
    if (want !== got) problems.push(`${name}: expected CommitSeed's ${show(want)}, got ${show(got)}`);
  }
  return problems;
}

/** The request of a case with its given_commitment and given_state put in; undefined after a problem. */
async function preparedRequest(
  client: OkeyClient, input: DescMessage, testCase: VectorCase, problems: Problems,
): Promise<{ request: JsonObject; committed: JsonObject | undefined } | undefined> {
  let request = testCase.request;
  let committed: JsonObject | undefined;
  if (testCase.given_commitment !== undefined) {
    const dealId = fieldByKey(input, DEAL_ID_FIELD);
    if (dealId === undefined || dealId.fieldKind !== "scalar" || dealId.scalar !== ScalarType.STRING) {
      problems.push(`given_commitment: ${input.typeName} has no ${DEAL_ID_FIELD} field to put the committed deal id in`);
      return undefined;
    }
    committed = await givenCommitment(client, testCase.given_commitment, problems);
    if (committed === undefined) return undefined;
    request = withFieldAt(request, [dealId], committed[dealId.jsonName] ?? "");
  }
  if (testCase.given_state !== undefined) {
    const at = statePath(input);
    if (at === undefined) {
      problems.push(`given_state: ${input.typeName} has no state field to put the replayed state in`);
      return undefined;
    }
    const state = await givenState(client, testCase.given_state, problems);
    if (state === undefined) return undefined;
    // The replayed state replaces any the request names (and, in a oneof such as
    // RoundInput's, the other member: `result`).
    request = withFieldAt(request, at, state);
  }
  return { request, committed };
}

/** The problems of a refusal against the expected error (code, field, reason). */
function errorMismatches(testCase: VectorCase, error: unknown): string[] {
  const expected = testCase.expect.error;
  const refused = okeyError(error);
  if (expected === undefined) return [`expected a response, got ${refused.codeName}: ${refused.message}`];
  const problems: string[] = [];
  const wantCode = typeof expected.code === "number" ? codeName(expected.code) : expected.code;
  if (refused.codeName !== wantCode) problems.push(`expected ${wantCode}, got ${refused.codeName}: ${refused.message}`);
  const wantField = expected.field;
  if (wantField !== undefined && wantField !== "" && !refused.fieldViolations.some((v) => fieldMatches(wantField, v.field))) {
    problems.push(`expected a violation on "${wantField}", got ${show(refused.fieldViolations.map((v) => v.field))}`);
  }
  if (expected.reason !== undefined && expected.reason !== "" && refused.reason !== expected.reason) {
    problems.push(`expected reason ${expected.reason}, got ${refused.reason}`);
  }
  return problems;
}

/** Runs one case through `client`. */
export async function runCase(client: OkeyClient, vectors: VectorFile, testCase: VectorCase): Promise<CaseResult> {
  const problems = new Problems();
  const result = (): CaseResult => ({
    file: vectors.file,
    name: testCase.name,
    reason: testCase.reason,
    passed: problems.lines.length === 0,
    problems: problems.lines,
    unreachable: problems.unreachable,
  });
  const unknown = Object.keys(testCase).filter((key) => !CASE_KEYS.includes(key));
  if (unknown.length > 0) {
    problems.push(`unknown case keys ${unknown.map((k) => `"${k}"`).join(", ")}; a case has ${CASE_KEYS.join(", ")}`);
    return result();
  }
  const method = methodOf(client, vectors.service, vectors.method);
  if (method === undefined) {
    problems.push(`no unary method ${vectors.service}/${vectors.method} in the generated services`);
    return result();
  }
  const prepared = await preparedRequest(client, method.desc.input, testCase, problems);
  if (prepared === undefined) return result();
  let request;
  try {
    request = fromJson(method.desc.input, prepared.request);
  } catch (error) {
    problems.push(`the request is not a ${method.desc.input.typeName}: ${why(error)}`);
    return result();
  }
  let response;
  try {
    response = await method.call(request, { timeoutMs: CALL_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Unavailable) problems.unreachable = true;
    for (const line of errorMismatches(testCase, error)) problems.push(line);
    return result();
  }
  const expected = testCase.expect;
  if (expected.error !== undefined) {
    problems.push(`expected ${String(expected.error.code)}, got a response: ${show(toJson(method.desc.output, response))}`);
    return result();
  }
  const answer = toJson(method.desc.output, response) as JsonObject;
  for (const line of subsetMismatches(method.desc.output, expected.response ?? {}, answer)) problems.push(line);
  if (prepared.committed !== undefined) {
    for (const line of committedEchoes(method.desc.output, prepared.committed, answer)) problems.push(line);
  }
  return result();
}

export interface RunOptions {
  /** Only the cases it keeps. */
  readonly filter?: (file: VectorFile, testCase: VectorCase) => boolean;
  /** Called with each result as it comes. */
  readonly onResult?: (result: CaseResult) => void;
}

/** Every case of `files`, in order; stops after a case that could not reach the server. */
export async function runVectors(
  client: OkeyClient, files: readonly VectorFile[], options: RunOptions = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const vectors of files) {
    for (const testCase of vectors.cases) {
      if (options.filter !== undefined && !options.filter(vectors, testCase)) continue;
      const result = await runCase(client, vectors, testCase);
      results.push(result);
      options.onResult?.(result);
      if (result.unreachable) return results;
    }
  }
  return results;
}
