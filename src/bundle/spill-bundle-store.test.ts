import { describe, expect, it } from 'vitest';
import { MemoryBundleStore } from './memory-bundle-store';
import { MEMORY_MAX_BUNDLE_BYTES, SpillBundleStore } from './spill-bundle-store';
import type { BundleSummary } from '../../schemas/api';

const summary = (id: string, createdAt: string): BundleSummary => ({
  id,
  createdAt,
  reason: 'page_exception',
  label: null,
  tabId: 7,
  url: 'https://shop.test/',
  sizeBytes: 3,
  downloadId: null,
});
const quota = () => Object.assign(new Error(''), { name: 'QuotaExceededError' });

describe('SpillBundleStore', () => {
  it('keeps a bundle the full store refuses in memory: listed in order, read, downloaded, deleted', async () => {
    const disk = new MemoryBundleStore();
    const save = disk.save.bind(disk);
    let full = false;
    disk.save = (s, zip) => (full ? Promise.reject(quota()) : save(s, zip));
    const spills: unknown[] = [];
    const bundles = new SpillBundleStore(disk, (e) => spills.push(e));
    await bundles.save(summary('a', '2026-11-23T10:00:00.000Z'), new Uint8Array([1]));
    full = true;
    await bundles.save(summary('b', '2026-11-23T10:00:05.000Z'), new Uint8Array([2]));
    expect(spills).toHaveLength(1);
    expect([...disk.rows.keys()]).toEqual(['a']);
    expect((await bundles.list()).map((s) => s.id)).toEqual(['b', 'a']);
    expect(await bundles.read('b')).toEqual(new Uint8Array([2]));
    expect(await bundles.read('a')).toEqual(new Uint8Array([1]));
    await bundles.setDownloadId('b', 41);
    await bundles.setDownloadId('a', 40);
    expect((await bundles.list()).map((s) => s.downloadId)).toEqual([41, 40]);
    expect(await bundles.delete('b')).toBe(true);
    expect(await bundles.delete('a')).toBe(true);
    expect(await bundles.delete('a')).toBe(false);
    expect(await bundles.list()).toEqual([]);
  });

  it('keeps a download id the full store cannot record', async () => {
    const disk = new MemoryBundleStore();
    disk.setDownloadId = () => Promise.reject(quota());
    const bundles = new SpillBundleStore(disk, () => {});
    await bundles.save(summary('a', '2026-11-23T10:00:00.000Z'), new Uint8Array([1]));
    await bundles.setDownloadId('a', 40);
    expect((await bundles.list()).map((s) => s.downloadId)).toEqual([40]);
  });

  it('keeps at most MEMORY_MAX_BUNDLE_BYTES of bundles in memory, the newest', async () => {
    const disk = new MemoryBundleStore();
    disk.save = () => Promise.reject(quota());
    const bundles = new SpillBundleStore(disk, () => {});
    const size = MEMORY_MAX_BUNDLE_BYTES / 2;
    for (const [id, second] of [['a', 1], ['b', 2], ['c', 3]] as const) {
      await bundles.save({ ...summary(id, `2026-11-23T10:00:0${second}.000Z`), sizeBytes: size }, new Uint8Array(1));
    }
    expect((await bundles.list()).map((s) => s.id)).toEqual(['c', 'b']);
  });

  it('passes on an error that is not about quota', async () => {
    const disk = new MemoryBundleStore();
    disk.save = () => Promise.reject(new Error('the database connection is closing'));
    const bundles = new SpillBundleStore(disk, () => {});
    await expect(bundles.save(summary('a', '2026-11-23T10:00:00.000Z'), new Uint8Array([1]))).rejects.toThrow('closing');
    expect(await bundles.list()).toEqual([]);
  });

  it('puts a bundle the full store refuses in the overflow store (it outlives the worker) before memory', async () => {
    const disk = new MemoryBundleStore();
    disk.save = () => Promise.reject(quota());
    const overflow = new MemoryBundleStore();
    const where: string[] = [];
    const bundles = new SpillBundleStore(disk, (_e, w) => where.push(w), new MemoryBundleStore(), overflow);
    await bundles.save(summary('a', '2026-11-23T10:00:00.000Z'), new Uint8Array([1]));
    expect(where).toEqual(['overflow']);
    expect(bundles.isInMemory('a')).toBe(false);
    expect(await bundles.read('a')).toEqual(new Uint8Array([1]));
    await bundles.setDownloadId('a', 9);
    expect(await bundles.list()).toMatchObject([{ id: 'a', downloadId: 9 }]);
    // The overflow store full as well: memory.
    overflow.save = () => Promise.reject(new Error('QUOTA_BYTES quota exceeded'));
    await bundles.save(summary('b', '2026-11-23T10:00:05.000Z'), new Uint8Array([2]));
    expect(where).toEqual(['overflow', 'memory']);
    expect(bundles.isInMemory('b')).toBe(true);
    expect(await bundles.delete('a')).toBe(true);
    expect(overflow.rows.size).toBe(0);
  });
});
