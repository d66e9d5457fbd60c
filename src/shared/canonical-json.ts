/**
 * JSON text of `value` with every object's keys in sorted order (code unit order) and no white space,
 * so equal values give equal text whatever order their keys were written in.
 * @example canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }) // '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key];
    return sorted;
  });
}

/** `sha256:<hex>` of the canonical JSON of `value` (WebCrypto: the same in Node, a browser and a worker). */
export async function canonicalHash(value: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(value)));
  return `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
