/*
 * Many failures, a few causes: records of one fingerprint form a group, and groups are read biggest
 * first with what a person triaging asks next (since when, how often lately, which agents and pages,
 * which bundles to open). A group is `new` when it has no failure before the window, `growing` when
 * the window has clearly more of it than the window of the same length before.
 */

/** One failure as triage reads it (from an index object or a bundle's manifest). */
export interface TriageRecord {
  bundleId: string;
  fingerprint: string;
  /** The signature's readable line. */
  signature: string;
  reason: string;
  agent: string | null;
  agentVersion: string | null;
  /** The page's URL template. */
  page: string | null;
  /** When it failed (ms since the epoch). */
  at: number;
  /** Where to get the bundle: its zip key in the bucket, or its file. */
  location: string;
}

export interface FailureGroup {
  fingerprint: string;
  signature: string;
  reason: string;
  count: number;
  /** Failures of the group in the window of the same length before this one. */
  previous: number;
  firstSeen: number;
  lastSeen: number;
  agents: string[];
  agentVersions: string[];
  pages: string[];
  /** The newest bundles' locations, newest first. */
  newest: string[];
  trend: 'new' | 'growing' | 'steady';
  /** Failures per bucket of the window (oldest first), for a chart. */
  histogram: number[];
}

export interface TriageWindow {
  since: number;
  until: number;
  /** Buckets of the histogram. */
  buckets?: number;
  /** Bundles named per group. */
  newest?: number;
}

/** A group grows when it has at least this many more failures than before, and half as many again. */
const GROWTH_MIN = 2;
const GROWTH_RATIO = 1.5;

const sortedDistinct = (values: Iterable<string | null>): string[] => [...new Set([...values].filter((v): v is string => v !== null))].sort();

/**
 * The groups of the failures in `[since, until]`, biggest first (then newest). `records` may hold
 * failures from before `since`: those of the window of the same length before it are the baseline of
 * `trend`; any earlier one makes a group not new.
 */
export function groupFailures(records: readonly TriageRecord[], window: TriageWindow): FailureGroup[] {
  const { since, until } = window;
  const length = Math.max(1, until - since);
  const bucketCount = window.buckets ?? 24;
  const byFingerprint = new Map<string, { inWindow: TriageRecord[]; previous: number; earlier: boolean }>();
  for (const record of records) {
    if (record.at > until) continue;
    const entry = byFingerprint.get(record.fingerprint) ?? { inWindow: [], previous: 0, earlier: false };
    byFingerprint.set(record.fingerprint, entry);
    if (record.at >= since) entry.inWindow.push(record);
    else {
      entry.earlier = true;
      if (record.at >= since - length) entry.previous++;
    }
  }
  const groups: FailureGroup[] = [];
  for (const [fingerprint, { inWindow, previous, earlier }] of byFingerprint) {
    if (inWindow.length === 0) continue;
    const newestFirst = [...inWindow].sort((a, b) => b.at - a.at || b.bundleId.localeCompare(a.bundleId));
    const histogram = new Array<number>(bucketCount).fill(0);
    for (const r of inWindow) histogram[Math.min(bucketCount - 1, Math.floor(((r.at - since) / length) * bucketCount))]!++;
    const count = inWindow.length;
    const trend = !earlier ? 'new' : count >= previous + GROWTH_MIN && count >= previous * GROWTH_RATIO ? 'growing' : 'steady';
    const head = newestFirst[0]!;
    groups.push({
      fingerprint,
      signature: head.signature,
      reason: head.reason,
      count,
      previous,
      firstSeen: newestFirst[newestFirst.length - 1]!.at,
      lastSeen: head.at,
      agents: sortedDistinct(inWindow.map((r) => r.agent)),
      agentVersions: sortedDistinct(inWindow.map((r) => (r.agentVersion === null ? null : `${r.agent ?? '-'}@${r.agentVersion}`))),
      pages: sortedDistinct(inWindow.map((r) => r.page)),
      newest: newestFirst.slice(0, window.newest ?? 3).map((r) => r.location),
      trend,
      histogram,
    });
  }
  return groups.sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen || a.fingerprint.localeCompare(b.fingerprint));
}
