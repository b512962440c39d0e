// Turns a failed call into an OkeyError: the gRPC code, the message, and the
// google.rpc details (BadRequest field violations, ErrorInfo) decoded from
// the grpc-status-details-bin trailer.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';

import { ErrorReason } from './okey.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXTRA_DIR = path.resolve(HERE, '..', 'proto-extra');
const DETAILS_TRAILER = 'grpc-status-details-bin';
const TYPE_URL_PREFIX = 'type.googleapis.com/';

const rpcRoot = new protobuf.Root();
rpcRoot.loadSync(
  ['google/rpc/status.proto', 'google/rpc/error_details.proto'].map((f) => path.join(EXTRA_DIR, f)),
  { keepCase: false },
);
rpcRoot.resolveAll();
const StatusType = rpcRoot.lookupType('google.rpc.Status');

/** The names of the numeric gRPC status codes, e.g. 3 -> "INVALID_ARGUMENT". */
export const CODE_NAMES = Object.freeze(
  Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name])),
);

// What `reason` says when the server gave none (e.g. UNAVAILABLE raised by
// the channel itself): the zero value of okey.v1.ErrorReason, "not set".
const NO_REASON = ErrorReason.ERROR_REASON_UNSPECIFIED;

/**
 * @typedef {object} FieldViolation
 * @property {string} field proto path of the offending request field, e.g. "hand.tiles[3].number"
 * @property {string} description why it was refused, in words (may change)
 * @property {string} reason an okey.v1.ErrorReason value name, e.g. "ERROR_REASON_INVALID_TILES"
 */

/**
 * @typedef {object} ErrorInfo
 * @property {string} reason an okey.v1.ErrorReason value name
 * @property {string} domain "okey-rules"
 * @property {Record<string, string>} metadata e.g. {field: "hand.tiles[3].number"}
 */

/** A failed okey-rules call. */
export class OkeyError extends Error {
  /**
   * @param {object} init
   * @param {number} init.code numeric gRPC status code
   * @param {string} init.details the status message
   * @param {FieldViolation[]} [init.fieldViolations]
   * @param {ErrorInfo | null} [init.errorInfo]
   * @param {{typeUrl: string, value: object}[]} [init.statusDetails] every decoded detail
   * @param {string} [init.method] "/okey.v1.HandService/CheckHand"
   */
  constructor({ code, details, fieldViolations = [], errorInfo = null, statusDetails = [], method = '' }) {
    const codeName = CODE_NAMES[code] ?? String(code);
    super(`${method ? `${method}: ` : ''}${codeName}: ${details}`);
    this.name = 'OkeyError';
    /** Numeric gRPC status code (grpc.status). */
    this.code = code;
    /** The code's name, e.g. "INVALID_ARGUMENT". */
    this.codeName = codeName;
    /** The status message from the server. */
    this.details = details;
    /** google.rpc.BadRequest field violations, in the server's order. */
    this.fieldViolations = fieldViolations;
    /** google.rpc.ErrorInfo, when the server sent one. */
    this.errorInfo = errorInfo;
    /**
     * Why the request was refused, an okey.v1.ErrorReason value name to
     * switch on (ErrorInfo.reason); ERROR_REASON_UNSPECIFIED when the status
     * carries no ErrorInfo (a transport failure, a deadline).
     */
    this.reason = errorInfo?.reason || NO_REASON;
    /** Every detail of the google.rpc.Status, decoded where the type is known. */
    this.statusDetails = statusDetails;
    this.method = method;
  }
}

/**
 * Decodes a google.rpc.Status from the trailer's bytes.
 * @param {Buffer | Uint8Array} bytes
 * @returns {{code: number, message: string, details: {typeUrl: string, value: object}[]}}
 */
export function decodeStatus(bytes) {
  const status = /** @type {any} */ (StatusType.decode(bytes));
  const details = (status.details ?? []).map((/** @type {any} */ any) => {
    const typeUrl = String(any.type_url ?? any.typeUrl ?? '');
    const typeName = typeUrl.startsWith(TYPE_URL_PREFIX) ? typeUrl.slice(TYPE_URL_PREFIX.length) : typeUrl;
    const type = rpcRoot.lookup(typeName);
    if (!(type instanceof protobuf.Type)) return { typeUrl, value: {} };
    const value = type.toObject(type.decode(any.value), { defaults: true, arrays: true, objects: true });
    return { typeUrl, value };
  });
  return { code: status.code, message: status.message, details };
}

/**
 * The OkeyError for a grpc-js ServiceError.
 * @param {grpc.ServiceError} err
 * @param {string} [method]
 * @returns {OkeyError}
 */
export function toOkeyError(err, method = '') {
  /** @type {FieldViolation[]} */
  let fieldViolations = [];
  /** @type {ErrorInfo | null} */
  let errorInfo = null;
  /** @type {{typeUrl: string, value: any}[]} */
  let statusDetails = [];
  const raw = err.metadata ? err.metadata.get(DETAILS_TRAILER) : [];
  if (raw.length > 0) {
    statusDetails = decodeStatus(/** @type {Buffer} */ (raw[0])).details;
    for (const { typeUrl, value } of statusDetails) {
      if (typeUrl.endsWith('/google.rpc.BadRequest')) {
        fieldViolations = fieldViolations.concat(
          value.fieldViolations.map((/** @type {any} */ v) => ({
            field: v.field,
            description: v.description,
            reason: v.reason || NO_REASON,
          })),
        );
      } else if (typeUrl.endsWith('/google.rpc.ErrorInfo')) {
        errorInfo = { reason: value.reason, domain: value.domain, metadata: value.metadata };
      }
    }
  }
  return new OkeyError({
    code: err.code,
    details: err.details ?? err.message,
    fieldViolations,
    errorInfo,
    statusDetails,
    method,
  });
}

/**
 * Encodes a google.rpc.Status (for tests and fake servers).
 * @param {{code: number, message: string, details?: {typeName: string, value: object}[]}} status
 * @returns {Buffer}
 */
export function encodeStatus({ code, message, details = [] }) {
  const anys = details.map(({ typeName, value }) => {
    const type = rpcRoot.lookupType(typeName);
    return { type_url: TYPE_URL_PREFIX + typeName, value: type.encode(type.fromObject(value)).finish() };
  });
  return Buffer.from(StatusType.encode(StatusType.fromObject({ code, message, details: anys })).finish());
}
