import { BUNDLE_FILE_SCHEMAS, PUBLISHED_SCHEMAS } from '../../schemas/registry';
import { STEP_SNAPSHOT_FILES } from '../bundle-format/file-registry';

/**
 * Bundle file name (`manifest.json`) → its published JSON Schema document; the step pages' schema is
 * under their pattern of names (`snapshots/page-NNN.json`, `STEP_SNAPSHOT_FILES.pattern`).
 */
export type BundleJsonSchemas = Record<string, object>;

/** The `schemas/json/<name>.schema.json` file name of each bundle file (and of the step pages' pattern), from the registry. */
export function bundleSchemaFileNames(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, schema] of Object.entries({ ...BUNDLE_FILE_SCHEMAS, [STEP_SNAPSHOT_FILES.pattern]: STEP_SNAPSHOT_FILES.schema })) {
    const name = Object.entries(PUBLISHED_SCHEMAS).find(([, published]) => published === schema)?.[0];
    if (!name) throw new Error(`${file}: its schema is not published in schemas/registry.ts PUBLISHED_SCHEMAS`);
    out[file] = `${name}.schema.json`;
  }
  return out;
}
