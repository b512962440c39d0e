// Must fail tsc with TS2353 (tests/e2e/test_ts_client.py): a request field the
// protos do not define (CheckHandRequest has no tileCount).
import type { OkeyClient } from "@okey-rules/client";

export async function call(client: OkeyClient): Promise<void> {
  await client.hand.checkHand({ tileCount: 14 });
}
