import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSON_SCHEMA_DIR } from '../../schemas/generate';
import { bundleViewerScript } from '../bundle-format/viewer-script-build';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import type { CliIo } from './command';
import { nodeFiles } from './node-files';
import type { ExpectedViewer } from './viewer-check';

/**
 * Reads the published JSON Schema of every bundle file from `schemas/json/`: `afr validate` checks
 * bundles against the same documents other tools would use, not against the zod sources.
 */
export function loadBundleJsonSchemas(dir: string = JSON_SCHEMA_DIR): BundleJsonSchemas {
  const out: BundleJsonSchemas = {};
  for (const [file, schemaFile] of Object.entries(bundleSchemaFileNames())) {
    out[file] = JSON.parse(readFileSync(path.join(dir, schemaFile), 'utf8')) as object;
  }
  return out;
}

/**
 * The viewer of this checkout: its version from `package.json` (the extension's version, which the
 * manifest records) and its script made from the sources the way the build makes it. Made, not stored,
 * so it cannot go stale: a change to the viewer is a change to what `afr validate` expects.
 */
export async function loadExpectedViewer(): Promise<ExpectedViewer> {
  return { version: packageVersion(), script: (await bundleViewerScript()).code };
}

/** The version of this checkout (`package.json`): the recorder's and afr's. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** The command line's real surroundings: the file system, `schemas/json/`, stdout and stderr. */
export const nodeIo: CliIo = {
  ...nodeFiles,
  loadSchemas: () => loadBundleJsonSchemas(),
  loadViewer: () => loadExpectedViewer(),
  version: packageVersion,
  // Loaded on use: the other commands do not pay for the AWS SDK.
  fleetStore: async () => (await import('./s3-node')).sdkFleetStore(),
};
