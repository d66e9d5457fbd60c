/** The two objects of a delivered bundle: the zip, and the index object written after it. */
export interface ObjectKeys {
  zip: string;
  index: string;
}

/**
 * The prefix as keys use it: no leading, trailing or doubled slashes. A prefix that would climb out of
 * itself (`..`) or holds control characters is refused: keys are deterministic so a retry never makes a
 * second copy, and they must say the same thing to every tool that lists the bucket.
 */
export function normalizePrefix(prefix: string): string {
  const parts = prefix.split('/').filter((part) => part !== '');
  for (const part of parts) {
    if (part === '.' || part === '..') throw new Error(`upload prefix "${prefix}" may not hold "${part}" as a part`);
    if (/[\p{Cc}\\]/u.test(part)) throw new Error(`upload prefix "${prefix}" may not hold control characters or backslashes`);
  }
  return parts.join('/');
}

/**
 * `<prefix>/bundles/<yyyy>/<mm>/<dd>/<bundleId>.zip` and `<prefix>/index/<yyyy>/<mm>/<dd>/<bundleId>.json`,
 * dated by the bundle's creation (UTC), so a day of a fleet's failures is one listing.
 */
export function objectKeys(prefix: string, bundleId: string, createdAt: string): ObjectKeys {
  if (!/^[A-Za-z0-9._-]+$/.test(bundleId)) throw new Error(`bundle id "${bundleId}" cannot name an object`);
  const created = new Date(createdAt);
  if (Number.isNaN(created.getTime())) throw new Error(`bundle ${bundleId} has no valid creation time ("${createdAt}")`);
  const day = created.toISOString().slice(0, 10).replaceAll('-', '/');
  const root = normalizePrefix(prefix);
  const under = (folder: string) => (root ? `${root}/${folder}` : folder);
  return { zip: `${under('bundles')}/${day}/${bundleId}.zip`, index: `${under('index')}/${day}/${bundleId}.json` };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `<prefix>/index/<yyyy>/<mm>/<dd>/` for each UTC day from `since` to `until`, oldest first: what a reader lists. */
export function indexDayPrefixes(prefix: string, since: number, until: number): string[] {
  const root = normalizePrefix(prefix);
  const days: string[] = [];
  for (let day = Math.floor(since / DAY_MS) * DAY_MS; day <= until; day += DAY_MS) {
    const date = new Date(day).toISOString().slice(0, 10).replaceAll('-', '/');
    days.push(`${root ? `${root}/` : ''}index/${date}/`);
  }
  return days;
}

/**
 * The keys a bundle may have been delivered under, most likely first: a bundle id names its failure's
 * second (`afr-20261122T143205Z-…`) and it is stored moments later, on that day or, past midnight, the next.
 */
export function candidateKeys(prefix: string, bundleId: string): ObjectKeys[] {
  const match = /^afr-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[a-z0-9]{6}$/.exec(bundleId);
  if (!match) throw new Error(`"${bundleId}" is not a bundle id (afr-YYYYMMDDTHHMMSSZ-xxxxxx)`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const failedAt = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  return [failedAt, failedAt + DAY_MS].map((at) => objectKeys(prefix, bundleId, new Date(at).toISOString()));
}
