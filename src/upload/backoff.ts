/** When a bundle that failed to go out is tried again: exponential backoff with full jitter. */
export interface BackoffPolicy {
  /** The first retry's ceiling (ms). */
  baseMs: number;
  /** No wait is longer than this (ms), however many attempts failed. */
  capMs: number;
  /** No wait is shorter than this (ms). */
  floorMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 10 * 60_000, floorMs: 500 };

/**
 * The wait before attempt `failures + 1`, after `failures` failed ones: a random point below
 * `base · 2^(failures-1)` capped at `cap` ("full jitter", so a fleet that lost its store at the same
 * moment does not come back in step).
 */
export function retryDelayMs(failures: number, random: () => number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)));
  return Math.max(policy.floorMs, Math.round(random() * ceiling));
}
