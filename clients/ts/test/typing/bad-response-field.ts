// Must fail tsc with TS2339 (tests/e2e/test_ts_client.py): reading a response
// field the protos do not define (CheckHandResponse has winning, not won).
import type { OkeyClient } from "@okey-rules/client";

export async function call(client: OkeyClient): Promise<boolean> {
  const answer = await client.checkHand("R1 R2 R3", { indicator: "R4" });
  return answer.won;
}
