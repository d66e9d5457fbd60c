import { MANIFEST_VERSION } from '../../schemas/manifest';

/*
 * Bundles outlive the recorder that wrote them: readers take a manifest.json of an earlier version and
 * bring it to the current one, one version at a time, before the schema checks it (Playwright's
 * `traceModernizer.ts` does the same for traces). Each step is a pure function of the JSON, so what a
 * reader shows of an old bundle is what the current format would have said.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Version 1 carried the full settings, the custom redaction rules included (the selectors and patterns
 * that say what its owner keeps secret); version 2 carries how many rules of each kind there were. A
 * value that is not a list is left as it is, for the schema to report.
 */
export function migrate_1_to_2(manifest: Json): Json {
  const settings = isObject(manifest.settings) ? manifest.settings : null;
  if (!settings) return { ...manifest, version: 2 };
  const rules = isObject(settings.redaction) ? settings.redaction : {};
  const count = (list: unknown) => (Array.isArray(list) ? list.length : (list ?? 0));
  return {
    ...manifest,
    version: 2,
    settings: {
      ...settings,
      redaction: { selectors: count(rules.selectors), fieldNamePatterns: count(rules.fieldNamePatterns), textPatterns: count(rules.textPatterns) },
    },
  };
}

/** Each step, by the version it starts from. */
const STEPS: Record<number, (manifest: Json) => Json> = { 1: migrate_1_to_2 };

/**
 * A manifest.json brought to `MANIFEST_VERSION`. Anything else (a current, newer or unknown version, or
 * not an object) comes back as it is: the schema then says what is wrong with it.
 * @example modernizeManifest({ version: 1, settings: { redaction: { selectors: ['#ssn'], … } }, … }).settings.redaction // { selectors: 1, … }
 */
export function modernizeManifest(json: unknown): unknown {
  if (!isObject(json)) return json;
  let manifest = json;
  while (typeof manifest.version === 'number' && manifest.version < MANIFEST_VERSION) {
    const step = STEPS[manifest.version];
    if (!step) break;
    manifest = step(manifest);
  }
  return manifest;
}
