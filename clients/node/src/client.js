// OkeyClient: one channel to an okey-rules server (or several, balanced
// round-robin), plaintext or TLS, a generic unary call(service, method,
// request) over every service of okey.v1, and named helpers for the common
// calls. Requests and responses are proto3 JSON, except that the helpers hand
// the sealed game state out as a Buffer (call() keeps it base64, as proto3
// JSON writes bytes); requests take either.

import { isIP } from 'node:net';

import grpc from '@grpc/grpc-js';

import { PACKAGE, loadContract } from './contract.js';
import { toOkeyError } from './errors.js';
import { fromJson, toJson } from './json.js';

const DEFAULT_DEADLINE_MS = 10_000;
// Retried by grpc-js itself, with back-off, every call being free of side
// effects on the server: UNAVAILABLE (the server is draining, restarting or
// out of reach, or refused a stream) and RESOURCE_EXHAUSTED (the server's
// limit of open calls was reached; an over-size request is refused with it
// too, and fails again each try). Everything else is final. The server's
// docs/operations.md ("What a client should retry") says why.
export const RETRY_POLICY = Object.freeze({
  maxAttempts: 4,
  initialBackoff: '0.1s',
  maxBackoff: '1s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE', 'RESOURCE_EXHAUSTED'],
});
// Retries stop while more than half of the recent calls failed (each failure
// takes a token, each success gives one back; none below half of maxTokens): a
// struggling server is not sent four times the calls. 100 tokens, so that the
// calls a lost connection had in flight are all retried; with gRPC's example of
// 10 and 0.1, retries stopped after 5 failures in a row and whenever more than
// about 1 call in 11 failed.
const RETRY_THROTTLING = Object.freeze({ maxTokens: 100, tokenRatio: 1 });
// Several addresses (or a dns: name) are balanced call by call over the
// channel's connections; grpc-js takes the policy from a service config.
const ROUND_ROBIN = Object.freeze({
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
});

/**
 * @typedef {object} OkeyTlsOptions
 * @property {Buffer | string} [ca] PEM CA certificates to trust (default: Node's root certificates)
 * @property {Buffer | string} [cert] PEM client certificate, for a server that requires one (mutual TLS)
 * @property {Buffer | string} [key] PEM private key of `cert`
 * @property {string} [serverName] the name the server certificate must carry (default: the host of the
 *   (first) address)
 */

/**
 * @typedef {object} OkeyClientOptions
 * @property {string} [protoDir] where okey/v1/*.proto live (default: the repository's proto/)
 * @property {true | OkeyTlsOptions} [tls] talk TLS (default: plaintext)
 * @property {grpc.ChannelCredentials} [credentials] credentials of your own, instead of `tls`
 * @property {number} [deadlineMs] per-call deadline (default 10 s)
 * @property {boolean} [emitDefaults] responses carry default-valued fields (default true)
 * @property {grpc.ChannelOptions} [channelOptions] added to (and overriding) the client's own
 */

export class OkeyClient {
  /**
   * @param {string | string[]} address "host:port"; several ("10.0.0.1:50051,10.0.0.2:50051" or an
   *   array of IP:port) share the calls round-robin, as does a "dns:///name:port" target
   * @param {OkeyClientOptions} [options]
   */
  constructor(address, options = {}) {
    const { target, channelOptions } = channelTarget(address);
    this.address = Array.isArray(address) ? address.join(',') : address;
    if (options.tls && options.credentials) {
      throw new TypeError('give either tls or credentials, not both');
    }
    const tls = options.tls ? tlsSettings(options.tls) : undefined;
    this.contract = loadContract(options.protoDir);
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.emitDefaults = options.emitDefaults ?? true;
    this.channel = new grpc.Client(
      target,
      tls?.credentials ?? options.credentials ?? grpc.credentials.createInsecure(),
      { ...withRetries(channelOptions, this.services()), ...tls?.channelOptions, ...options.channelOptions },
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
   * DealService.Deal: deals a round from a seed (or under a commitment with
   * `dealId` and `clientSeeds`, or a stacked position with `stacked`). The
   * answer's `state` is a Buffer: the sealed opening state, to keep and pass
   * back as it is; `status` holds its public facts (whose turn, deal kind).
   * @param {Record<string, unknown>} [request] e.g. {seed: "table-7", playerCount: 4}
   */
  deal(request = {}) {
    return this.call('DealService', 'Deal', request).then(withStateBytes);
  }

  /**
   * DealService.CommitSeed: commits to a secret seed and to every input of
   * one deal. `clientSeedHashes` holds one hex SHA-256 per seat, in seat order
   * (`clientSeedHash(seed)` computes one), unless `noClientSeeds: true`.
   * Publish the answer's `commitment`; keep its `dealId` secret (table backend
   * only) and pass the whole answer to `dealCommitted`.
   * @param {Record<string, unknown>} request e.g. {playerCount: 4, clientSeedHashes: [...]}
   */
  commitSeed(request) {
    return this.call('DealService', 'CommitSeed', request);
  }

  /**
   * DealService.Deal under a commitment: the deal id and the committed inputs
   * (game, playerCount, dealerSeat, method, round) come from `committed`, the
   * CommitSeed answer; `clientSeeds` are the players' seeds in seat order.
   * `preset` and `ruleset` must repeat the CommitSeed request's (the answer
   * does not list the rule options); `now` starts a timed first turn.
   * @param {Record<string, any>} committed the CommitSeed answer
   * @param {{clientSeeds?: string[], preset?: string, ruleset?: Record<string, unknown>, now?: string}} [options]
   */
  dealCommitted(committed, options = {}) {
    const inputs = committed?.inputs ?? {};
    if (!committed?.dealId) return Promise.reject(new TypeError('dealCommitted: the CommitSeed answer has no dealId'));
    const { clientSeeds = [], preset, ruleset = {}, now } = options;
    /** @type {Record<string, unknown>} */
    const request = {
      dealId: committed.dealId,
      clientSeeds,
      playerCount: inputs.playerCount,
      dealerSeat: inputs.dealerSeat,
      method: inputs.method,
      round: inputs.round,
      ruleset: { ...ruleset, ...(inputs.game ? { game: inputs.game } : {}) },
    };
    if (preset !== undefined) request.preset = preset;
    if (now !== undefined) request.now = now;
    return this.deal(request);
  }

  /**
   * DealService.Deal of a position set up on purpose: `stacked` is the racks
   * (one per seat), the wall and the indicator, tile by tile. The answer is
   * marked DEAL_KIND_STACKED, never a fair deal.
   * @param {Record<string, unknown>} stacked {racks: [{tiles: [...]}, ...], wall: [...], indicator: {...}}
   * @param {Record<string, unknown>} [request] the rest of the DealRequest (preset, ruleset, playerCount, ...)
   */
  dealStacked(stacked, request = {}) {
    return this.deal({ ...request, stacked });
  }

  /**
   * DealService.RevealSeed: a committed deal's seed and the inputs its
   * commitment binds, once the round is over. `commitmentOf(answer.seed,
   * answer.inputs)` recomputes the commitment without trusting the server.
   * @param {{dealId: string, state: Uint8Array | string}} request state: the finished sealed state
   */
  revealSeed(request) {
    return this.call('DealService', 'RevealSeed', request);
  }

  /**
   * GameService.ApplyMove. Legal: the answer's `state` is the next sealed
   * state (a Buffer) and `status` its public facts; illegal: `reason`.
   * @param {Record<string, unknown>} request {state, move, now}
   */
  applyMove(request) {
    return this.call('GameService', 'ApplyMove', request).then(withStateBytes);
  }

  /**
   * GameService.LegalMoves: what a seat may play.
   * @param {Record<string, unknown>} request {state, seat, now}
   */
  legalMoves(request) {
    return this.call('GameService', 'LegalMoves', request);
  }

  /**
   * GameService.PlayerView: what a seat may see (its rack, never another's).
   * @param {Record<string, unknown>} request {state, seat}
   */
  playerView(request) {
    return this.call('GameService', 'PlayerView', request);
  }

  /**
   * GameService.Replay: a move log checked from a deal request or a state;
   * `state` in the answer is a Buffer.
   * @param {Record<string, unknown>} request {deal | state, moves}
   */
  replay(request) {
    return this.call('GameService', 'Replay', request).then(withStateBytes);
  }

  /**
   * AnalysisService.AnalyzeHand: a classic hand's distance to a win (14 tiles),
   * or each discard with its useful draws and their unseen copies (15 tiles).
   * @param {Record<string, unknown>} request e.g. {handNotation: "R1 R2 ...", indicatorNotation: "R4",
   *   seenNotation: "K9 K10"}, or a seat of a round: {state, seat}
   */
  analyzeHand(request) {
    return this.call('AnalysisService', 'AnalyzeHand', request);
  }

  /**
   * AnalysisService.SuggestMove: a bot's legal move for `seat`, chosen from that
   * seat's view only, at `level` 1 (random) to 3; `move` is ready for applyMove
   * (unset when the seat has no move now; `reason` says why).
   * @param {Record<string, unknown>} request {state, seat, level, now}
   */
  suggestMove(request) {
    return this.call('AnalysisService', 'SuggestMove', request);
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
 * An answer whose `state` (base64 in proto3 JSON) is handed out as a Buffer:
 * the sealed token is opaque bytes, to keep and send back unchanged (a
 * request takes it as a Buffer, a Uint8Array or base64 text).
 * @template {Record<string, unknown>} T
 * @param {T} answer
 * @returns {T}
 */
export function withStateBytes(answer) {
  if (typeof answer.state === 'string') {
    return { ...answer, state: Buffer.from(answer.state, 'base64') };
  }
  return answer;
}

/**
 * The grpc-js target and channel options for an address.
 *
 * One address is dialled as given (a name is resolved by DNS; a "dns:" target
 * is balanced round-robin over every address it resolves to). Several must be
 * IP:port literals of one family: they become an "ipv4:" or "ipv6:" target,
 * balanced round-robin, each call to the next server.
 * @param {string | string[]} address
 * @returns {{target: string, channelOptions: grpc.ChannelOptions}}
 */
export function channelTarget(address) {
  const given = Array.isArray(address) ? address : String(address).split(',');
  const parts = given.map((part) => String(part).trim()).filter((part) => part !== '');
  if (parts.length === 0) throw new TypeError(`no server address in ${JSON.stringify(address)}`);
  if (parts.length === 1) {
    return { target: parts[0], channelOptions: parts[0].startsWith('dns:') ? { ...ROUND_ROBIN } : {} };
  }
  const families = parts.map(ipFamily);
  if (families.includes(0)) {
    throw new TypeError(
      `several addresses must each be IP:port (for a name, use dns:///name:port): ${parts.join(',')}`,
    );
  }
  if (new Set(families).size > 1) throw new TypeError(`mixes IPv4 and IPv6 addresses: ${parts.join(',')}`);
  return { target: `ipv${families[0]}:${parts.join(',')}`, channelOptions: { ...ROUND_ROBIN } };
}

/**
 * Channel options with the retry policy added to the service config (beside a
 * round-robin policy already there) for `services` and the health Check.
 * @param {grpc.ChannelOptions} channelOptions
 * @param {string[]} services full names, e.g. "okey.v1.HandService"
 * @returns {grpc.ChannelOptions}
 */
export function withRetries(channelOptions, services) {
  const given = channelOptions['grpc.service_config'];
  const config = typeof given === 'string' ? JSON.parse(given) : {};
  const name = [...services.map((service) => ({ service })), { service: 'grpc.health.v1.Health', method: 'Check' }];
  return {
    ...channelOptions,
    'grpc.service_config': JSON.stringify({
      ...config,
      methodConfig: [{ name, retryPolicy: RETRY_POLICY }],
      retryThrottling: RETRY_THROTTLING,
    }),
  };
}

/**
 * 4 or 6 for "ip:port" or "[ipv6]:port", 0 when the host is a name or the port is missing.
 * @param {string} address
 */
function ipFamily(address) {
  const colon = address.lastIndexOf(':');
  if (colon < 0 || !/^\d+$/.test(address.slice(colon + 1))) return 0;
  const host = address.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  return isIP(host);
}

/**
 * Credentials and channel options for the `tls` option.
 * @param {true | OkeyTlsOptions} tls
 * @returns {{credentials: grpc.ChannelCredentials, channelOptions: grpc.ChannelOptions}}
 */
export function tlsSettings(tls) {
  const settings = tls === true ? {} : tls;
  if (typeof settings !== 'object' || settings === null) {
    throw new TypeError('tls must be true or an object {ca, cert, key, serverName}');
  }
  const ca = pem(settings.ca, 'tls.ca');
  const cert = pem(settings.cert, 'tls.cert');
  const key = pem(settings.key, 'tls.key');
  if (Boolean(cert) !== Boolean(key)) throw new TypeError('tls.cert and tls.key go together (mutual TLS)');
  if (settings.serverName !== undefined && (typeof settings.serverName !== 'string' || !settings.serverName)) {
    throw new TypeError('tls.serverName must be a non-empty string');
  }
  return {
    credentials: grpc.credentials.createSsl(ca ?? null, key ?? null, cert ?? null),
    // grpc-js checks the certificate against this name and sends it as SNI.
    channelOptions: settings.serverName ? { 'grpc.ssl_target_name_override': settings.serverName } : {},
  };
}

/**
 * PEM text as a Buffer; a string that is not PEM (a file path, say) is refused.
 * @param {Buffer | string | undefined} value
 * @param {string} name
 * @returns {Buffer | undefined}
 */
function pem(value, name) {
  if (value === undefined || value === null) return undefined;
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  if (!Buffer.isBuffer(bytes) || !bytes.includes('-----BEGIN ')) {
    throw new TypeError(`${name} must be PEM text (a Buffer or string); read the file first`);
  }
  return bytes;
}

/**
 * "HandService" -> "okey.v1.HandService"; full names pass through.
 * @param {string} service
 */
function qualify(service) {
  return service.includes('.') ? service : `${PACKAGE}.${service}`;
}
