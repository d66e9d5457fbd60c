import type { OutboxEntry, UploadState } from '../../schemas/upload';
import type { ObjectKeys } from '../bundle-format/bucket-layout';

/**
 * A new entry for a bundle stored just now: due at once, or `skipped` when the settings leave it home.
 * Its checksum and index object are left to the delivery, which reads the zip anyway.
 */
export function newEntry(bundle: { id: string; sizeBytes: number }, keys: ObjectKeys, now: number, skip: boolean, memoryOnly = false): OutboxEntry {
  return {
    bundleId: bundle.id,
    state: skip ? 'skipped' : 'pending',
    zipKey: keys.zip,
    indexKey: keys.index,
    sizeBytes: bundle.sizeBytes,
    sha256: null,
    index: null,
    ...(memoryOnly ? { memoryOnly } : {}),
    zipDelivered: false,
    multipart: null,
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    failedWith: null,
    enqueuedAt: now,
    deliveredAt: null,
  };
}

/**
 * Whether an entry is to be tried now. An entry left `uploading` was cut off (the worker stopped): it
 * resumes. A `failed` one waits for other delivery settings than those it failed with.
 */
export function isDue(entry: OutboxEntry, now: number, settingsKey: string): boolean {
  if (entry.state === 'failed') return entry.failedWith !== settingsKey;
  if (entry.state === 'pending') return entry.nextAttemptAt <= now;
  return entry.state === 'uploading';
}

/** Not delivered yet, and not left home on purpose: what local retention must keep. */
export function awaitsDelivery(entry: OutboxEntry | undefined): boolean {
  return entry !== undefined && (entry.state === 'pending' || entry.state === 'uploading' || entry.state === 'failed');
}

/** Counts by state, for `status().upload`. */
export function countStates(entries: readonly OutboxEntry[]): Record<UploadState, number> {
  const counts: Record<UploadState, number> = { pending: 0, uploading: 0, delivered: 0, failed: 0, skipped: 0 };
  for (const entry of entries) counts[entry.state]++;
  return counts;
}
