import type { BundleSummary } from '../../schemas/api';
import type { DownloadBundle } from '../bundle/download-sink';
import type { BundleStore } from '../bundle/ports';
import { bytesToBase64 } from '../shared/base64';
import { checkBundleId, RecorderInputError } from './input-checks';
import type { DeliveryView } from './ports';

/**
 * The stored bundles as the automation API and the operator pages reach them: every id a caller
 * gives is checked before it reaches the store.
 */
export class StoredBundles {
  constructor(
    private readonly bundles: BundleStore,
    private readonly download: DownloadBundle,
    private readonly delivery?: Pick<DeliveryView, 'states'>,
  ) {}

  /** Newest first; with delivery wired, each with its delivery state. */
  async list(): Promise<BundleSummary[]> {
    const [bundles, states] = await Promise.all([this.bundles.list(), this.delivery?.states()]);
    if (!states) return bundles;
    return bundles.map((b) => {
      const upload = states.get(b.id);
      return upload ? { ...b, upload } : b;
    });
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
