import type { BundleSummary } from '../../schemas/api';
import { newestFirst, type BundleStore } from './ports';

/** In-memory `BundleStore` for tests. */
export class MemoryBundleStore implements BundleStore {
  readonly rows = new Map<string, { summary: BundleSummary; zip: Uint8Array }>();

  async save(summary: BundleSummary, zip: Uint8Array): Promise<void> {
    this.rows.set(summary.id, { summary: { ...summary }, zip });
  }
  async list(): Promise<BundleSummary[]> {
    return [...this.rows.values()].map((r) => r.summary).sort(newestFirst);
  }
  async read(id: string): Promise<Uint8Array | undefined> {
    return this.rows.get(id)?.zip;
  }
  async delete(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
  async setDownloadId(id: string, downloadId: number): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.summary.downloadId = downloadId;
  }
}
