// Builds the web table into the Python package (server/okey_server/web_static), which
// okey-server's HTTP listener serves at "/". The TypeScript client is bundled from its
// sources (clients/ts/src); its imports of protobuf-es and connect-es resolve to this
// package's node_modules (dedupe), so one `npm ci` here is all a build needs.

import { fileURLToPath } from "node:url";

import { defineConfig } from "vite";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  base: "./",
  resolve: {
    alias: { "@okey-rules/client/web": here("../clients/ts/src/web.ts") },
    dedupe: ["@bufbuild/protobuf", "@connectrpc/connect", "@connectrpc/connect-web"],
  },
  build: {
    outDir: here("../server/okey_server/web_static"),
    emptyOutDir: true,
    // No source maps: the committed build stays small and the same on every machine.
    sourcemap: false,
    rollupOptions: {
      input: { index: here("index.html"), check: here("check.html") },
    },
  },
  server: {
    // `npm run dev`: the page from Vite, the RPCs from `make serve`'s HTTP listener.
    proxy: { "^/(okey\\.v1|grpc\\.health\\.v1)\\.": "http://127.0.0.1:8080" },
  },
});
