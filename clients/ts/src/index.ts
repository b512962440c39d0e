// @okey-rules/client: the okey.v1 messages, enums and services generated from the
// protos (protobuf-es), the typed clients (connect-es) and the error helpers. No
// transport here: "@okey-rules/client/web" (browsers) and "@okey-rules/client/node"
// make one.

export * from "./gen/okey/v1/analysis_pb.js";
export * from "./gen/okey/v1/deal_pb.js";
export * from "./gen/okey/v1/errors_pb.js";
export * from "./gen/okey/v1/game_pb.js";
export * from "./gen/okey/v1/hand_pb.js";
export * from "./gen/okey/v1/ruleset_pb.js";
export * from "./gen/okey/v1/scoring_pb.js";
export * from "./gen/okey/v1/state_pb.js";
export * from "./gen/okey/v1/tile_pb.js";
export {
  type BadRequest,
  type BadRequest_FieldViolation,
  BadRequest_FieldViolationSchema,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";
export { type Status, StatusSchema } from "./gen/google/rpc/status_pb.js";

export {
  clientSeedHash,
  type CommittedDealOptions,
  type FieldsInit,
  createOkeyClient,
  type OkeyClient,
  type Rules,
  type WildNotation,
} from "./client.js";
export { codeName, errorReasonOf, fieldMatches, type OkeyError, okeyError } from "./errors.js";

// What a user needs beside them, so one import does: building, reading and
// writing messages, and the error and call types.
export {
  create,
  fromBinary,
  fromJson,
  type MessageInitShape,
  type MessageShape,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
export { type CallOptions, Code, ConnectError, type Transport } from "@connectrpc/connect";
