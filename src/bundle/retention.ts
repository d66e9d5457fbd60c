import type { BundleSummary } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import type { BundleStore } from './ports';
import { newestFirst } from './ports';

export interface RetentionPolicy {
  maxCount: number;
  maxBytes: number;
  maxAgeMs: number;
}

/**
 * Ids of the stored bundles to delete: the oldest past `maxCount`, past `maxBytes` in total, or older
 * than `maxAgeMs`. The newest bundle is always kept, whatever its size or age: it is the one a person
 * is most likely to be looking for.
 */
export function selectExpiredBundles(bundles: readonly BundleSummary[], now: number, policy: RetentionPolicy): string[] {
  const ordered = [...bundles].sort(newestFirst);
  let bytes = 0;
  return ordered
    .filter((b, i) => {
      bytes += b.sizeBytes;
      if (i === 0) return false;
      return i >= policy.maxCount || bytes > policy.maxBytes || now - Date.parse(b.createdAt) > policy.maxAgeMs;
    })
    .map((b) => b.id);
}

/** Deletes what the policy no longer allows; returns the deleted ids. */
export async function enforceRetention(store: BundleStore, now: number, policy: RetentionPolicy): Promise<string[]> {
  const expired = selectExpiredBundles(await store.list(), now, policy);
  for (const id of expired) await store.delete(id);
  return expired;
}

/** The retention settings as a policy. */
export const retentionPolicy = (s: Settings): RetentionPolicy => ({ maxCount: s.maxStoredBundles, maxBytes: s.maxStoredBundleBytes, maxAgeMs: s.bundleRetentionDays * 86_400_000 });
