// The server the live tests talk to: OKEY_SERVER when set, otherwise the
// repository's own okey-server started on an ephemeral loopback port (its
// JSON startup line on stderr names the port), stopped with SIGTERM.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SERVER_BIN = path.resolve(HERE, '..', '..', '..', '.venv', 'bin', 'okey-server');
const STARTUP_TIMEOUT_MS = 60_000;

/**
 * @returns {Promise<{address: string, stop: () => Promise<void>} | {skip: string}>}
 */
export async function liveServer() {
  if (process.env.OKEY_SERVER) return { address: process.env.OKEY_SERVER, stop: async () => {} };
  if (!existsSync(SERVER_BIN)) return { skip: `set OKEY_SERVER or build ${SERVER_BIN} (make setup)` };

  const child = spawn(SERVER_BIN, ['--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('okey-server printed no startup line')), STARTUP_TIMEOUT_MS);
    const lines = createInterface({ input: child.stderr });
    lines.on('line', (line) => {
      try {
        const record = JSON.parse(line);
        if (record && Number.isInteger(record.port)) {
          clearTimeout(timer);
          resolve(record.port);
        }
      } catch {
        // not a JSON line: other start-up output
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`okey-server exited with ${code} before listening`));
    });
  });
  return {
    address: `127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
