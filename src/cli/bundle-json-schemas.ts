import { BUNDLE_FILE_SCHEMAS, PUBLISHED_SCHEMAS } from '../../schemas/registry';

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
