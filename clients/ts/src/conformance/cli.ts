#!/usr/bin/env node
// okey-ts-conformance: every conformance vector through the generated clients,
// over each transport named on the command line.
//
//   okey-ts-conformance --grpc 127.0.0.1:50051 --connect http://127.0.0.1:8080
//
// --web-connect and --web-grpc-web take the browser entry point's transports
// (@connectrpc/connect-web, on fetch) instead of Node's, to the same listener.
//
// Prints FAIL lines (every case with --verbose), a summary line per transport,
// "conformance (ts client, grpc): N passed, M failed", and the total alone on
// the last line, "N passed, M failed". Exit 0 when every case passed on every
// transport; 1 when one failed or none ran; 2 for bad arguments or vectors;
// 3 when a server cannot be reached.

import { parseArgs } from "node:util";

import type { OkeyClient } from "../client.js";
import { createNodeClient, type NodeProtocol } from "../node.js";
import { createWebClient } from "../web.js";
import { type CaseResult, runVectors } from "./runner.js";
import { DEFAULT_VECTORS_DIR, loadVectorFiles, type VectorFile } from "./vectors.js";

const USAGE = `usage: okey-ts-conformance [--grpc HOST:PORT] [--connect URL] [--connect-binary URL]
                           [--grpc-web URL] [--web-connect URL] [--web-grpc-web URL]
                           [--dir DIR] [--filter TEXT] [--verbose]
At least one transport: --grpc (okey-server's gRPC port), --connect / --connect-binary /
--grpc-web (its HTTP listener, okey-server --http-port, through Node's transports),
--web-connect / --web-grpc-web (the same listener through the browser's, on fetch).`;

interface Target {
  readonly label: string;
  readonly address: string;
  readonly client: (address: string) => OkeyClient;
}

function usage(message: string): never {
  console.error(`okey-ts-conformance: ${message}\n${USAGE}`);
  process.exit(2);
}

function targetsOf(values: Record<string, unknown>): Target[] {
  const targets: Target[] = [];
  const add = (option: string, label: string, client: Target["client"]): void => {
    const address = values[option];
    if (typeof address === "string") targets.push({ label, address, client });
  };
  const node = (protocol: NodeProtocol, binary = false) => (address: string) =>
    createNodeClient(address, { protocol, binary });
  add("grpc", "grpc", node("grpc"));
  add("connect", "connect json", node("connect"));
  add("connect-binary", "connect binary", node("connect", true));
  add("grpc-web", "grpc-web", node("grpc-web"));
  add("web-connect", "web connect json", (address) => createWebClient(address));
  add("web-grpc-web", "web grpc-web", (address) => createWebClient(address, { protocol: "grpc-web" }));
  return targets;
}

function printResult(result: CaseResult, label: string, verbose: boolean): void {
  if (result.passed) {
    if (verbose) console.log(`PASS ${result.name}  [${label}]`);
    return;
  }
  console.log(`FAIL ${result.name}  (${result.file}) [${label}]`);
  console.log(`     reason: ${result.reason}`);
  for (const problem of result.problems) console.log(`     - ${problem}`);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        grpc: { type: "string" },
        connect: { type: "string" },
        "connect-binary": { type: "string" },
        "grpc-web": { type: "string" },
        "web-connect": { type: "string" },
        "web-grpc-web": { type: "string" },
        dir: { type: "string", default: DEFAULT_VECTORS_DIR },
        filter: { type: "string" },
        verbose: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    });
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const targets = targetsOf(values);
  if (targets.length === 0) usage("no transport given");
  let files: VectorFile[];
  try {
    files = loadVectorFiles(values.dir);
  } catch (error) {
    console.error(`okey-ts-conformance: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const wanted = values.filter;
  const filter = wanted === undefined
    ? undefined
    : (file: VectorFile, testCase: { name: string }) => testCase.name.includes(wanted) || file.suite.includes(wanted);
  let passed = 0;
  let failed = 0;
  let unreachable = false;
  for (const target of targets) {
    const results = await runVectors(target.client(target.address), files, {
      ...(filter === undefined ? {} : { filter }),
      onResult: (result) => printResult(result, target.label, values.verbose),
    });
    const ok = results.filter((r) => r.passed).length;
    console.log(`conformance (ts client, ${target.label}): ${ok} passed, ${results.length - ok} failed`);
    passed += ok;
    failed += results.length - ok;
    if (results.some((r) => r.unreachable)) {
      console.error(`okey-ts-conformance: ${target.address} (${target.label}) cannot be reached`);
      unreachable = true;
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (unreachable) return 3;
  return failed === 0 && passed > 0 ? 0 : 1;
}

process.exitCode = await main();
