// The page's one connection: Connect (binary protobuf) to the origin it was served from.

import { createWebClient, type OkeyClient } from "@okey-rules/client/web";

export function connectToServer(): OkeyClient {
  return createWebClient(window.location.origin, { binary: true });
}
