// Loads the okey.v1 contract from .proto files at run time: every file in
// okey/v1, so a new service needs no client change. An installed package reads
// the copy bundled at `npm pack`; a checkout reads the repository's proto/.

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// The package's own copy (scripts/bundle-protos.mjs writes it for `npm pack`)
// and the repository's proto/, for a client run from the checkout.
const BUNDLED_PROTO_DIR = path.resolve(HERE, '..', 'proto');
const REPOSITORY_PROTO_DIR = path.resolve(HERE, '..', '..', '..', 'proto');

/** Where okey/v1/*.proto are read from by default: the bundled copy, else the repository's proto/. */
export const DEFAULT_PROTO_DIR = existsSync(path.join(BUNDLED_PROTO_DIR, 'okey', 'v1'))
  ? BUNDLED_PROTO_DIR
  : REPOSITORY_PROTO_DIR;

/** The protobuf package every okey-rules service lives in. */
export const PACKAGE = 'okey.v1';

// keepCase: the objects proto-loader hands to protobufjs use the proto's own
// field names; src/json.js maps them to proto3 JSON names. Enums and 64-bit
// integers come back as strings, bytes as base64, as in proto3 JSON.
const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: String,
  defaults: false,
  oneofs: false,
};

/**
 * The .proto files of the package, relative to the proto directory.
 * @param {string} protoDir
 * @returns {string[]}
 */
export function contractFiles(protoDir) {
  const dir = path.join(protoDir, ...PACKAGE.split('.'));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.proto'))
    .sort()
    .map((name) => `${PACKAGE.split('.').join('/')}/${name}`);
}

/**
 * @typedef {object} MethodInfo
 * @property {string} service full service name, e.g. "okey.v1.HandService"
 * @property {string} name method name, e.g. "CheckHand"
 * @property {string} path the HTTP/2 path, e.g. "/okey.v1.HandService/CheckHand"
 * @property {boolean} unary neither side streams
 * @property {protobuf.Type} requestType
 * @property {protobuf.Type} responseType
 * @property {(value: object) => Buffer} serialize
 * @property {(bytes: Buffer) => Record<string, unknown>} deserialize
 */

/**
 * The loaded contract: services and their methods, and the message types.
 * @typedef {object} Contract
 * @property {string} protoDir
 * @property {string[]} files
 * @property {protobuf.Root} root
 * @property {Map<string, Map<string, MethodInfo>>} services
 * @property {protoLoader.PackageDefinition} definition proto-loader's, e.g. for a test server
 */

/**
 * Loads every file of okey.v1 from `protoDir`.
 * @param {string} [protoDir]
 * @returns {Contract}
 */
export function loadContract(protoDir = process.env.OKEY_PROTO_DIR || DEFAULT_PROTO_DIR) {
  const files = contractFiles(protoDir);
  const definition = protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs: [protoDir] });

  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(protoDir, target);
  root.loadSync(files, { keepCase: true });
  root.resolveAll();

  /** @type {Map<string, Map<string, MethodInfo>>} */
  const services = new Map();
  for (const [name, entry] of Object.entries(definition)) {
    if (!name.startsWith(`${PACKAGE}.`) || 'format' in entry) continue; // message or enum
    /** @type {Map<string, MethodInfo>} */
    const methods = new Map();
    const service = root.lookupService(name);
    for (const [methodName, def] of Object.entries(/** @type {Record<string, any>} */ (entry))) {
      const method = service.methods[methodName];
      if (!method) continue; // proto-loader also lists the lower-camel alias
      methods.set(methodName, {
        service: name,
        name: methodName,
        path: def.path,
        unary: !def.requestStream && !def.responseStream,
        requestType: /** @type {protobuf.Type} */ (method.resolvedRequestType),
        responseType: /** @type {protobuf.Type} */ (method.resolvedResponseType),
        serialize: def.requestSerialize,
        deserialize: def.responseDeserialize,
      });
    }
    services.set(name, methods);
  }
  return { protoDir, files, root, services, definition };
}
