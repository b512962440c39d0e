// What a refused call says, read from a ConnectError whatever the transport:
// over gRPC the details come in the grpc-status-details-bin trailer, over Connect
// and gRPC-Web in the protocol's own error form; connect-es decodes both, and
// these helpers pick out the two google.rpc details okey-rules sends.

import { Code, ConnectError } from "@connectrpc/connect";

import {
  type BadRequest_FieldViolation,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";
import { ErrorReason, type ErrorReasonJson, ErrorReasonSchema } from "./gen/okey/v1/errors_pb.js";

/** What a failed call tells a client, the details decoded. */
export interface OkeyError {
  /** The status code (the same numbers as gRPC's). */
  readonly code: Code;
  /** The code's gRPC name, e.g. "INVALID_ARGUMENT". */
  readonly codeName: string;
  /** The server's message, without the code prefix ConnectError.message carries. */
  readonly message: string;
  /** Every request field the server refused, e.g. "hand.tiles[3].number". */
  readonly fieldViolations: readonly BadRequest_FieldViolation[];
  /** The ErrorInfo detail, when the server sent one. */
  readonly errorInfo: ErrorInfo | undefined;
  /**
   * Why the request was refused, to switch on: an okey.v1.ErrorReason name
   * ("ERROR_REASON_INVALID_TILES"); "ERROR_REASON_UNSPECIFIED" when the status
   * carries no ErrorInfo (a transport failure, a deadline). A server newer than
   * these protos may send a name this union does not list.
   */
  readonly reason: ErrorReasonJson | (string & {});
  /** `reason` as the generated enum; ErrorReason.UNSPECIFIED for a name it does not know. */
  readonly errorReason: ErrorReason;
  /** The ConnectError itself. */
  readonly cause: ConnectError;
}

/** "InvalidArgument" (connect-es's Code name) as gRPC writes it: "INVALID_ARGUMENT". */
export function codeName(code: Code): string {
  const name = Code[code];
  if (name === undefined) return String(code);
  return name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

const UNSPECIFIED_REASON = "ERROR_REASON_UNSPECIFIED";

/** The ErrorReason of a name; UNSPECIFIED for one these protos do not define. */
export function errorReasonOf(name: string): ErrorReason {
  return ErrorReasonSchema.values.find((value) => value.name === name)?.number ?? ErrorReason.UNSPECIFIED;
}

/**
 * Any error a call threw, read as an OkeyError (ConnectError.from wraps an
 * error that is not a ConnectError as Code.Unknown, keeping it as the cause).
 */
export function okeyError(error: unknown): OkeyError {
  const cause = ConnectError.from(error);
  const errorInfo = cause.findDetails(ErrorInfoSchema)[0];
  const reason = errorInfo?.reason || UNSPECIFIED_REASON;
  return {
    code: cause.code,
    codeName: codeName(cause.code),
    message: cause.rawMessage,
    fieldViolations: cause.findDetails(BadRequestSchema).flatMap((detail) => detail.fieldViolations),
    errorInfo,
    reason,
    errorReason: errorReasonOf(reason),
    cause,
  };
}

/**
 * Whether a reported violation path names the expected field: equal, or the
 * field followed by an index or a sub-field ("hand.tiles" matches
 * "hand.tiles[3]" and "hand.tiles[3].number"; "hand" does not match
 * "hand_notation").
 */
export function fieldMatches(expected: string, actual: string): boolean {
  return actual === expected || actual.startsWith(`${expected}[`) || actual.startsWith(`${expected}.`);
}
