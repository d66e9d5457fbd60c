import { describe, expect, it, vi } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { StoredBundles } from './stored-bundles';

const id = 'afr-20261122T120000Z-aaaaaa';
const summary: BundleSummary = { id, createdAt: '2026-11-22T12:00:00.000Z', reason: 'manual', label: null, tabId: 7, url: null, sizeBytes: 3, downloadId: null };

describe('StoredBundles', () => {
  it('lists, exports as base64 and deletes by a checked id', async () => {
    const bundles = new MemoryBundleStore();
    await bundles.save(summary, new Uint8Array([1, 2, 3]));
    const stored = new StoredBundles(bundles, vi.fn());
    expect(await stored.list()).toEqual([summary]);
    expect(await stored.export(id)).toBe('AQID');
    await expect(stored.export('../x')).rejects.toThrow('not a bundle id: "../x"');
    await expect(stored.delete({ id })).rejects.toThrow(/not a bundle id/);
    expect(await stored.delete(id)).toBe(true);
    expect(await stored.delete(id)).toBe(false);
    await expect(stored.export(id)).rejects.toThrow(`no bundle with id ${id}`);
  });

  it('saves a bundle to the downloads on request and notes the download id', async () => {
    const bundles = new MemoryBundleStore();
    await bundles.save(summary, new Uint8Array([1, 2, 3]));
    const download = vi.fn(async () => 5);
    expect(await new StoredBundles(bundles, download).saveToDownloads(id)).toBe(5);
    expect(download).toHaveBeenCalledWith(id, new Uint8Array([1, 2, 3]));
    expect((await bundles.list())[0]!.downloadId).toBe(5);
  });
});
