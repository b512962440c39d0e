// Runs the language-neutral conformance vectors of tests/conformance against
// a server: each case's request goes through OkeyClient.call, and the answer
// must contain the expected response as a subset (or fail as expected). A
// case with `given_state` first replays it through GameService/Replay and
// sends the sealed state it answers in its request's state field (`state`,
// or `round.state` in a ScoreRoundRequest). A case with `given_commitment`
// first commits through DealService/CommitSeed and sends the secret deal id
// it answers as the request's `deal_id`. Both are new on every server (a
// token opens under one server key only), so a vector carries how to get
// them, never the values.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import protobuf from 'protobufjs';

import { CODE_NAMES, OkeyError } from './errors.js';
import { isTimestampType, jsonName, parseTimestamp, realOneof } from './json.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** tests/conformance of the repository this client ships in. */
export const DEFAULT_VECTORS_DIR = path.resolve(HERE, '..', '..', '..', 'tests', 'conformance');

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** The keys a case may have; `given_state` and `given_commitment` are optional. */
export const CASE_KEYS = Object.freeze(['name', 'reason', 'request', 'expect', 'given_state', 'given_commitment']);

/** The service and method that turn a case's `given_state` into a state. */
const REPLAY_SERVICE = 'okey.v1.GameService';
const REPLAY_METHOD = 'Replay';
/** A state travels as an opaque sealed token: a singular `bytes` field named `state`. */
const STATE_FIELD = 'state';
/** The service and method that turn a case's `given_commitment` into a deal id. */
const COMMIT_SERVICE = 'okey.v1.DealService';
const COMMIT_METHOD = 'CommitSeed';
const DEAL_ID_FIELD = 'deal_id';
/** The fields of an answer that must repeat CommitSeed's (docs/conformance.md). */
const COMMITTED_ECHOES = Object.freeze(['commitment', 'deal_id']);

/** @param {protobuf.Field} field */
function isStateField(field) {
  return !field.repeated && !field.map && field.type === 'bytes' && field.name === STATE_FIELD;
}

/** @param {protobuf.Type} type @returns {protobuf.Field[]} fields in number order */
function byNumber(type) {
  return [...type.fieldsArray].sort((a, b) => a.id - b.id);
}

/**
 * Where a replayed state goes in a request of `type`: the request's own
 * state field, a singular `bytes state` (GameService requests,
 * RevealSeedRequest), else one a level down in
 * a singular message field (ScoreRoundRequest: `round.state`, a member of
 * RoundInput's oneof); fields in number order, the first found wins. Null
 * when there is none: a list of rounds (ScoreGameRequest) has no single place
 * for one state. The same rule as the Python runner (docs/conformance.md).
 * @param {protobuf.Type} type
 * @returns {protobuf.Field[] | null} the fields from the request down
 */
function statePath(type) {
  const fields = byNumber(type);
  const direct = fields.find(isStateField);
  if (direct) return [direct];
  for (const outer of fields) {
    if (outer.repeated || outer.map || !(outer.resolvedType instanceof protobuf.Type)) continue;
    const inner = byNumber(outer.resolvedType).find(isStateField);
    if (inner) return [outer, inner];
  }
  return null;
}

/**
 * `object` (proto3 JSON of a message) with `value` set at `path`, replacing
 * the field under either spelling and, in a oneof, every other member (as
 * setting a oneof member does), copying each object on the way down.
 * @param {Record<string, unknown>} object
 * @param {protobuf.Field[]} path
 * @param {unknown} value
 * @returns {Record<string, unknown>}
 */
function withFieldAt(object, path, value) {
  const [field, ...rest] = path;
  const out = { ...object };
  const existing = out[jsonName(field)] ?? out[field.name];
  const oneof = realOneof(field);
  for (const other of oneof ? oneof.fieldsArray : [field]) {
    delete out[other.name];
    delete out[jsonName(other)];
  }
  out[jsonName(field)] = rest.length === 0 ? value : withFieldAt(isObject(existing) ? existing : {}, rest, value);
  return out;
}

/**
 * Where `expected` is not a subset of `actual` (both proto3 JSON of `type`).
 * Absent means the default value; objects compare key by key, recursively;
 * lists element-wise with equal length; scalars exactly; a Timestamp (an
 * RFC 3339 string) by the instant it names, so "2026-12-01T18:00:00Z" equals
 * "2026-12-01T21:00:00.000+03:00"; null for a message: not set. Keys may be
 * JSON or proto field names. Returns one line per mismatch; empty means a
 * match.
 * @param {protobuf.Type} type
 * @param {unknown} expected
 * @param {unknown} actual
 * @param {string} [where]
 * @returns {string[]}
 */
export function subsetMismatches(type, expected, actual, where = '') {
  /** @type {string[]} */
  const problems = [];
  compareMessage(type, expected, actual ?? {}, where, problems);
  return problems;
}

/**
 * @param {protobuf.Type} type
 * @param {unknown} expected
 * @param {unknown} actual
 * @param {string} where
 * @param {string[]} problems
 */
function compareMessage(type, expected, actual, where, problems) {
  if (!isObject(expected)) {
    problems.push(`${where || '.'}: expected value ${show(expected)} is not an object`);
    return;
  }
  const act = isObject(actual) ? actual : {};
  for (const [key, want] of Object.entries(expected)) {
    const field = type.fields[key] ?? type.fieldsArray.find((f) => jsonName(f) === key);
    const at = where ? `${where}.${key}` : key;
    if (!field) {
      problems.push(`${at}: ${type.fullName.slice(1)} has no such field`);
      continue;
    }
    const got = act[jsonName(field)] ?? act[field.name];
    compareField(field, want, got, at, problems);
  }
}

/**
 * @param {protobuf.Field} field
 * @param {unknown} want
 * @param {unknown} got
 * @param {string} at
 * @param {string[]} problems
 */
function compareField(field, want, got, at, problems) {
  if (field.map) {
    const gotMap = isObject(got) ? got : {};
    if (!isObject(want)) {
      problems.push(`${at}: expected map ${show(want)} is not an object`);
      return;
    }
    for (const [k, v] of Object.entries(want)) compareValue(field, v, gotMap[k], `${at}.${k}`, problems);
    return;
  }
  if (field.repeated) {
    const gotList = Array.isArray(got) ? got : [];
    const wantList = want === null ? [] : want;
    if (!Array.isArray(wantList)) {
      problems.push(`${at}: expected ${show(want)} is not a list`);
    } else if (wantList.length !== gotList.length) {
      problems.push(`${at}: expected ${wantList.length} elements, got ${gotList.length}: ${show(got ?? [])}`);
    } else {
      wantList.forEach((w, i) => compareValue(field, w, gotList[i], `${at}[${i}]`, problems));
    }
    return;
  }
  if (want === null && field.resolvedType instanceof protobuf.Type && !isTimestampType(field.resolvedType)) {
    // docs/conformance.md: null for a message field asserts it is not set
    // (`"arrangement": null` for a losing hand), not "any value".
    if (got !== null && got !== undefined) problems.push(`${at}: expected not set, got ${show(got)}`);
    return;
  }
  compareValue(field, want, got, at, problems);
}

/**
 * One value of a field (a list element, a map value or a singular field).
 * @param {protobuf.Field} field
 * @param {unknown} want
 * @param {unknown} got
 * @param {string} at
 * @param {string[]} problems
 */
function compareValue(field, want, got, at, problems) {
  const resolved = field.resolvedType;
  if (isTimestampType(resolved)) {
    compareTimestamp(want, got, at, problems);
    return;
  }
  if (resolved instanceof protobuf.Type) {
    compareMessage(resolved, want === null ? {} : want, got, at, problems);
    return;
  }
  if (resolved instanceof protobuf.Enum) {
    const wantNum = enumNumber(resolved, want ?? 0);
    const gotNum = enumNumber(resolved, got ?? 0);
    if (wantNum === undefined || wantNum !== gotNum) {
      problems.push(`${at}: expected ${show(want)}, got ${show(got ?? resolved.valuesById[0])}`);
    }
    return;
  }
  const gotValue = got ?? scalarDefault(field.type);
  const wantValue = want ?? scalarDefault(field.type);
  const equal = LONG_TYPES.has(field.type)
    ? String(wantValue) === String(gotValue)
    : Object.is(normalizeFloat(wantValue), normalizeFloat(gotValue));
  if (!equal) problems.push(`${at}: expected ${show(wantValue)}, got ${show(gotValue)}`);
}

/**
 * A Timestamp field: equal when both strings name the same instant, however
 * written (offset, number of fractional digits). An expected null asserts
 * that the field is not set.
 * @param {unknown} want
 * @param {unknown} got
 * @param {string} at
 * @param {string[]} problems
 */
function compareTimestamp(want, got, at, problems) {
  if (want === null || want === undefined) {
    if (got !== null && got !== undefined) problems.push(`${at}: expected no timestamp, got ${show(got)}`);
    return;
  }
  let wantInstant;
  try {
    wantInstant = parseTimestamp(want, at);
  } catch (err) {
    problems.push(`${at}: the expected value is not a timestamp: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  if (got === null || got === undefined) {
    problems.push(`${at}: expected ${show(want)}, got no timestamp`);
    return;
  }
  let gotInstant;
  try {
    gotInstant = parseTimestamp(got, at);
  } catch {
    problems.push(`${at}: expected ${show(want)}, got ${show(got)}, not a timestamp`);
    return;
  }
  if (wantInstant.seconds !== gotInstant.seconds || wantInstant.nanos !== gotInstant.nanos) {
    problems.push(`${at}: expected ${show(want)}, got ${show(got)}`);
  }
}

/**
 * @param {protobuf.Enum} enumType
 * @param {unknown} value a value name or number
 * @returns {number | undefined}
 */
function enumNumber(enumType, value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && Object.hasOwn(enumType.values, value)) return enumType.values[value];
  return undefined;
}

/** @param {string} type */
function scalarDefault(type) {
  if (type === 'bool') return false;
  if (type === 'string' || type === 'bytes') return '';
  return 0;
}

/** proto3 JSON writes non-finite floats as strings. @param {unknown} v */
function normalizeFloat(v) {
  return v === 'NaN' || v === 'Infinity' || v === '-Infinity' ? Number(v) : v;
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** @param {unknown} v */
function show(v) {
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Whether a reported violation path names the expected field: equal, or the
 * field followed by an index or a sub-field ("hand.tiles" matches
 * "hand.tiles[3]" and "hand.tiles[3].number"; "hand" does not match
 * "hand_notation").
 * @param {string} expected
 * @param {string} actual
 */
export function fieldMatches(expected, actual) {
  return actual === expected || actual.startsWith(`${expected}[`) || actual.startsWith(`${expected}.`);
}

/**
 * A vector file in the request/expect shape this runner understands.
 * @typedef {object} VectorFile
 * @property {string} file
 * @property {string} suite
 * @property {string} source
 * @property {string} service
 * @property {string} method
 * @property {VectorCase[]} cases
 */

/**
 * One case. `given_state`, when present, is a ReplayRequest in proto3 JSON:
 * the state Replay answers goes into the request's GameState field
 * (statePath: `state`, or `round.state`).
 * @typedef {object} VectorCase
 * @property {string} name
 * @property {string} reason
 * @property {Record<string, unknown>} request
 * @property {{response?: object, error?: {code: string | number, field?: string, reason?: string}}} expect
 * @property {Record<string, unknown>} [given_state]
 * @property {Record<string, unknown>} [given_commitment] a CommitSeedRequest in proto3 JSON
 */

/**
 * Reads every *.json vector file of `dir` that has the request/expect shape;
 * returns them sorted by file name, and the names of the files skipped. The
 * keys of each case (CASE_KEYS, given_state included) are checked by
 * runCase, so a bad key fails its case instead of hiding the file.
 * @param {string} [dir]
 * @returns {{files: VectorFile[], skipped: string[]}}
 */
export function loadVectorFiles(dir = process.env.OKEY_CONFORMANCE_DIR || DEFAULT_VECTORS_DIR) {
  /** @type {VectorFile[]} */
  const files = [];
  /** @type {string[]} */
  const skipped = [];
  let names = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return { files, skipped };
  }
  for (const name of names) {
    const data = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    const unary = typeof data.service === 'string' && typeof data.method === 'string' &&
      Array.isArray(data.cases) && data.cases.every((c) => isObject(c) && isObject(c.request) && isObject(c.expect));
    if (unary) files.push({ file: name, ...data });
    else skipped.push(name);
  }
  return { files, skipped };
}

/**
 * @typedef {object} CaseResult
 * @property {string} file
 * @property {string} name
 * @property {string} reason the rule the case pins
 * @property {boolean} passed
 * @property {string[]} problems why it failed
 */

/**
 * Runs one case against the server.
 * @param {import('./client.js').OkeyClient} client
 * @param {VectorFile} vectors
 * @param {VectorCase} testCase
 * @returns {Promise<CaseResult>}
 */
export async function runCase(client, vectors, testCase) {
  /** @type {CaseResult} */
  const result = { file: vectors.file, name: testCase.name, reason: testCase.reason, passed: false, problems: [] };
  const unknown = Object.keys(testCase).filter((k) => !CASE_KEYS.includes(k));
  if (unknown.length > 0) {
    result.problems.push(`unknown case key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; a case has ${CASE_KEYS.join(', ')}`);
    return result;
  }
  const info = client.contract.services.get(vectors.service)?.get(vectors.method);
  if (!info) {
    result.problems.push(`no method ${vectors.service}/${vectors.method} in the loaded protos`);
    return result;
  }
  const { expect } = testCase;
  let request = testCase.request;
  /** @type {Record<string, unknown> | undefined} */
  let committed;
  if (testCase.given_commitment !== undefined) {
    const dealId = info.requestType.fields[DEAL_ID_FIELD];
    committed = await givenCommitment(client, info.requestType, dealId, testCase.given_commitment, result.problems);
    if (committed === undefined || !dealId) return result;
    request = withFieldAt(request, [dealId], committed.dealId ?? committed.deal_id ?? '');
  }
  if (testCase.given_state !== undefined) {
    const at = statePath(info.requestType);
    const state = await givenState(client, info.requestType, at, testCase.given_state, result.problems);
    if (state === undefined || at === null) return result;
    // The replayed state replaces any state the request names (and, in a
    // oneof such as RoundInput.round, the other member: `result`).
    request = withFieldAt(request, at, state);
  }
  try {
    const response = await client.call(vectors.service, vectors.method, request);
    if (expect.error) {
      result.problems.push(`expected ${expect.error.code}, got a response: ${show(response)}`);
    } else {
      result.problems.push(...subsetMismatches(info.responseType, expect.response ?? {}, response));
      if (committed !== undefined) result.problems.push(...committedEchoes(info.responseType, committed, response));
    }
  } catch (err) {
    if (!(err instanceof OkeyError)) {
      result.problems.push(`client error: ${err instanceof Error ? err.message : String(err)}`);
    } else if (!expect.error) {
      result.problems.push(`expected a response, got ${err.codeName}: ${err.details}`);
    } else {
      const wantCode = typeof expect.error.code === 'number' ? CODE_NAMES[expect.error.code] : expect.error.code;
      if (err.codeName !== wantCode) {
        result.problems.push(`expected ${wantCode}, got ${err.codeName}: ${err.details}`);
      }
      const wantField = expect.error.field;
      if (wantField && !err.fieldViolations.some((v) => fieldMatches(wantField, v.field))) {
        const got = err.fieldViolations.map((v) => v.field);
        result.problems.push(`expected a violation on "${wantField}", got ${show(got)}`);
      }
      const wantReason = expect.error.reason;
      if (wantReason && err.reason !== wantReason) {
        result.problems.push(`expected reason ${wantReason}, got ${err.reason}`);
      }
    }
  }
  result.passed = result.problems.length === 0;
  return result;
}

/**
 * Plays a case's `given_state` (a ReplayRequest in proto3 JSON) through
 * GameService/Replay and returns the state it answers, or undefined after
 * pushing a problem line when it cannot: no GameState field in the request
 * (statePath), a failed call, or a move log Replay judges illegal.
 * @param {import('./client.js').OkeyClient} client
 * @param {protobuf.Type} requestType the case's request message
 * @param {protobuf.Field[] | null} at where the state goes (statePath)
 * @param {unknown} given
 * @param {string[]} problems
 * @returns {Promise<Record<string, unknown> | undefined>}
 */
async function givenState(client, requestType, at, given, problems) {
  if (!isObject(given)) {
    problems.push(`given_state: expected a ReplayRequest object, got ${show(given)}`);
    return undefined;
  }
  if (at === null) {
    problems.push(`given_state: ${requestType.fullName.slice(1)} has no state field to put the replayed state in`);
    return undefined;
  }
  let replay;
  try {
    replay = await client.call(REPLAY_SERVICE, REPLAY_METHOD, given);
  } catch (err) {
    const why = err instanceof OkeyError ? `${err.codeName}: ${err.details}` : err instanceof Error ? err.message : String(err);
    problems.push(`given_state: ${REPLAY_SERVICE}/${REPLAY_METHOD} failed: ${why}`);
    return undefined;
  }
  if (replay.legal !== true) {
    problems.push(
      `given_state: ${REPLAY_SERVICE}/${REPLAY_METHOD} answered legal: false, move ${String(replay.illegalIndex ?? 0)} ` +
        `is illegal: ${String(replay.reason ?? 'ILLEGAL_REASON_UNSPECIFIED')} (${String(replay.message ?? '')})`,
    );
    return undefined;
  }
  // proto3 JSON writes the sealed token (bytes) in base64; it goes back as it came.
  if (typeof replay.state !== 'string' || replay.state === '') {
    problems.push(`given_state: ${REPLAY_SERVICE}/${REPLAY_METHOD} answered legal: true without a state`);
    return undefined;
  }
  return replay.state;
}

/**
 * Commits through DealService/CommitSeed for a case's `given_commitment` (a
 * CommitSeedRequest in proto3 JSON) and returns the answer, or undefined
 * after pushing a problem line: no deal_id field in the request, or a failed
 * call.
 * @param {import('./client.js').OkeyClient} client
 * @param {protobuf.Type} requestType the case's request message
 * @param {protobuf.Field | undefined} dealId where the deal id goes
 * @param {unknown} given
 * @param {string[]} problems
 * @returns {Promise<Record<string, unknown> | undefined>}
 */
async function givenCommitment(client, requestType, dealId, given, problems) {
  if (!isObject(given)) {
    problems.push(`given_commitment: expected a CommitSeedRequest object, got ${show(given)}`);
    return undefined;
  }
  if (!dealId || dealId.repeated || dealId.type !== 'string') {
    problems.push(`given_commitment: ${requestType.fullName.slice(1)} has no ${DEAL_ID_FIELD} field to put the committed deal id in`);
    return undefined;
  }
  try {
    return await client.call(COMMIT_SERVICE, COMMIT_METHOD, given);
  } catch (err) {
    const why = err instanceof OkeyError ? `${err.codeName}: ${err.details}` : err instanceof Error ? err.message : String(err);
    problems.push(`given_commitment: ${COMMIT_SERVICE}/${COMMIT_METHOD} failed: ${why}`);
    return undefined;
  }
}

/**
 * A deal made under a commitment carries that commitment and deal id: each
 * of COMMITTED_ECHOES the response type has must equal CommitSeed's answer
 * (the vector cannot pin them: they are new at every CommitSeed).
 * @param {protobuf.Type} responseType
 * @param {Record<string, unknown>} committed CommitSeed's answer
 * @param {Record<string, unknown>} response
 * @returns {string[]}
 */
function committedEchoes(responseType, committed, response) {
  const problems = [];
  for (const name of COMMITTED_ECHOES) {
    const field = responseType.fields[name];
    if (!field) continue;
    const want = committed[jsonName(field)] ?? committed[name] ?? '';
    const got = response[jsonName(field)] ?? response[name] ?? '';
    if (want !== got) problems.push(`${name}: expected CommitSeed's ${show(want)}, got ${show(got)}`);
  }
  return problems;
}

/**
 * Runs every case of the given files, in order.
 * @param {import('./client.js').OkeyClient} client
 * @param {VectorFile[]} files
 * @param {{filter?: (file: VectorFile, testCase: VectorFile['cases'][number]) => boolean}} [options]
 * @returns {Promise<CaseResult[]>}
 */
export async function runVectors(client, files, options = {}) {
  /** @type {CaseResult[]} */
  const results = [];
  for (const vectors of files) {
    for (const testCase of vectors.cases) {
      if (options.filter && !options.filter(vectors, testCase)) continue;
      results.push(await runCase(client, vectors, testCase));
    }
  }
  return results;
}
