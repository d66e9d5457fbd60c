import { z } from 'zod';
import { SettingsSchema } from './settings';

/**
 * The extension's `storage.managed_schema`: every setting an administrator may set by enterprise
 * policy (`3rdparty.extensions.<id>`), derived from `SettingsSchema` so settings and policy cannot drift.
 *
 * Chrome reads this with its own policy-schema parser, a subset of JSON Schema (draft 3 style): each
 * node has exactly one `type` (or a `$ref`), the top level is an object without `additionalProperties`,
 * and an invalid schema stops the extension loading
 * (https://developer.chrome.com/docs/extensions/reference/manifest/storage). So only the keywords that
 * parser knows are kept; everything finer (patterns, lengths, refinements) is checked by zod when the
 * recorder reads the policy, which rejects a bad field with a logged reason.
 */
export const MANAGED_SCHEMA_FILE = 'managed_schema.json';

/** Secrets: `chrome://policy` shows them as asterisks (`sensitiveValue`). */
const SENSITIVE = new Set(['secretAccessKey', 'sessionToken']);

type JsonNode = Record<string, unknown>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** One node in Chrome's policy-schema subset. */
function toPolicyNode(node: JsonNode, name: string): JsonNode {
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t) => t !== 'null');
  // A nullable value (`forcePathStyle: boolean | null`) is set by policy as its non-null type.
  const type = types[0] ?? (node.anyOf ? undefined : 'string');
  if (type === undefined) {
    const branch = (node.anyOf as JsonNode[]).find((b) => b.type !== 'null');
    return toPolicyNode({ ...branch, description: node.description }, name);
  }
  const out: JsonNode = { type };
  if (typeof node.description === 'string') out.description = node.description;
  if (Array.isArray(node.enum) && (type === 'string' || type === 'integer')) out.enum = node.enum;
  if (type === 'integer') {
    // Chrome's policy integers are 32-bit: a wider range (byte caps up to 16 GiB) is a `number`.
    const min = typeof node.minimum === 'number' ? node.minimum : null;
    const max = typeof node.maximum === 'number' ? node.maximum : null;
    if ((min !== null && min < INT32_MIN) || (max !== null && max > INT32_MAX)) out.type = 'number';
    else {
      if (min !== null) out.minimum = min;
      if (max !== null) out.maximum = max;
    }
  }
  if (type === 'object' && node.properties) {
    out.properties = Object.fromEntries(Object.entries(node.properties as Record<string, JsonNode>).map(([key, child]) => [key, toPolicyNode(child, key)]));
  }
  if (type === 'array' && node.items) out.items = toPolicyNode(node.items as JsonNode, name);
  if (SENSITIVE.has(name)) out.sensitiveValue = true;
  return out;
}

/** The managed storage schema as Chrome wants it: one policy per setting, all optional. */
export function managedStorageSchema(): JsonNode {
  const json = z.toJSONSchema(SettingsSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonNode;
  const root = toPolicyNode(json, '');
  return { type: 'object', properties: root.properties };
}

/** The text of `public/managed_schema.json` (`npm run schemas` writes it; a unit test checks it is current). */
export function renderManagedSchema(): string {
  return `${JSON.stringify(managedStorageSchema(), null, 2)}\n`;
}
