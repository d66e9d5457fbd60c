import type { UploadIndexRecord } from '../../schemas/upload';

/** What the index object counts of a bundle's traffic. */
export type NetworkCounts = Pick<UploadIndexRecord, 'requests' | 'failed_requests' | 'app_errors'>;

type Loose = Record<string, unknown>;
const asRecord = (v: unknown): Loose | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : null);
const listAt = (v: unknown, ...path: string[]): unknown[] => {
  let at: unknown = v;
  for (const key of path) at = asRecord(at)?.[key];
  return Array.isArray(at) ? at : [];
};

/**
 * Whether a `network.har` entry failed: a 4xx or 5xx answer, or no answer (`_error`) other than a
 * request the page itself gave up (cancelled, `net::ERR_ABORTED`), as the failure signals count them.
 */
function failed(entry: unknown): boolean {
  const e = asRecord(entry);
  const status = asRecord(e?.response)?.status;
  if (typeof status === 'number' && status >= 400) return true;
  const error = e?._error;
  return typeof error === 'string' && !error.endsWith('(canceled)') && !error.includes('net::ERR_ABORTED');
}

/**
 * The counts of a bundle's `network.har` (its requests, and the failed ones) and `steps.json` (its
 * `app_error` steps), each parsed JSON or null when the bundle has no such file: a count of a file the
 * bundle lacks is left out, never a guess. Read loosely: a fleet index is no place to refuse a bundle.
 */
export function networkCounts(har: unknown, steps: unknown): NetworkCounts {
  const entries = har === null ? null : listAt(har, 'log', 'entries');
  const appErrors = steps === null ? null : listAt(steps, 'steps').filter((s) => asRecord(asRecord(s)?.detail)?.signal_kind === 'app_error').length;
  return {
    ...(entries ? { requests: entries.length, failed_requests: entries.filter(failed).length } : {}),
    ...(appErrors !== null ? { app_errors: appErrors } : {}),
  };
}
