import { describe, expect, it, vi } from 'vitest';
import { MemoryKeyValueStore, SETTINGS_KEY, SettingsError, SettingsStore } from './settings-store';
import { DEFAULT_SETTINGS } from '../../schemas/settings';

describe('SettingsStore', () => {
  it('starts from the documented defaults', async () => {
    const settings = await new SettingsStore(new MemoryKeyValueStore()).load();
    expect(settings).toMatchObject({ bufferSeconds: 15, maxBufferBytes: 64 * 1024 * 1024, autoDownload: true });
  });

  it('applies and persists a valid partial change', async () => {
    const storage = new MemoryKeyValueStore();
    const store = new SettingsStore(storage);
    await store.load();
    const next = await store.update({ bufferSeconds: 30, autoDownload: false });
    expect(next.bufferSeconds).toBe(30);
    expect(await new SettingsStore(storage).load()).toEqual(next);
  });

  it('keeps earlier changes through later ones and merges signal rules field by field', async () => {
    const store = new SettingsStore(new MemoryKeyValueStore());
    await store.load();
    await store.update({ autoDownload: false });
    await store.update({ bufferSeconds: 20, signals: { http_4xx: { action: 'trigger', statuses: [401, 403] } } });
    const next = await store.update({ signals: { http_4xx: { urls: ['*/api/*'] } } });
    expect(next.autoDownload).toBe(false);
    expect(next.signals.http_4xx).toMatchObject({ action: 'trigger', statuses: [401, 403], urls: ['*/api/*'], enabled: true });
    expect(next.signals.exception).toEqual(DEFAULT_SETTINGS.signals.exception);
  });

  it.each([
    { patch: { bufferSeconds: 0 }, message: /bufferSeconds/ },
    { patch: { bufferSeconds: '15' }, message: /bufferSeconds/ },
    { patch: { captureIntervalMs: 100 }, message: /captureIntervalMs/ },
    { patch: { noSuchSetting: true }, message: /noSuchSetting|Unrecognized/ },
    { patch: { signals: { http_4xx: { action: 'explode' } } }, message: /signals\.http_4xx\.action/ },
    { patch: { signals: { teleport: {} } }, message: /teleport|Unrecognized/ },
    { patch: { captureLevel: 'ultra' }, message: /captureLevel/ },
    { patch: 'fast please', message: /input/ },
    { patch: null, message: /input/ },
  ])('rejects $patch with a message and changes nothing', async ({ patch, message }) => {
    const store = new SettingsStore(new MemoryKeyValueStore());
    await store.load();
    await expect(store.update(patch)).rejects.toThrow(SettingsError);
    await expect(store.update(patch)).rejects.toThrow(message);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps the valid fields of corrupted stored settings and warns', async () => {
    const storage = new MemoryKeyValueStore();
    storage.data.set(SETTINGS_KEY, { bufferSeconds: 20, jpegQuality: 'high', bogus: 1 });
    const log = vi.fn();
    const settings = await new SettingsStore(storage, log).load();
    expect(settings.bufferSeconds).toBe(20);
    expect(settings.jpegQuality).toBe(DEFAULT_SETTINGS.jpegQuality);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('jpegQuality'));
  });
});
