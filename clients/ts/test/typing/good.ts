// Must type-check (tests/e2e/test_ts_client.py): the package used as a frontend
// would, through its public entry points, with every answer typed (not `any`).

import {
  type CheckHandResponse,
  Code,
  create,
  type DealResponse,
  ErrorReason,
  fromJson,
  MoveKind,
  type MoveJson,
  MoveSchema,
  type OkeyClient,
  okeyError,
  type PlayerViewResponse,
  toJson,
  WinKind,
} from "@okey-rules/client";
import { createNodeClient } from "@okey-rules/client/node";
import { createWebClient } from "@okey-rules/client/web";
import { loadVectorFiles, runVectors } from "@okey-rules/client/conformance";

/** True only when T is `any`: a typed answer must make this false. */
type IsAny<T> = 0 extends 1 & T ? true : false;

const web: OkeyClient = createWebClient("http://127.0.0.1:8080");
const grpcWeb: OkeyClient = createWebClient("http://127.0.0.1:8080", { protocol: "grpc-web" });
const grpc: OkeyClient = createNodeClient("127.0.0.1:50051");
const connect: OkeyClient = createNodeClient("http://127.0.0.1:8080", { protocol: "connect", binary: true });

export async function typedCalls(client: OkeyClient): Promise<void> {
  // The raw generated client: a oneof is a {case, value} union.
  const checked = await client.hand.checkHand({
    handForm: { case: "handNotation", value: "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13" },
    wild: { case: "indicatorNotation", value: "R4" },
    omitArrangements: true,
  });
  const notAny: IsAny<typeof checked> = false;
  const answer: CheckHandResponse = checked;
  const won: boolean = answer.winning && answer.kind === WinKind.MELDS;

  // The conveniences.
  const same: CheckHandResponse = await client.checkHand("R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13", {
    indicator: "R4",
  });
  const dealt: DealResponse = await client.deal.deal({ seed: "table-7", playerCount: 4 });
  const state: Uint8Array = dealt.state;
  const view: PlayerViewResponse = await client.game.playerView({ state, seat: 1 });
  const seat: number = view.seat;

  // A move built three ways: an enum value, a message, proto3 JSON typed by MoveJson.
  const move = create(MoveSchema, { kind: MoveKind.DRAW_FROM_WALL, seat });
  const json: MoveJson = { kind: "MOVE_KIND_DISCARD", seat: 1, tile: { color: "COLOR_RED", number: 11 } };
  const parsed = fromJson(MoveSchema, json);
  const back: MoveJson = toJson(MoveSchema, parsed);
  const applied = await client.game.applyMove({ state, move });
  const legal: boolean = applied.legal;

  // A refusal: the code, the field violations and the ErrorInfo reason.
  try {
    await client.checkHand("R1 R2", { okey: "R5" });
  } catch (error) {
    const refused = okeyError(error);
    const invalid: boolean = refused.code === Code.InvalidArgument;
    const fields: string[] = refused.fieldViolations.map((violation) => violation.field);
    const tiles: boolean = refused.errorReason === ErrorReason.INVALID_TILES || refused.reason === "ERROR_REASON_INVALID_TILES";
    void [invalid, fields, tiles];
  }
  void [notAny, won, same, back, legal];
}

export async function conformance(): Promise<number> {
  const results = await runVectors(grpc, loadVectorFiles());
  return results.filter((result) => !result.passed).length;
}

void [web, grpcWeb, connect];
