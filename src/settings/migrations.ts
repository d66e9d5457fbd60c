/**
 * Stored settings carry a schema version: `{ schemaVersion, settings }`. Each migration turns one
 * version's stored shape into the next; `migrateStoredSettings` runs them in order. Version 1 was the
 * bare settings object, with `triggerOnHttp5xx` and `triggerOnPageException` switches.
 */
export const SETTINGS_SCHEMA_VERSION = 2;

/** The `chrome.storage.local` key the settings are stored under. */
export const SETTINGS_KEY = 'settings';

export interface StoredSettings {
  schemaVersion: number;
  settings: Record<string, unknown>;
}

type Migration = (settings: Record<string, unknown>) => Record<string, unknown>;

/** v1 → v2: the two trigger switches became the `signals` rules of their kinds. */
export function migrate_1_to_2(v1: Record<string, unknown>): Record<string, unknown> {
  const { triggerOnHttp5xx, triggerOnPageException, ...rest } = v1;
  const signals: Record<string, unknown> = typeof rest.signals === 'object' && rest.signals !== null ? { ...(rest.signals as object) } : {};
  const switchedOff = (kind: string) => ({ ...((signals[kind] as object | undefined) ?? {}), enabled: false });
  if (triggerOnHttp5xx === false) signals.http_5xx = switchedOff('http_5xx');
  if (triggerOnPageException === false) signals.exception = switchedOff('exception');
  return Object.keys(signals).length ? { ...rest, signals } : rest;
}

const MIGRATIONS: Record<number, Migration> = { 1: migrate_1_to_2 };

/**
 * The stored value brought to the current version. Anything unrecognisable yields `null` (the caller
 * falls back to the defaults); a version newer than this code is read as is, field by field.
 */
export function migrateStoredSettings(stored: unknown): { settings: Record<string, unknown>; from: number } | null {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const wrapped = 'schemaVersion' in stored && 'settings' in stored;
  let version = wrapped ? Number((stored as StoredSettings).schemaVersion) : 1;
  let settings = wrapped ? (stored as StoredSettings).settings : (stored as Record<string, unknown>);
  if (!Number.isInteger(version) || version < 1 || typeof settings !== 'object' || settings === null) return null;
  const from = version;
  while (version < SETTINGS_SCHEMA_VERSION) {
    settings = MIGRATIONS[version]!(settings);
    version++;
  }
  return { settings, from };
}

export function wrapSettings(settings: object): StoredSettings {
  return { schemaVersion: SETTINGS_SCHEMA_VERSION, settings: settings as Record<string, unknown> };
}
