// Must fail tsc with TS2322 (tests/e2e/test_ts_client.py): a message field takes
// the generated enum, not its JSON name as a string.
import { create, MoveSchema } from "@okey-rules/client";

export const move = create(MoveSchema, { kind: "MOVE_KIND_DISCARD", seat: 1 });
