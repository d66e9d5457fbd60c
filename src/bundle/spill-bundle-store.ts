import type { BundleSummary } from '../../schemas/api';
import { isQuotaExceeded } from '../ring/frame-ring';
import { MemoryBundleStore } from './memory-bundle-store';
import { newestFirst, type BundleStore } from './ports';

/** At most this many bytes of bundles are kept in memory; the oldest of them go first. */
export const MEMORY_MAX_BUNDLE_BYTES = 128 * 1024 * 1024;

/**
 * A `BundleStore` that keeps a bundle in memory when the persistent store has no room for it
 * (IndexedDB out of quota): the failure's bundle is still listed, exported, viewed and downloaded,
 * and is lost only if the service worker stops (or when the bundles in memory pass
 * `MEMORY_MAX_BUNDLE_BYTES`). Retention counts it with the others, and deleting old bundles is what
 * frees the disk. A download id the store has no room for is kept in memory as well.
 * @example const bundles = new SpillBundleStore(new IdbBundleStore(), (e) => log(`bundle kept in memory: ${e}`));
 */
export class SpillBundleStore implements BundleStore {
  /** Download ids of stored bundles the store had no room to record. */
  private readonly downloadIds = new Map<string, number>();

  constructor(
    private readonly store: BundleStore,
    private readonly onSpill: (error: unknown) => void,
    private readonly memory = new MemoryBundleStore(),
  ) {}

  async save(summary: BundleSummary, zip: Uint8Array): Promise<void> {
    try {
      await this.store.save(summary, zip);
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      this.onSpill(error);
      await this.memory.save(summary, zip);
      await this.capMemory();
    }
  }

  async list(): Promise<BundleSummary[]> {
    const [stored, inMemory] = await Promise.all([this.store.list(), this.memory.list()]);
    const withIds = stored.map((s) => (this.downloadIds.has(s.id) ? { ...s, downloadId: this.downloadIds.get(s.id)! } : s));
    return [...withIds, ...inMemory].sort(newestFirst);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    return (await this.memory.read(id)) ?? this.store.read(id);
  }

  async delete(id: string): Promise<boolean> {
    this.downloadIds.delete(id);
    if (await this.memory.delete(id)) return true;
    return this.store.delete(id);
  }

  /** Whether the bundle is kept in memory only: a stopped worker loses it. */
  isInMemory(id: string): boolean {
    return this.memory.rows.has(id);
  }

  async setDownloadId(id: string, downloadId: number): Promise<void> {
    if (this.memory.rows.has(id)) return this.memory.setDownloadId(id, downloadId);
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
