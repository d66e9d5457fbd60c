import type { Clock } from '../shared/clock';
import type { BundleSink } from '../bundle/ports';
import { checksumsOf } from './checksums';
import { indexRecordOf, type Origin } from './index-record';
import { objectKeys } from '../bundle-format/bucket-layout';
import { newEntry } from './outbox';
import type { OutboxStore } from './ports';

export interface UploadSinkOptions {
  outbox: OutboxStore;
  origin(): Origin;
  clock: Clock;
  /** Starts a delivery pass (not awaited: the bundle is stored and queued; the store may be slow). */
  kick(): void;
}

/**
 * After a bundle is stored: queue it in the durable outbox (its keys, checksum and index object fixed
 * now), or mark it `skipped` when the settings keep passing runs home, then start a delivery pass.
 */
export function uploadSink(options: UploadSinkOptions): BundleSink {
  return {
    name: 'upload',
    async afterStore({ summary, zip }, { settings }) {
      const upload = settings.upload;
      if (upload.mode === 'off') return;
      const sums = await checksumsOf(zip);
      const keys = objectKeys(upload.mode === 's3' ? upload.s3.prefix : '', summary.id, summary.createdAt);
      const index = await indexRecordOf(summary, zip, sums.sha256Hex, keys.zip, options.origin());
      const skip = upload.include === 'failures' && index.status === 'success';
      await options.outbox.put(newEntry(index, keys, options.clock.now(), skip));
      if (!skip) options.kick();
    },
  };
}
