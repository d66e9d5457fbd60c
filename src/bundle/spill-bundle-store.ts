import type { BundleSummary } from '../../schemas/api';
import { isQuotaExceeded } from '../ring/frame-ring';
import { MemoryBundleStore } from './memory-bundle-store';
import { newestFirst, type BundleStore } from './ports';

/**
 * A `BundleStore` that keeps a bundle in memory when the persistent store has no room for it
 * (IndexedDB out of quota): the failure's bundle is still listed, exported and downloaded, and is
 * lost only if the service worker stops. Retention counts it with the others, and deleting old
 * bundles is what frees the disk.
 * @example const bundles = new SpillBundleStore(new IdbBundleStore(), (e) => log(`bundle kept in memory: ${e}`));
 */
export class SpillBundleStore implements BundleStore {
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
    }
  }

  async list(): Promise<BundleSummary[]> {
    const [stored, inMemory] = await Promise.all([this.store.list(), this.memory.list()]);
    return [...stored, ...inMemory].sort(newestFirst);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    return (await this.memory.read(id)) ?? this.store.read(id);
  }

  async delete(id: string): Promise<boolean> {
    if (await this.memory.delete(id)) return true;
    return this.store.delete(id);
  }

  async setDownloadId(id: string, downloadId: number): Promise<void> {
    if (this.memory.rows.has(id)) return this.memory.setDownloadId(id, downloadId);
    return this.store.setDownloadId(id, downloadId);
  }
}
