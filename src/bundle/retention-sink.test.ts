import { describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { MemoryBundleStore } from './memory-bundle-store';
import { retentionSink } from './retention-sink';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const summary = (i: number): BundleSummary => ({
  id: `afr-20261122T12000${i}Z-aaaaaa`,
  createdAt: new Date(T0 + i * 1000).toISOString(),
  reason: 'manual',
  label: null,
  tabId: 7,
  url: null,
  sizeBytes: 3,
  downloadId: null,
});

describe('retentionSink', () => {
  it('keeps only maxStoredBundles of the bundle’s settings, the newest', async () => {
    const bundles = new MemoryBundleStore();
    const sink = retentionSink(bundles, { now: () => T0 + 10_000 });
    for (let i = 0; i < 3; i++) {
      await bundles.save(summary(i), new Uint8Array(3));
      await sink.afterStore({ summary: summary(i), zip: new Uint8Array(3) }, { settings: { ...DEFAULT_SETTINGS, maxStoredBundles: 2 } });
    }
    expect((await bundles.list()).map((b) => b.id)).toEqual([summary(2).id, summary(1).id]);
  });
});
