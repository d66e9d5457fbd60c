import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { JSON_SCHEMA_DIR } from '../../schemas/generate';
import { bundleSchemaFileNames, type BundleJsonSchemas } from './bundle-json-schemas';
import type { CliIo } from './main';

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

/** The command line's real surroundings: the file system, `schemas/json/`, stdout and stderr. */
export const nodeIo: CliIo = {
  readFile: async (file) => new Uint8Array(await readFile(file)),
  loadSchemas: () => loadBundleJsonSchemas(),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};
