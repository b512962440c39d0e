// Must fail tsc with TS2551 (tests/e2e/test_ts_client.py): an enum value the
// protos do not define (MoveKind has DISCARD, not DISCARDX;
// TS2551 is TS2339 with a "did you mean").
import { create, MoveKind, MoveSchema } from "@okey-rules/client";

export const move = create(MoveSchema, { kind: MoveKind.DISCARDX, seat: 1 });
