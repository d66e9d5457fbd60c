/**
 * Writes `schemas/json/*.schema.json` from the zod sources (`npm run schemas`).
 * A unit test regenerates them in memory and fails when the committed files are stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PUBLISHED_SCHEMAS } from './registry';
import { MANAGED_SCHEMA_FILE, renderManagedSchema } from './managed-schema';

/** JSON Schema text of each published schema, keyed by file name. */
export function renderJsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
    out[`${name}.schema.json`] = `${JSON.stringify({ $id: `${name}.schema.json`, title: name, ...json }, null, 2)}\n`;
  }
  return out;
}

export const JSON_SCHEMA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'json');
/** The extension's `storage.managed_schema`, copied into the build from `public/`. */
export const MANAGED_SCHEMA_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', MANAGED_SCHEMA_FILE);

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  mkdirSync(JSON_SCHEMA_DIR, { recursive: true });
  for (const [file, text] of Object.entries(renderJsonSchemas())) {
    writeFileSync(path.join(JSON_SCHEMA_DIR, file), text);
  }
  mkdirSync(path.dirname(MANAGED_SCHEMA_PATH), { recursive: true });
  writeFileSync(MANAGED_SCHEMA_PATH, renderManagedSchema());
  console.log(`wrote ${Object.keys(PUBLISHED_SCHEMAS).length} JSON Schema files to ${JSON_SCHEMA_DIR} and the managed storage schema to ${MANAGED_SCHEMA_PATH}`);
}
