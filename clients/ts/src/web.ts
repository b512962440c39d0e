// Browsers (and any runtime with fetch): the Connect protocol (JSON or binary) or
// gRPC-Web, both over okey-server's HTTP listener (--http-port).

import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";

import { createOkeyClient, type OkeyClient } from "./client.js";

export * from "./index.js";
export { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";

export interface WebClientOptions {
  /** "connect" (default) or "grpc-web". */
  readonly protocol?: "connect" | "grpc-web";
  /** Protobuf binary instead of JSON on the wire (gRPC-Web is always binary here). */
  readonly binary?: boolean;
}

/**
 * A client for okey-server's HTTP listener at `baseUrl`, e.g.
 * "http://127.0.0.1:8080" (the page's origin, or one its CORS setting allows).
 */
export function createWebClient(baseUrl: string, options: WebClientOptions = {}): OkeyClient {
  const transport =
    options.protocol === "grpc-web"
      ? createGrpcWebTransport({ baseUrl, useBinaryFormat: true })
      : createConnectTransport({ baseUrl, useBinaryFormat: options.binary ?? false });
  return createOkeyClient(transport);
}
