// OkeyClient: one channel to an okey-rules server, a generic unary
// call(service, method, request) over every service of okey.v1, and named
// helpers for the common calls. Requests and responses are proto3 JSON.

import grpc from '@grpc/grpc-js';

import { PACKAGE, loadContract } from './contract.js';
import { toOkeyError } from './errors.js';
import { fromJson, toJson } from './json.js';

const DEFAULT_DEADLINE_MS = 10_000;

/**
 * @typedef {object} OkeyClientOptions
 * @property {string} [protoDir] where okey/v1/*.proto live (default: the repository's proto/)
 * @property {grpc.ChannelCredentials} [credentials] default: plaintext
 * @property {number} [deadlineMs] per-call deadline (default 10 s)
 * @property {boolean} [emitDefaults] responses carry default-valued fields (default true)
 * @property {grpc.ChannelOptions} [channelOptions]
 */

export class OkeyClient {
  /**
   * @param {string} address "host:port"
   * @param {OkeyClientOptions} [options]
   */
  constructor(address, options = {}) {
    this.address = address;
    this.contract = loadContract(options.protoDir);
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.emitDefaults = options.emitDefaults ?? true;
    this.channel = new grpc.Client(
      address,
      options.credentials ?? grpc.credentials.createInsecure(),
      options.channelOptions ?? {},
    );
  }

  /** Full names of the services the loaded protos define, e.g. "okey.v1.HandService". */
  services() {
    return [...this.contract.services.keys()].sort();
  }

  /**
   * Whether the loaded protos define a service (short or full name).
   * @param {string} service
   */
  hasService(service) {
    return this.contract.services.has(qualify(service));
  }

  /**
   * Calls any unary RPC of okey.v1 with a proto3 JSON request.
   * @param {string} service "HandService" or "okey.v1.HandService"
   * @param {string} method "CheckHand"
   * @param {Record<string, unknown>} [request] proto3 JSON (JSON or proto field names)
   * @param {{deadlineMs?: number, metadata?: grpc.Metadata}} [callOptions]
   * @returns {Promise<Record<string, unknown>>} the response as proto3 JSON
   */
  call(service, method, request = {}, callOptions = {}) {
    const info = this.contract.services.get(qualify(service))?.get(method);
    if (!info) {
      return Promise.reject(new Error(`no method ${qualify(service)}/${method} in ${this.contract.protoDir}`));
    }
    if (!info.unary) return Promise.reject(new Error(`${info.path} streams; only unary calls are supported`));
    let message;
    try {
      message = fromJson(info.requestType, request);
    } catch (err) {
      return Promise.reject(err);
    }
    const deadline = new Date(Date.now() + (callOptions.deadlineMs ?? this.deadlineMs));
    return new Promise((resolve, reject) => {
      this.channel.makeUnaryRequest(
        info.path,
        info.serialize,
        info.deserialize,
        message,
        callOptions.metadata ?? new grpc.Metadata(),
        { deadline },
        (err, response) => {
          if (err) {
            reject(toOkeyError(err, info.path));
          } else {
            // toJson throws on a value proto3 JSON cannot write (a Timestamp
            // outside years 1-9999); inside this callback that would escape
            // as an uncaught exception instead of failing the call.
            try {
              resolve(toJson(info.responseType, /** @type {Record<string, unknown>} */ (response), {
                emitDefaults: this.emitDefaults,
              }));
            } catch (convertErr) {
              reject(convertErr);
            }
          }
        },
      );
    });
  }

  /**
   * HandService.CheckHand: is this 14-tile hand winning, or which discards
   * of a 15-tile hand win?
   * @param {Record<string, unknown>} request e.g. {handNotation: "R1 R2 ...", indicatorNotation: "R4"}
   *   or {hand: {tiles: [{color: "COLOR_RED", number: 1}, ...]}, okey: {color: "COLOR_RED", number: 5}};
   *   omitArrangements: true leaves the arrangements out of the answer
   */
  checkHand(request) {
    return this.call('HandService', 'CheckHand', request);
  }

  /**
   * DealService.Deal: deals a round from a seed.
   * @param {Record<string, unknown>} [request] e.g. {seed: "table-7", playerCount: 4}
   */
  deal(request = {}) {
    return this.call('DealService', 'Deal', request);
  }

  /**
   * Resolves once the channel is connected (rejects after `timeoutMs`).
   * @param {number} [timeoutMs]
   * @returns {Promise<void>}
   */
  ready(timeoutMs = this.deadlineMs) {
    return new Promise((resolve, reject) => {
      this.channel.waitForReady(Date.now() + timeoutMs, (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Closes the channel; pending calls fail with CANCELLED. */
  close() {
    this.channel.close();
  }
}

/**
 * "HandService" -> "okey.v1.HandService"; full names pass through.
 * @param {string} service
 */
function qualify(service) {
  return service.includes('.') ? service : `${PACKAGE}.${service}`;
}
