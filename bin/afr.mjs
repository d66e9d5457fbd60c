#!/usr/bin/env node
// `afr`: the command line for bundles (src/cli/main.ts). In a checkout, tsx compiles the TypeScript
// sources as they are imported, so a fresh clone runs it after `npm install` with no build step. In an
// installed package (no sources, no tsx) it runs the bundled `dist/cli/afr.js`, the bin
// `agent-flight-recorder`.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const sources = new URL('../src/cli/main.ts', import.meta.url);
const tsx = await import('tsx/esm/api').catch(() => null);

if (!existsSync(sources) || tsx === null) {
  await import('../dist/cli/afr.js');
} else {
  // No tsconfig: tsx would otherwise read the one in the caller's working directory (any project), and
  // ours extends .wxt/tsconfig.json, which exists only after `wxt prepare`. The sources need none of its
  // settings (no path aliases; type-only imports are marked `import type`).
  tsx.register({ tsconfig: false });

  // `afr inspect … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });

  // Imported only now: static imports would be evaluated before tsx is registered.
  const { runCli } = await import('../src/cli/main.ts');
  const { nodeIo } = await import('../src/cli/node-io.ts');
  process.exitCode = await runCli(process.argv.slice(2), nodeIo);
}
