// Must fail tsc with TS2820 (tests/e2e/test_ts_client.py): proto3 JSON with an
// enum name the protos do not define (TS2820 is TS2322 with a "did you mean").
import type { MoveJson } from "@okey-rules/client";

export const move: MoveJson = { kind: "MOVE_KIND_DISCARDX", seat: 1 };
