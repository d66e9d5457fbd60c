import type { BundleSummary } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import type { BundleHold, BundleStore } from './ports';
import { newestFirst } from './ports';
import { heldToPageRules } from './bundle-trigger';

export interface RetentionPolicy {
  maxCount: number;
  maxBytes: number;
  maxAgeMs: number;
}

/**
 * Ids of the stored bundles to delete, newest first. The bundles the agent, the operator or a signal
 * during the agent's run asked for are held to the policy by themselves: the oldest past `maxCount`,
 * past `maxBytes` in total, or older than `maxAgeMs`; the newest of them is always kept, whatever its
 * size or age (it is the one a person is most likely to be looking for). Bundles held to a page's rules
 * (a page's command, an unattended signal: `heldToPageRules`) get the room those leave, newest first,
 * and go first: a page can never have a bundle the agent or the operator asked for deleted to make room
 * for its own. With no other bundle, the newest page bundle is kept like the newest.
 */
export function selectExpiredBundles(bundles: readonly BundleSummary[], now: number, policy: RetentionPolicy): string[] {
  const ordered = [...bundles].sort(newestFirst);
  const tooOld = (b: BundleSummary) => now - Date.parse(b.createdAt) > policy.maxAgeMs;
  const expired = new Set<string>();
  const others = ordered.filter((b) => !heldToPageRules(b));
  let bytes = 0;
  others.forEach((b, i) => {
    bytes += b.sizeBytes;
    if (i > 0 && (i >= policy.maxCount || bytes > policy.maxBytes || tooOld(b))) expired.add(b.id);
  });
  const kept = others.filter((b) => !expired.has(b.id));
  let pageBytes = kept.reduce((sum, b) => sum + b.sizeBytes, 0);
  ordered
    .filter(heldToPageRules)
    .forEach((b, i) => {
      pageBytes += b.sizeBytes;
      if (i === 0 && others.length === 0) return;
      if (kept.length + i >= policy.maxCount || pageBytes > policy.maxBytes || tooOld(b)) expired.add(b.id);
    });
  return ordered.filter((b) => expired.has(b.id)).map((b) => b.id);
}

/**
 * Deletes what the policy no longer allows, except the bundles `hold` keeps (not delivered yet: they are
 * kept past the caps and `status().upload.heldByRetention` says so); returns the deleted ids.
 */
export async function enforceRetention(store: BundleStore, now: number, policy: RetentionPolicy, hold?: BundleHold): Promise<string[]> {
  const expired = selectExpiredBundles(await store.list(), now, policy);
  const held = hold && expired.length ? await hold.heldIds() : new Set<string>();
  const deleted = expired.filter((id) => !held.has(id));
  for (const id of deleted) await store.delete(id);
  return deleted;
}

/** The retention settings as a policy. */
export const retentionPolicy = (s: Settings): RetentionPolicy => ({ maxCount: s.maxStoredBundles, maxBytes: s.maxStoredBundleBytes, maxAgeMs: s.bundleRetentionDays * 86_400_000 });
