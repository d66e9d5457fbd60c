import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_FILE_SCHEMAS, PUBLISHED_SCHEMAS } from '../../schemas/registry';
import { JSON_SCHEMA_DIR } from '../../schemas/generate';

/** Bundle file name (`manifest.json`) → its published JSON Schema document. */
export type BundleJsonSchemas = Record<string, object>;

/** The `schemas/json/<name>.schema.json` file name of each bundle file, from the registry. */
export function bundleSchemaFileNames(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, schema] of Object.entries(BUNDLE_FILE_SCHEMAS)) {
    const name = Object.entries(PUBLISHED_SCHEMAS).find(([, published]) => published === schema)?.[0];
    if (!name) throw new Error(`${file}: its schema is not published in schemas/registry.ts PUBLISHED_SCHEMAS`);
    out[file] = `${name}.schema.json`;
  }
  return out;
}

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
