import type { BundleSummary } from '../../schemas/api';
import type { DownloadBundle } from '../bundle/download-sink';
import type { BundleStore } from '../bundle/ports';
import { bytesToBase64 } from '../shared/base64';
import { checkBundleId, RecorderInputError } from './input-checks';

/**
 * The stored bundles as the automation API and the operator pages reach them: every id a caller
 * gives is checked before it reaches the store.
 */
export class StoredBundles {
  constructor(
    private readonly bundles: BundleStore,
    private readonly download: DownloadBundle,
  ) {}

  /** Newest first. */
  list(): Promise<BundleSummary[]> {
    return this.bundles.list();
  }

  /** The bundle zip as base64. */
  async export(id: unknown): Promise<string> {
    const zip = await this.bundles.read(checkBundleId(id));
    if (!zip) throw new RecorderInputError(`no bundle with id ${String(id)}`);
    return bytesToBase64(zip);
  }

  /** Resolves to whether there was such a bundle. */
  async delete(id: unknown): Promise<boolean> {
    return this.bundles.delete(checkBundleId(id));
  }

  /** Saves a stored bundle to the downloads folder; resolves to the download id. */
  async saveToDownloads(id: unknown): Promise<number> {
    const bundleId = checkBundleId(id);
    const zip = await this.bundles.read(bundleId);
    if (!zip) throw new RecorderInputError(`no bundle with id ${bundleId}`);
    const downloadId = await this.download(bundleId, zip);
    await this.bundles.setDownloadId(bundleId, downloadId);
    return downloadId;
  }
}
