// Must fail tsc with TS2322 (tests/e2e/test_ts_client.py): a oneof member the
// protos do not define (CheckHandRequest's hand_form has hand and handNotation).
import type { OkeyClient } from "@okey-rules/client";

export async function call(client: OkeyClient): Promise<void> {
  await client.hand.checkHand({ handForm: { case: "handNotations", value: "R1 R2 R3" } });
}
