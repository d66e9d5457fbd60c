import type { OutboxEntry, UploadSettings, UploadState } from '../../schemas/upload';
import { countStates } from './outbox';

/** `status().upload`: how delivery stands, in counts and the last thing that went wrong. */
export interface UploadStatus {
  mode: UploadSettings['mode'];
  queued: number;
  uploading: number;
  delivered: number;
  failed: number;
  skipped: number;
  lastError: string | null;
  lastDeliveredAt: string | null;
  /** Whether the upload settings come from enterprise policy (read-only here). */
  managed: boolean;
  /** Bundles local retention keeps past its caps because they are not delivered yet. */
  heldByRetention: number;
}

/** A bundle's delivery, as `listBundles()` shows it beside the bundle. */
export interface BundleUpload {
  state: UploadState;
  key?: string;
  attempts: number;
  lastError?: string;
}

export function uploadStatus(entries: readonly OutboxEntry[], mode: UploadSettings['mode'], managed: boolean, heldByRetention: number): UploadStatus {
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
