import type { BundleSummary } from '../../schemas/api';
import { newestFirst, type BundleStore } from '../bundle/ports';
import { openRecorderDb } from './db';

/** `BundleStore` over IndexedDB: summaries in `bundles`, zip bytes in `bundleData`. */
export class IdbBundleStore implements BundleStore {
  async save(summary: BundleSummary, zip: Uint8Array): Promise<void> {
    const tx = (await openRecorderDb()).transaction(['bundles', 'bundleData'], 'readwrite');
    await Promise.all([
      tx.objectStore('bundles').put(summary),
      tx.objectStore('bundleData').put({ id: summary.id, zip: zip.slice().buffer }),
      tx.done,
    ]);
  }

  async list(): Promise<BundleSummary[]> {
    const rows = await (await openRecorderDb()).getAll('bundles');
    return rows.sort(newestFirst);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    const row = await (await openRecorderDb()).get('bundleData', id);
    return row ? new Uint8Array(row.zip) : undefined;
  }

  async delete(id: string): Promise<boolean> {
    const tx = (await openRecorderDb()).transaction(['bundles', 'bundleData'], 'readwrite');
    const existed = (await tx.objectStore('bundles').getKey(id)) !== undefined;
    await Promise.all([tx.objectStore('bundles').delete(id), tx.objectStore('bundleData').delete(id), tx.done]);
    return existed;
  }

  async setDownloadId(id: string, downloadId: number): Promise<void> {
    const tx = (await openRecorderDb()).transaction('bundles', 'readwrite');
    const row = await tx.store.get(id);
    if (row) await tx.store.put({ ...row, downloadId });
    await tx.done;
  }
}
