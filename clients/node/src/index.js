// okey-rules-client: a thin Node.js client for the okey.v1 gRPC services.

export { OkeyClient, withStateBytes } from './client.js';
export { clientSeedHash, commitmentOf } from './fairness.js';
export * from './okey.js';
export { DEFAULT_PROTO_DIR, PACKAGE, contractFiles, loadContract } from './contract.js';
export { CODE_NAMES, OkeyError, decodeStatus, encodeStatus, toOkeyError } from './errors.js';
export { JsonShapeError, formatTimestamp, fromJson, jsonName, parseTimestamp, toJson } from './json.js';
export {
  DEFAULT_VECTORS_DIR,
  fieldMatches,
  loadVectorFiles,
  runCase,
  runVectors,
  subsetMismatches,
} from './conformance.js';
