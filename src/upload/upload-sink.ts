import type { Clock } from '../shared/clock';
import type { BundleSink } from '../bundle/ports';
import { objectKeys } from '../bundle-format/bucket-layout';
import { newEntry } from './outbox';
import type { OutboxStore } from './ports';

export interface UploadSinkOptions {
  outbox: OutboxStore;
  clock: Clock;
  /** Whether the bundle store could keep the bundle only in memory (IndexedDB refused it). */
  inMemoryOnly?(bundleId: string): boolean;
  /** Starts a delivery pass (not awaited: the bundle is stored and queued; the store may be slow). */
  kick(): void;
}

/**
 * After a bundle is stored: queue it in the durable outbox (its keys fixed now), or mark it `skipped`
 * when the settings keep passing runs home, then start a delivery pass. Nothing here reads the zip:
 * the sinks run before the agent hears its bundle is stored, and hashing a large zip (and reading its
 * manifest for the index object) is the delivery's work, done once, off that path.
 */
export function uploadSink(options: UploadSinkOptions): BundleSink {
  return {
    name: 'upload',
    async afterStore({ summary, zip }, { settings, status }) {
      const upload = settings.upload;
      if (upload.mode === 'off') return;
      const keys = objectKeys(upload.mode === 's3' ? upload.s3.prefix : '', summary.id, summary.createdAt);
      const skip = upload.include === 'failures' && status === 'success';
      const memoryOnly = options.inMemoryOnly?.(summary.id) ?? false;
      await options.outbox.put(newEntry({ id: summary.id, sizeBytes: zip.byteLength }, keys, options.clock.now(), skip, memoryOnly));
      if (!skip) options.kick();
    },
  };
}
