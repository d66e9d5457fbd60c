import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { runSinks } from './bundle-sinks';
import type { BundleSink, StoredBundle } from './ports';

const bundle: StoredBundle = {
  summary: { id: 'afr-20261122T120000Z-aaaaaa', createdAt: '2026-11-22T12:00:00.000Z', reason: 'manual', label: null, tabId: 7, url: null, sizeBytes: 3, downloadId: null },
  zip: new Uint8Array([1, 2, 3]),
};

describe('runSinks', () => {
  it('hands the bundle and its settings to each sink in order', async () => {
    const order: string[] = [];
    const sink = (name: string): BundleSink => ({ name, afterStore: async (b, { settings }) => void order.push(`${name} ${b.summary.id} ${settings.autoDownload}`) });
    await runSinks([sink('a'), sink('b')], bundle, { settings: DEFAULT_SETTINGS }, vi.fn());
    expect(order).toEqual([`a ${bundle.summary.id} true`, `b ${bundle.summary.id} true`]);
  });

  it('logs a sink that fails, and the sinks after it still run', async () => {
    const log = vi.fn();
    const after = vi.fn(async () => {});
    const failing: BundleSink = {
      name: 'download',
      afterStore: async () => {
        throw new Error('Download failed: disk full');
      },
    };
    await expect(runSinks([failing, { name: 'upload', afterStore: after }], bundle, { settings: DEFAULT_SETTINGS }, log)).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledWith(`[afr] download of ${bundle.summary.id} failed: Error: Download failed: disk full`);
    expect(after).toHaveBeenCalledWith(bundle, { settings: DEFAULT_SETTINGS });
  });
});
