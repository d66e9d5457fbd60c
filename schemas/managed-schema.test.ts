import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANAGED_SCHEMA_PATH } from './generate';
import { managedStorageSchema, renderManagedSchema } from './managed-schema';
import { SettingsSchema } from './settings';

type Node = { type?: string; properties?: Record<string, Node>; items?: Node; [key: string]: unknown };

/** Every node with its path, depth first. */
function nodes(node: Node, path = '(root)'): [string, Node][] {
  const children = Object.entries(node.properties ?? {}).flatMap(([key, child]) => nodes(child, `${path}.${key}`));
  return [[path, node], ...children, ...(node.items ? nodes(node.items, `${path}[]`) : [])];
}

// Chrome's policy schema parser (components/policy/core/common/schema.cc) knows these keywords.
const CHROME_KEYWORDS = new Set(['type', 'properties', 'items', 'enum', 'minimum', 'maximum', 'description', 'title', 'sensitiveValue']);

describe('managed storage schema', () => {
  it('is in sync with the settings schema (run `npm run schemas` after changing a setting)', () => {
    expect(readFileSync(MANAGED_SCHEMA_PATH, 'utf8')).toBe(renderManagedSchema());
  });

  it('declares one policy per setting, at a top level without additionalProperties', () => {
    const schema = managedStorageSchema() as Node;
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('additionalProperties');
    expect(Object.keys(schema.properties!).sort()).toEqual(Object.keys(SettingsSchema.shape).sort());
  });

  it('gives every node exactly one type Chrome knows, and only keywords its parser reads', () => {
    for (const [path, node] of nodes(managedStorageSchema() as Node)) {
      expect(['object', 'array', 'string', 'integer', 'number', 'boolean'], path).toContain(node.type);
      for (const key of Object.keys(node)) expect(CHROME_KEYWORDS.has(key), `${path}: ${key}`).toBe(true);
      // Policy integers are 32-bit in Chrome.
      if (typeof node.maximum === 'number') expect(node.maximum, path).toBeLessThanOrEqual(2 ** 31 - 1);
    }
  });

  it('marks the upload secrets sensitive, so chrome://policy masks them', () => {
    const s3 = (managedStorageSchema() as Node).properties!.upload!.properties!.s3!.properties!;
    expect(s3.secretAccessKey!.sensitiveValue).toBe(true);
    expect(s3.sessionToken!.sensitiveValue).toBe(true);
    expect(s3.forcePathStyle!.type).toBe('boolean');
  });
});
