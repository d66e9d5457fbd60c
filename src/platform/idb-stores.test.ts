import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbBundleStore } from './idb-bundle-store';
import { IdbStepStore } from './idb-step-store';

describe('IdbBundleStore', () => {
  it('saves, lists newest first, reads, tags the download and deletes', async () => {
    const store = new IdbBundleStore();
    const summary = (id: string) => ({ id, createdAt: '2026-11-22T00:00:00.000Z', reason: 'x', label: null, tabId: 1, url: null, sizeBytes: 3, downloadId: null });
    await store.save(summary('afr-20261122T000001Z-aaaaaa'), new Uint8Array([1, 2, 3]));
    await store.save(summary('afr-20261122T000002Z-bbbbbb'), new Uint8Array([4]));
    expect((await store.list()).map((b) => b.id)).toEqual(['afr-20261122T000002Z-bbbbbb', 'afr-20261122T000001Z-aaaaaa']);
    expect([...((await store.read('afr-20261122T000001Z-aaaaaa')) ?? [])]).toEqual([1, 2, 3]);
    await store.setDownloadId('afr-20261122T000001Z-aaaaaa', 9);
    expect((await store.list())[1]!.downloadId).toBe(9);
    expect(await store.delete('afr-20261122T000001Z-aaaaaa')).toBe(true);
    expect(await store.delete('afr-20261122T000001Z-aaaaaa')).toBe(false);
    expect(await store.read('afr-20261122T000001Z-aaaaaa')).toBeUndefined();
  });
});

describe('IdbStepStore', () => {
  it('keeps steps by sequence number', async () => {
    const store = new IdbStepStore();
    const step = (seq: number) => ({ seq, ts: seq, tab_id: 1, frame_id: 0, url: null, source: 'observer' as const, kind: 'click' as const, action: 'click', target: null, value: null, value_redacted: false, outcome: null, label: null });
    await store.put([step(2)]);
    await store.put([step(1)]);
    await store.delete([2]);
    expect((await store.list()).map((s) => s.seq)).toEqual([1]);
  });
});
