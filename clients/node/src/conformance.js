// Runs the language-neutral conformance vectors of tests/conformance against
// a server: each case's request goes through OkeyClient.call, and the answer
// must contain the expected response as a subset (or fail as expected).

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import protobuf from 'protobufjs';

import { CODE_NAMES, OkeyError } from './errors.js';
import { jsonName } from './json.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** tests/conformance of the repository this client ships in. */
export const DEFAULT_VECTORS_DIR = path.resolve(HERE, '..', '..', '..', 'tests', 'conformance');

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/**
 * Where `expected` is not a subset of `actual` (both proto3 JSON of `type`).
 * Absent means the default value; objects compare key by key, recursively;
 * lists element-wise with equal length; scalars exactly. Keys may be JSON or
 * proto field names. Returns one line per mismatch; empty means a match.
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
 * @property {{name: string, reason: string, request: object, expect: {response?: object, error?: {code: string | number, field?: string}}}[]} cases
 */

/**
 * Reads every *.json vector file of `dir` that has the request/expect shape;
 * returns them sorted by file name, and the names of the files skipped.
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
 * @param {VectorFile['cases'][number]} testCase
 * @returns {Promise<CaseResult>}
 */
export async function runCase(client, vectors, testCase) {
  const result = { file: vectors.file, name: testCase.name, reason: testCase.reason, passed: false, problems: [] };
  const info = client.contract.services.get(vectors.service)?.get(vectors.method);
  if (!info) {
    result.problems.push(`no method ${vectors.service}/${vectors.method} in the loaded protos`);
    return result;
  }
  const { expect } = testCase;
  try {
    const response = await client.call(vectors.service, vectors.method, testCase.request);
    if (expect.error) {
      result.problems.push(`expected ${expect.error.code}, got a response: ${show(response)}`);
    } else {
      result.problems.push(...subsetMismatches(info.responseType, expect.response ?? {}, response));
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
    }
  }
  result.passed = result.problems.length === 0;
  return result;
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
