import { describe, expect, it } from 'vitest';
import { SETTINGS_SCHEMA_VERSION, migrateStoredSettings, migrate_1_to_2, wrapSettings } from './migrations';
import { MemoryKeyValueStore, SETTINGS_KEY, SettingsStore } from './settings-store';
import { redactionRulesFromStoredSettings } from './stored-redaction-rules';

describe('settings migrations', () => {
  it.each([
    [{ bufferSeconds: 20, triggerOnHttp5xx: true, triggerOnPageException: true }, { bufferSeconds: 20 }],
    [{ triggerOnHttp5xx: false }, { signals: { http_5xx: { enabled: false } } }],
    [{ triggerOnPageException: false, triggerOnHttp5xx: false }, { signals: { http_5xx: { enabled: false }, exception: { enabled: false } } }],
  ])('migrate_1_to_2(%j)', (v1, v2) => {
    expect(migrate_1_to_2(v1)).toEqual(v2);
  });

  it.each([
    ['a bare v1 object', { bufferSeconds: 9 }, { settings: { bufferSeconds: 9 }, from: 1 }],
    ['the current version', wrapSettings({ bufferSeconds: 9 }), { settings: { bufferSeconds: 9 }, from: SETTINGS_SCHEMA_VERSION }],
    ['a string', 'junk', null],
    ['an array', [1, 2], null],
    ['a bad version', { schemaVersion: 'x', settings: {} }, null],
  ])('reads %s', (_name, stored, want) => {
    expect(migrateStoredSettings(stored)).toEqual(want);
  });

  it('a store written by version 1 loads, migrated, and is written back at the current version on the next change', async () => {
    const storage = new MemoryKeyValueStore();
    storage.data.set(SETTINGS_KEY, { bufferSeconds: 25, triggerOnHttp5xx: false, autoDownload: false });
    const store = new SettingsStore(storage, () => {});
    const settings = await store.load();
    expect(settings).toMatchObject({ bufferSeconds: 25, autoDownload: false });
    expect(settings.signals.http_5xx.enabled).toBe(false);
    expect(settings.signals.exception.enabled).toBe(true);
    await store.update({ jpegQuality: 60 });
    expect(storage.data.get(SETTINGS_KEY)).toMatchObject({ schemaVersion: SETTINGS_SCHEMA_VERSION, settings: { bufferSeconds: 25, jpegQuality: 60 } });
  });
});

describe('redactionRulesFromStoredSettings', () => {
  it.each([
    [undefined, { selectors: [], fieldNamePatterns: [], textPatterns: [] }],
    [wrapSettings({ redaction: { selectors: ['.x'], fieldNamePatterns: [], textPatterns: ['a+'] } }), { selectors: ['.x'], fieldNamePatterns: [], textPatterns: ['a+'] }],
    [wrapSettings({ redaction: { selectors: 'not a list' } }), { selectors: [], fieldNamePatterns: [], textPatterns: [] }],
  ])('%j', (stored, want) => {
    expect(redactionRulesFromStoredSettings(stored)).toEqual(want);
  });
});
