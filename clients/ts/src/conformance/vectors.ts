// The conformance vector files of tests/conformance (docs/conformance.md): one
// unary method per file, each case a request in proto3 JSON and what the answer
// must hold.

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

/** tests/conformance of the repository this package sits in (clients/ts/dist/conformance/..). */
export const DEFAULT_VECTORS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..", "..", "..", "..", "tests", "conformance",
);

/** The keys a case may have; `given_state` and `given_commitment` are optional. */
export const CASE_KEYS: readonly string[] = Object.freeze([
  "name", "reason", "request", "expect", "given_state", "given_commitment",
]);

export interface ExpectedError {
  /** A gRPC code name ("INVALID_ARGUMENT") or number. */
  readonly code: string | number;
  /** A request field the server must name among its violations. */
  readonly field?: string;
  /** The ErrorInfo reason ("ERROR_REASON_INVALID_TILES"). */
  readonly reason?: string;
}

export interface VectorCase {
  readonly name: string;
  readonly reason: string;
  readonly request: JsonObject;
  readonly expect: { readonly response?: JsonObject; readonly error?: ExpectedError };
  /** A ReplayRequest whose answer's sealed state goes into the request. */
  readonly given_state?: JsonValue;
  /** A CommitSeedRequest whose answer's deal id goes into the request. */
  readonly given_commitment?: JsonValue;
}

export interface VectorFile {
  readonly file: string;
  readonly suite: string;
  readonly source: string;
  /** Full service name, e.g. "okey.v1.HandService". */
  readonly service: string;
  /** Method name, e.g. "CheckHand". */
  readonly method: string;
  readonly cases: readonly VectorCase[];
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether `data` has the file shape (service, method, cases of request and expect). */
function isVectorFile(data: unknown): data is Omit<VectorFile, "file"> {
  return (
    isObject(data) &&
    typeof data["service"] === "string" &&
    typeof data["method"] === "string" &&
    Array.isArray(data["cases"]) &&
    data["cases"].every((c) => isObject(c) && isObject(c["request"]) && isObject(c["expect"]))
  );
}

/**
 * Every *.json vector file directly in `dir`, by file name; a file of another
 * shape is an error (a vector directory holds only vector files; the case
 * tables live in a subdirectory, which is not read).
 */
export function loadVectorFiles(dir: string = DEFAULT_VECTORS_DIR): VectorFile[] {
  const names = readdirSync(dir).filter((name) => name.endsWith(".json")).sort();
  return names.map((name) => {
    const data: unknown = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
    if (!isVectorFile(data)) throw new Error(`${name}: not a vector file (service, method, cases of request and expect)`);
    return { ...data, file: name };
  });
}
