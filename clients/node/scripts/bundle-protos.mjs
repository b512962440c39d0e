// Copies the okey.v1 contract (the repository's proto/okey) and the LICENSE
// into the package before `npm pack` / `npm publish` (the "prepack" script), so
// the tarball stands alone; `--clean` (the "postpack" script) removes the
// copies again. Both are git-ignored: in the checkout the client reads
// proto/ of the repository, and a copy left behind would shadow edits to it.

import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPOSITORY = path.resolve(PACKAGE_DIR, '..', '..');

/** [source in the repository, destination in the package] */
const COPIES = [
  [path.join(REPOSITORY, 'proto', 'okey'), path.join(PACKAGE_DIR, 'proto', 'okey')],
  [path.join(REPOSITORY, 'LICENSE'), path.join(PACKAGE_DIR, 'LICENSE')],
];

function clean() {
  for (const [, destination] of COPIES) rmSync(destination, { recursive: true, force: true });
  rmSync(path.join(PACKAGE_DIR, 'proto'), { recursive: true, force: true });
}

function bundle() {
  clean(); // a file removed from proto/okey must not survive in the package
  for (const [source, destination] of COPIES) {
    if (!existsSync(source)) {
      throw new Error(`${source} is missing: pack the client from an okey-rules checkout`);
    }
    cpSync(source, destination, { recursive: true });
  }
}

if (process.argv.includes('--clean')) clean();
else bundle();
