// OkeyClient's `tls` option: the checks made when a client is built, and,
// against okey-server over TLS and mutual TLS, which clients are answered.
//
// The live tests need certificates and two servers, which
// tests/e2e/test_node_client.py makes and starts; it runs this file with
// OKEY_TEST_TLS_DIR (the PEM files: ca.pem, client.pem/.key signed by that CA,
// stranger.pem/.key signed by another CA), OKEY_TEST_TLS_SERVER (a TLS
// server whose certificate names 127.0.0.1, localhost and
// OKEY_TEST_TLS_SERVER_NAME) and OKEY_TEST_MTLS_SERVER (the same, requiring
// a client certificate signed by ca.pem). Without them only the first tests
// are defined: a plain `npm test` has no certificates to use.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';

import grpc from '@grpc/grpc-js';

import { OkeyClient, OkeyError } from '../src/index.js';

const REQUEST = {
  handNotation: 'R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 B1 Y1 K1 R5',
  indicatorNotation: 'R4',
  omitArrangements: true,
};
const FAKE_PEM = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';

test('tls.cert without tls.key (and the reverse) is refused when the client is made', () => {
  assert.throws(() => new OkeyClient('127.0.0.1:1', { tls: { cert: FAKE_PEM } }), /tls.cert and tls.key go together/);
  assert.throws(() => new OkeyClient('127.0.0.1:1', { tls: { key: FAKE_PEM } }), /tls.cert and tls.key go together/);
});

test('a file path where PEM text belongs is refused, naming the option', () => {
  assert.throws(
    () => new OkeyClient('127.0.0.1:1', { tls: { ca: '/etc/okey/ca.pem' } }),
    /tls.ca must be PEM text \(a Buffer or string\); read the file first/,
  );
});

test('tls and credentials of your own are refused together', () => {
  assert.throws(
    () => new OkeyClient('127.0.0.1:1', { tls: true, credentials: grpc.credentials.createInsecure() }),
    /either tls or credentials/,
  );
});

const dir = process.env.OKEY_TEST_TLS_DIR;
const tlsServer = process.env.OKEY_TEST_TLS_SERVER;
const mtlsServer = process.env.OKEY_TEST_MTLS_SERVER;
const serverName = process.env.OKEY_TEST_TLS_SERVER_NAME;

if (dir && tlsServer && mtlsServer && serverName) {
  const read = (name) => readFileSync(path.join(dir, name));
  const ca = read('ca.pem');
  /** @type {OkeyClient[]} */
  const clients = [];
  const client = (address, options) => {
    const made = new OkeyClient(address, { deadlineMs: 10_000, ...options });
    clients.push(made);
    return made;
  };
  /** The call fails as a server that cannot be reached does: UNAVAILABLE. */
  const refused = (promise) => assert.rejects(promise, (err) => err instanceof OkeyError && err.codeName === 'UNAVAILABLE');

  after(() => {
    for (const made of clients) made.close();
  });

  test('TLS: a client trusting the CA gets answers', async () => {
    const answer = await client(tlsServer, { tls: { ca } }).checkHand(REQUEST);
    assert.equal(answer.winning, true);
    assert.equal(answer.summary, 'winning: melds');
  });

  test('TLS: the CA may be given as a string', async () => {
    const answer = await client(tlsServer, { tls: { ca: ca.toString('utf8') } }).checkHand(REQUEST);
    assert.equal(answer.winning, true);
  });

  test('TLS: serverName is the name the certificate is checked against', async () => {
    assert.equal((await client(tlsServer, { tls: { ca, serverName } }).checkHand(REQUEST)).winning, true);
    await refused(client(tlsServer, { tls: { ca, serverName: 'not-the-server.example' } }).checkHand(REQUEST));
  });

  test('TLS: several addresses are checked against the first host', async () => {
    const answer = await client(`${tlsServer},${tlsServer}`, { tls: { ca } }).checkHand(REQUEST);
    assert.equal(answer.winning, true);
  });

  test("TLS: Node's root certificates do not trust the test CA", async () => {
    await refused(client(tlsServer, { tls: true }).checkHand(REQUEST));
  });

  test('TLS: a plaintext client gets no answer', async () => {
    await refused(client(tlsServer).checkHand(REQUEST));
  });

  test('mutual TLS: a client certificate signed by the client CA is answered', async () => {
    const tls = { ca, cert: read('client.pem'), key: read('client.key') };
    assert.equal((await client(mtlsServer, { tls }).checkHand(REQUEST)).winning, true);
  });

  test('mutual TLS: a client without a certificate is refused', async () => {
    await refused(client(mtlsServer, { tls: { ca } }).checkHand(REQUEST));
  });

  test('mutual TLS: a client certificate signed by another CA is refused', async () => {
    const tls = { ca, cert: read('stranger.pem'), key: read('stranger.key') };
    await refused(client(mtlsServer, { tls }).checkHand(REQUEST));
  });
}
