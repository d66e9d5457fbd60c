/* global process, console */
// `npm pack` ships dist/client/ and dist/cli/ (each one file with its libraries bundled in) and
// bin/afr.mjs: an installed package needs none of `dependencies`, which say what the extension, the
// command line and the client are built from. So the packed package.json has none, and a harness that
// installs the tarball gets no run-time dependency. `strip` (prepack) keeps the file as it was in
// .cache/ and writes it without `dependencies`; `restore` (postpack) puts it back.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = path.join(root, 'package.json');
const kept = path.join(root, '.cache/package.json.before-pack');

function restore() {
  if (!existsSync(kept)) return;
  copyFileSync(kept, manifest);
  rmSync(kept);
}

const command = process.argv[2];
if (command === 'strip') {
  // A pack that failed before its postpack left the stripped file: the kept one is the real one.
  restore();
  mkdirSync(path.dirname(kept), { recursive: true });
  copyFileSync(manifest, kept);
  const { dependencies: _bundled, ...packed } = JSON.parse(readFileSync(manifest, 'utf8'));
  writeFileSync(manifest, `${JSON.stringify(packed, null, 2)}\n`);
} else if (command === 'restore') {
  restore();
} else {
  console.error('usage: node scripts/packed-manifest.mjs strip|restore');
  process.exit(2);
}
