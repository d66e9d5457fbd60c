import type { BundleSummary } from '../../schemas/api';

/** Where finished bundles are kept (IndexedDB `bundles` + `bundleData` in production). */
export interface BundleStore {
  save(summary: BundleSummary, zip: Uint8Array): Promise<void>;
  /** Newest first. */
  list(): Promise<BundleSummary[]>;
  read(id: string): Promise<Uint8Array | undefined>;
  delete(id: string): Promise<boolean>;
  setDownloadId(id: string, downloadId: number): Promise<void>;
}

/** Newest first: by creation time (ms), then by id (ids start with the failure's UTC second). */
export function newestFirst(a: BundleSummary, b: BundleSummary): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
}
