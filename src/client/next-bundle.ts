import type { BundleSummary, BundleTrigger } from './types';

/** Bundle ids: `afr-20261122T143904Z-avyj8w`. */
const BUNDLE_ID = /^afr-\d{8}T\d{6}Z-[a-z0-9]{6}$/;

/** What a wait looks for, as the service worker's `afr.waitForBundle` takes it. */
export interface BundleQuery {
  since: number | string;
  reason?: string;
  trigger?: BundleTrigger;
}

/**
 * The first bundle (the oldest) of `bundles` after `since` with the query's reason and trigger, or
 * null: the same choice as the service worker's `afr.waitForBundle`, for recorders without it.
 * Throws when `since` is neither a time nor the id of a listed bundle.
 */
export function nextBundle(bundles: readonly BundleSummary[], { since, reason, trigger }: BundleQuery): BundleSummary | null {
  let after: (b: BundleSummary) => boolean;
  if (typeof since === 'string' && BUNDLE_ID.test(since)) {
    const start = bundles.find((b) => b.id === since);
    if (!start) throw new Error(`since: no stored bundle with id ${since}`);
    after = (b) => b.createdAt > start.createdAt || (b.createdAt === start.createdAt && b.id > start.id);
  } else {
    const ms = typeof since === 'number' ? since : Date.parse(since);
    if (!Number.isFinite(ms) || !Number.isFinite(new Date(ms).getTime())) throw new Error(`since: ${JSON.stringify(since)} is neither a time nor a bundle id`);
    const createdAt = new Date(ms).toISOString();
    after = (b) => b.createdAt >= createdAt;
  }
  const matching = bundles.filter((b) => after(b) && (reason === undefined || b.reason === reason) && (trigger === undefined || b.trigger === trigger));
  // Oldest first: by creation time, then by id (ids start with the failure's UTC second).
  matching.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return matching[0] ?? null;
}

/** `since` as the service worker takes it: ms since the epoch, or the string as given. */
export function sinceValue(since: Date | number | string): number | string {
  if (since instanceof Date) {
    if (Number.isNaN(since.getTime())) throw new Error('since: Invalid Date');
    return since.getTime();
  }
  return since;
}
