import type { BundleSummary } from '../../schemas/api';
import { isQuotaExceeded } from '../ring/frame-ring';
import { MemoryBundleStore } from './memory-bundle-store';
import { newestFirst, type BundleStore } from './ports';

/** At most this many bytes of bundles are kept in memory; the oldest of them go first. */
export const MEMORY_MAX_BUNDLE_BYTES = 128 * 1024 * 1024;

/**
 * A `BundleStore` that keeps a bundle elsewhere when the persistent store has no room for it
 * (IndexedDB out of quota): first in the `overflow` store, which outlives the worker
 * (`chrome.storage.local` in production), else in memory. Either way the failure's bundle is still
 * listed, exported, viewed, downloaded and delivered; one in memory is lost if the service worker
 * stops (or when the bundles in memory pass `MEMORY_MAX_BUNDLE_BYTES`). Retention counts it with the
 * others, and deleting old bundles is what frees the disk. A download id the store has no room for is
 * kept in memory as well.
 * @example const bundles = new SpillBundleStore(new IdbBundleStore(), (e) => log(`bundle kept in memory: ${e}`));
 */
export class SpillBundleStore implements BundleStore {
  /** Download ids of stored bundles the store had no room to record. */
  private readonly downloadIds = new Map<string, number>();

  constructor(
    private readonly store: BundleStore,
    /** Told where a refused bundle went: `overflow` (it outlives the worker) or `memory` (it does not). */
    private readonly onSpill: (error: unknown, where: 'overflow' | 'memory') => void,
    private readonly memory = new MemoryBundleStore(),
    private readonly overflow: BundleStore | null = null,
  ) {}

  async save(summary: BundleSummary, zip: Uint8Array): Promise<void> {
    try {
      await this.store.save(summary, zip);
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      if (this.overflow && (await this.overflow.save(summary, zip).then(() => true, () => false))) return this.onSpill(error, 'overflow');
      this.onSpill(error, 'memory');
      await this.memory.save(summary, zip);
      await this.capMemory();
    }
  }

  async list(): Promise<BundleSummary[]> {
    const [stored, overflow, inMemory] = await Promise.all([this.store.list(), this.overflowList(), this.memory.list()]);
    const withIds = stored.map((s) => (this.downloadIds.has(s.id) ? { ...s, downloadId: this.downloadIds.get(s.id)! } : s));
    return [...withIds, ...overflow, ...inMemory].sort(newestFirst);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    return (await this.memory.read(id)) ?? (await this.overflow?.read(id).catch(() => undefined)) ?? this.store.read(id);
  }

  async delete(id: string): Promise<boolean> {
    this.downloadIds.delete(id);
    if (await this.memory.delete(id)) return true;
    if (this.overflow && (await this.overflow.delete(id).catch(() => false))) return true;
    return this.store.delete(id);
  }

  private async overflowList(): Promise<BundleSummary[]> {
    return this.overflow ? this.overflow.list().catch(() => []) : [];
  }

  /** Whether the bundle is kept in memory only: a stopped worker loses it. */
  isInMemory(id: string): boolean {
    return this.memory.rows.has(id);
  }

  async setDownloadId(id: string, downloadId: number): Promise<void> {
    if (this.memory.rows.has(id)) return this.memory.setDownloadId(id, downloadId);
    if ((await this.overflowList()).some((s) => s.id === id)) return this.overflow!.setDownloadId(id, downloadId);
    try {
      await this.store.setDownloadId(id, downloadId);
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      this.downloadIds.set(id, downloadId);
    }
  }

  private async capMemory(): Promise<void> {
    const rows = (await this.memory.list()).reverse(); // oldest first
    let bytes = rows.reduce((sum, r) => sum + r.sizeBytes, 0);
    for (const row of rows) {
      if (bytes <= MEMORY_MAX_BUNDLE_BYTES) break;
      await this.memory.delete(row.id);
      bytes -= row.sizeBytes;
    }
  }
}
