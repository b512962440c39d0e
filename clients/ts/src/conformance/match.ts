// Whether an answer holds what a vector expects: the expected proto3 JSON is a
// subset of the answer's, field by field as the message descriptor says
// (docs/conformance.md, "File format"; the same rule as the Python and Node runners).

import {
  type DescEnum,
  type DescField,
  type DescMessage,
  fromJson,
  type JsonObject,
  type JsonValue,
  ScalarType,
} from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";

/** What one value of a field is: a singular field's, a list element's or a map value's. */
type ValueKind =
  | { readonly kind: "scalar"; readonly scalar: ScalarType }
  | { readonly kind: "enum"; readonly enum: DescEnum }
  | { readonly kind: "message"; readonly message: DescMessage };

/** 64-bit integers travel as strings in proto3 JSON, and vectors may write numbers. */
const LONG_SCALARS: ReadonlySet<ScalarType> = new Set([
  ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64,
]);
const TIMESTAMP = TimestampSchema.typeName;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value as the runner's messages show it: JSON, cut at 200 characters. */
export function show(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function valueKind(field: DescField): ValueKind {
  switch (field.fieldKind) {
    case "scalar":
      return { kind: "scalar", scalar: field.scalar };
    case "enum":
      return { kind: "enum", enum: field.enum };
    case "message":
      return { kind: "message", message: field.message };
    case "list":
      if (field.listKind === "scalar") return { kind: "scalar", scalar: field.scalar };
      if (field.listKind === "enum") return { kind: "enum", enum: field.enum };
      return { kind: "message", message: field.message };
    case "map":
      if (field.mapKind === "scalar") return { kind: "scalar", scalar: field.scalar };
      if (field.mapKind === "enum") return { kind: "enum", enum: field.enum };
      return { kind: "message", message: field.message };
  }
}

/** The field a key names: its JSON name or its proto name. */
export function fieldByKey(message: DescMessage, key: string): DescField | undefined {
  return message.fields.find((field) => field.jsonName === key || field.name === key);
}

/**
 * Where `expected` is not a subset of `actual` (both proto3 JSON of `message`):
 * absent means the default value; objects compare key by key; lists element by
 * element with equal length; a Timestamp by the instant it names; null for a
 * message field: not set. One line per mismatch; none means a match.
 */
export function subsetMismatches(message: DescMessage, expected: JsonValue, actual: JsonValue | undefined): string[] {
  const problems: string[] = [];
  compareMessage(message, expected, actual ?? {}, "", problems);
  return problems;
}

function compareMessage(
  message: DescMessage, expected: JsonValue, actual: JsonValue | undefined, where: string, problems: string[],
): void {
  if (!isObject(expected)) {
    problems.push(`${where || "."}: expected value ${show(expected)} is not an object`);
    return;
  }
  const act = isObject(actual) ? actual : {};
  for (const [key, want] of Object.entries(expected)) {
    const at = where ? `${where}.${key}` : key;
    const field = fieldByKey(message, key);
    if (field === undefined) {
      problems.push(`${at}: ${message.typeName} has no such field`);
      continue;
    }
    compareField(field, want, act[field.jsonName] ?? act[field.name], at, problems);
  }
}

function compareField(
  field: DescField, want: JsonValue | undefined, got: JsonValue | undefined, at: string, problems: string[],
): void {
  const kind = valueKind(field);
  if (field.fieldKind === "map") {
    if (!isObject(want)) {
      problems.push(`${at}: expected map ${show(want)} is not an object`);
      return;
    }
    const gotMap = isObject(got) ? got : {};
    for (const [key, value] of Object.entries(want)) compareValue(kind, value, gotMap[key], `${at}.${key}`, problems);
    return;
  }
  if (field.fieldKind === "list") {
    const wantList = want === null ? [] : want;
    const gotList = Array.isArray(got) ? got : [];
    if (!Array.isArray(wantList)) {
      problems.push(`${at}: expected ${show(want)} is not a list`);
    } else if (wantList.length !== gotList.length) {
      problems.push(`${at}: expected ${wantList.length} elements, got ${gotList.length}: ${show(got ?? [])}`);
    } else {
      wantList.forEach((w, i) => compareValue(kind, w, gotList[i], `${at}[${i}]`, problems));
    }
    return;
  }
  if (want === null && kind.kind === "message" && kind.message.typeName !== TIMESTAMP) {
    // null for a message field asserts it is not set ("arrangement": null for a losing hand).
    if (got !== null && got !== undefined) problems.push(`${at}: expected not set, got ${show(got)}`);
    return;
  }
  compareValue(kind, want, got, at, problems);
}

function compareValue(
  kind: ValueKind, want: JsonValue | undefined, got: JsonValue | undefined, at: string, problems: string[],
): void {
  switch (kind.kind) {
    case "message":
      if (kind.message.typeName === TIMESTAMP) compareTimestamp(want, got, at, problems);
      else compareMessage(kind.message, want ?? {}, got, at, problems);
      return;
    case "enum": {
      const wantNumber = enumNumber(kind.enum, want ?? 0);
      const gotNumber = enumNumber(kind.enum, got ?? 0);
      if (wantNumber === undefined || wantNumber !== gotNumber) {
        problems.push(`${at}: expected ${show(want)}, got ${show(got ?? kind.enum.values[0]?.name)}`);
      }
      return;
    }
    case "scalar": {
      const wantValue = want ?? scalarDefault(kind.scalar);
      const gotValue = got ?? scalarDefault(kind.scalar);
      const equal = LONG_SCALARS.has(kind.scalar)
        ? String(wantValue) === String(gotValue)
        : Object.is(normalizeFloat(wantValue), normalizeFloat(gotValue));
      if (!equal) problems.push(`${at}: expected ${show(wantValue)}, got ${show(gotValue)}`);
    }
  }
}

/** A Timestamp: equal when both name the same instant, however written; null: not set. */
function compareTimestamp(want: JsonValue | undefined, got: JsonValue | undefined, at: string, problems: string[]): void {
  if (want === null || want === undefined) {
    if (got !== null && got !== undefined) problems.push(`${at}: expected no timestamp, got ${show(got)}`);
    return;
  }
  if (got === null || got === undefined) {
    problems.push(`${at}: expected ${show(want)}, got no timestamp`);
    return;
  }
  let wantInstant;
  try {
    wantInstant = fromJson(TimestampSchema, want);
  } catch (error) {
    problems.push(`${at}: the expected value is not a timestamp: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  let gotInstant;
  try {
    gotInstant = fromJson(TimestampSchema, got);
  } catch {
    problems.push(`${at}: expected ${show(want)}, got ${show(got)}, not a timestamp`);
    return;
  }
  if (wantInstant.seconds !== gotInstant.seconds || wantInstant.nanos !== gotInstant.nanos) {
    problems.push(`${at}: expected ${show(want)}, got ${show(got)}`);
  }
}

function enumNumber(enumType: DescEnum, value: JsonValue): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string") return enumType.values.find((v) => v.name === value)?.number;
  return undefined;
}

function scalarDefault(scalar: ScalarType): JsonValue {
  if (scalar === ScalarType.BOOL) return false;
  if (scalar === ScalarType.STRING || scalar === ScalarType.BYTES) return "";
  return 0;
}

/** proto3 JSON writes non-finite floats as strings. */
function normalizeFloat(value: JsonValue): JsonValue {
  return value === "NaN" || value === "Infinity" || value === "-Infinity" ? Number(value) : value;
}
