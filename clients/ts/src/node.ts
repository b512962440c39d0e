// Node: gRPC straight to okey-server's gRPC port, or the Connect protocol and
// gRPC-Web to its HTTP listener (--http-port).

import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";

import { createOkeyClient, type OkeyClient } from "./client.js";

export * from "./index.js";
export { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";

export type NodeProtocol = "grpc" | "connect" | "grpc-web";

export interface NodeClientOptions {
  /** "grpc" (default: the gRPC port), or "connect" / "grpc-web" (the HTTP listener). */
  readonly protocol?: NodeProtocol;
  /** Connect only: protobuf binary instead of JSON on the wire. */
  readonly binary?: boolean;
  /** Connect and gRPC-Web: HTTP/1.1 (default) or HTTP/2 to the listener. gRPC is always HTTP/2. */
  readonly httpVersion?: "1.1" | "2";
}

/** "host:port" as a URL ("http://host:port"); a URL is kept as it is. */
export function baseUrlOf(address: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
}

/**
 * A client for okey-server at `address`: "127.0.0.1:50051" or a URL
 * ("http://127.0.0.1:8080"; https:// for TLS).
 */
export function createNodeClient(address: string, options: NodeClientOptions = {}): OkeyClient {
  const baseUrl = baseUrlOf(address);
  const httpVersion = options.httpVersion ?? "1.1";
  switch (options.protocol ?? "grpc") {
    case "grpc":
      return createOkeyClient(createGrpcTransport({ baseUrl }));
    case "connect":
      return createOkeyClient(createConnectTransport({ baseUrl, httpVersion, useBinaryFormat: options.binary ?? false }));
    case "grpc-web":
      return createOkeyClient(createGrpcWebTransport({ baseUrl, httpVersion }));
  }
}
