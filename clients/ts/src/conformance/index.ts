// The conformance runner as a library (Node): load tests/conformance, run every
// case through an OkeyClient on any transport.

export { type CaseResult, type RunOptions, runCase, runVectors, statePath } from "./runner.js";
export { fieldByKey, subsetMismatches } from "./match.js";
export {
  CASE_KEYS,
  DEFAULT_VECTORS_DIR,
  type ExpectedError,
  loadVectorFiles,
  type VectorCase,
  type VectorFile,
} from "./vectors.js";
