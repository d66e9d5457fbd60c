import type { BundleUpload, OutboxEntry, UploadSettings, UploadStatus } from '../../schemas/upload';
import { countStates } from './outbox';

export function uploadStatus(entries: readonly OutboxEntry[], mode: UploadSettings['mode'], managed: boolean, heldByRetention: number, memoryOnly = 0): UploadStatus {
  const counts = countStates(entries);
  const byTime = [...entries].sort((a, b) => (b.deliveredAt ?? b.enqueuedAt) - (a.deliveredAt ?? a.enqueuedAt));
  const lastError = byTime.find((e) => e.lastError !== null && e.state !== 'delivered')?.lastError ?? null;
  const delivered = byTime.find((e) => e.deliveredAt !== null)?.deliveredAt ?? null;
  return {
    mode,
    queued: counts.pending,
    uploading: counts.uploading,
    delivered: counts.delivered,
    failed: counts.failed,
    skipped: counts.skipped,
    lastError,
    lastDeliveredAt: delivered === null ? null : new Date(delivered).toISOString(),
    managed,
    heldByRetention,
    memoryOnly,
  };
}

export function bundleUpload(entry: OutboxEntry): BundleUpload {
  return {
    state: entry.state,
    ...(entry.state === 'delivered' ? { key: entry.zipKey } : {}),
    attempts: entry.attempts,
    ...(entry.lastError !== null && entry.state !== 'delivered' ? { lastError: entry.lastError } : {}),
  };
}
