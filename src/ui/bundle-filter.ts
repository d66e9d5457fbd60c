import type { BundleSummary } from '../../schemas/api';

/** The library's filter: `''` or `null` leaves a criterion out. Dates are `YYYY-MM-DD` in local time, both ends included. */
export interface BundleFilter {
  reason: string | null;
  urlContains: string;
  from: string;
  to: string;
}

/** Shows every bundle. */
export const NO_FILTER: BundleFilter = { reason: null, urlContains: '', from: '', to: '' };

/** Local midnight of a `YYYY-MM-DD` date input value, plus `days`; null when empty or malformed. */
function localDay(date: string, days = 0): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days).getTime();
}

/** The bundles that pass every criterion of `filter`, in their original order. */
export function filterBundles(bundles: readonly BundleSummary[], filter: BundleFilter): BundleSummary[] {
  const needle = filter.urlContains.trim().toLowerCase();
  const from = localDay(filter.from);
  const until = localDay(filter.to, 1);
  return bundles.filter((b) => {
    if (filter.reason && b.reason !== filter.reason) return false;
    if (needle && !(b.url ?? '').toLowerCase().includes(needle)) return false;
    if (from === null && until === null) return true;
    const created = Date.parse(b.createdAt);
    if (Number.isNaN(created)) return false;
    return (from === null || created >= from) && (until === null || created < until);
  });
}

/** The distinct reasons, sorted: the options of the reason filter. */
export function bundleReasons(bundles: readonly BundleSummary[]): string[] {
  return [...new Set(bundles.map((b) => b.reason))].sort();
}

/** Total size of `bundles` in bytes. */
export function totalBytes(bundles: readonly BundleSummary[]): number {
  return bundles.reduce((sum, b) => sum + b.sizeBytes, 0);
}
