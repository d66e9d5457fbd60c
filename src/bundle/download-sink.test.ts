import { describe, expect, it, vi } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { autoDownloadSink } from './download-sink';
import { MemoryBundleStore } from './memory-bundle-store';

const newSummary = (): BundleSummary => ({ id: 'afr-20261122T120000Z-aaaaaa', createdAt: '2026-11-22T12:00:00.000Z', reason: 'assertion_failed', label: null, tabId: 7, url: null, sizeBytes: 3, downloadId: null });
const zip = new Uint8Array([1, 2, 3]);

describe('autoDownloadSink', () => {
  it('with autoDownload on, saves the zip to the downloads and notes the download on the stored bundle', async () => {
    const bundles = new MemoryBundleStore();
    const summary = newSummary();
    await bundles.save(summary, zip);
    const download = vi.fn(async () => 42);
    await autoDownloadSink(bundles, download).afterStore({ summary, zip }, { settings: DEFAULT_SETTINGS });
    expect(download).toHaveBeenCalledWith(summary.id, zip);
    expect((await bundles.list())[0]).toMatchObject({ id: summary.id, downloadId: 42, reason: 'assertion_failed' });
    // The caller's summary says so too.
    expect(summary.downloadId).toBe(42);
  });

  it.each([
    { trigger: 'page', downloaded: false },
    { trigger: 'agent', downloaded: true },
    { trigger: 'operator', downloaded: true },
    { trigger: 'signal', downloaded: true },
    { trigger: 'signal', unattended: true, downloaded: true },
    { trigger: undefined, downloaded: true },
  ] as const)('a bundle triggered by $trigger (unattended: $unattended) is downloaded: $downloaded', async ({ trigger, downloaded, ...rest }) => {
    const bundles = new MemoryBundleStore();
    const summary: BundleSummary = { ...newSummary(), ...(trigger ? { trigger } : {}), ...('unattended' in rest ? { unattended: rest.unattended } : {}) };
    await bundles.save(summary, zip);
    const download = vi.fn(async () => 42);
    await autoDownloadSink(bundles, download).afterStore({ summary, zip }, { settings: DEFAULT_SETTINGS });
    expect(download).toHaveBeenCalledTimes(downloaded ? 1 : 0);
  });

  it('skips the download when autoDownload is off', async () => {
    const bundles = new MemoryBundleStore();
    const summary = newSummary();
    await bundles.save(summary, zip);
    const download = vi.fn(async () => 42);
    await autoDownloadSink(bundles, download).afterStore({ summary, zip }, { settings: { ...DEFAULT_SETTINGS, autoDownload: false } });
    expect(download).not.toHaveBeenCalled();
    expect((await bundles.list())[0]!.downloadId).toBeNull();
  });
});
