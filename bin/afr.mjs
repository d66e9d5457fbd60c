#!/usr/bin/env node
// `afr`: the command line for bundles (src/cli/main.ts). tsx compiles the TypeScript sources as they are
// imported, so a fresh clone runs it after `npm install` with no build step.
import process from 'node:process';
import { register } from 'tsx/esm/api';

// No tsconfig: tsx would otherwise read the one in the caller's working directory (any project), and
// ours extends .wxt/tsconfig.json, which exists only after `wxt prepare`. The sources need none of its
// settings (no path aliases; type-only imports are marked `import type`).
register({ tsconfig: false });

// `afr inspect … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Imported only now: static imports would be evaluated before tsx is registered.
const { runCli } = await import('../src/cli/main.ts');
const { nodeIo } = await import('../src/cli/node-io.ts');
process.exitCode = await runCli(process.argv.slice(2), nodeIo);
