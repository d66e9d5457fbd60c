import process from 'node:process';
import type { BundleJsonSchemas } from './bundle-json-schemas';
import type { CliIo } from './command';
import { runCli } from './main';
import { nodeFiles } from './node-files';
import type { ExpectedViewer } from './viewer-check';

/*
 * The entry of the packaged command line (`dist/cli/afr.js`, bin `agent-flight-recorder`), bundled by
 * `scripts/build-cli.ts` so it runs without tsx, esbuild or the sources. What `node-io.ts` reads or
 * makes at run time in a checkout (the JSON Schemas, this version's viewer script) is made once by the
 * build and embedded here: the same documents and the same esbuild call, so the two agree.
 */
declare const AFR_CLI_ASSETS: { schemas: BundleJsonSchemas; viewer: ExpectedViewer };

const io: CliIo = {
  ...nodeFiles,
  loadSchemas: () => AFR_CLI_ASSETS.schemas,
  loadViewer: async () => AFR_CLI_ASSETS.viewer,
  version: () => AFR_CLI_ASSETS.viewer.version,
  fleetStore: async () => (await import('./s3-node')).sdkFleetStore(),
};

// `agent-flight-recorder inspect … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), io);
