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

interface GroupState {
  inWindow: number;
  previous: number;
  earlier: boolean;
  head: TriageRecord | null;
  firstSeen: number;
  agents: Set<string>;
  agentVersions: Set<string>;
  pages: Set<string>;
  /** The newest few in the window, newest first. */
  newest: TriageRecord[];
  histogram: number[];
}

/** Newer first; at one time, the greater id first (so the order never depends on arrival). */
const newerFirst = (a: TriageRecord, b: TriageRecord) => b.at - a.at || b.bundleId.localeCompare(a.bundleId);

/**
 * Folds failures one at a time into their groups: memory grows with the groups (a few sets and the
 * newest few records each), not with the failures, so 100,000 index objects stream through it.
 * `records` may hold failures from before `since`: those of the window of the same length before it
 * are the baseline of `trend`; any earlier one makes a group not new.
 */
export class FailureGroupFolder {
  private readonly byFingerprint = new Map<string, GroupState>();
  private readonly length: number;
  private readonly bucketCount: number;
  private readonly keep: number;

  constructor(private readonly window: TriageWindow) {
    this.length = Math.max(1, window.until - window.since);
    this.bucketCount = window.buckets ?? 24;
    this.keep = window.newest ?? 3;
  }

  add(record: TriageRecord): void {
    const { since, until } = this.window;
    if (record.at > until) return;
    let state = this.byFingerprint.get(record.fingerprint);
    if (!state) {
      state = { inWindow: 0, previous: 0, earlier: false, head: null, firstSeen: Infinity, agents: new Set(), agentVersions: new Set(), pages: new Set(), newest: [], histogram: new Array<number>(this.bucketCount).fill(0) };
      this.byFingerprint.set(record.fingerprint, state);
    }
    if (record.at < since) {
      state.earlier = true;
      if (record.at >= since - this.length) state.previous++;
      return;
    }
    state.inWindow++;
    state.firstSeen = Math.min(state.firstSeen, record.at);
    if (record.agent !== null) state.agents.add(record.agent);
    if (record.agentVersion !== null) state.agentVersions.add(`${record.agent ?? '-'}@${record.agentVersion}`);
    if (record.page !== null) state.pages.add(record.page);
    state.histogram[Math.min(this.bucketCount - 1, Math.floor(((record.at - since) / this.length) * this.bucketCount))]!++;
    if (state.newest.length < this.keep || newerFirst(record, state.newest[state.newest.length - 1]!) < 0) {
      state.newest = [...state.newest, record].sort(newerFirst).slice(0, Math.max(1, this.keep));
    }
    state.head = state.newest[0]!;
  }

  /** The groups of the window, biggest first (then newest). */
  groups(): FailureGroup[] {
    const groups: FailureGroup[] = [];
    for (const [fingerprint, state] of this.byFingerprint) {
      if (state.inWindow === 0 || !state.head) continue;
      const { inWindow: count, previous } = state;
      const trend = !state.earlier ? 'new' : count >= previous + GROWTH_MIN && count >= previous * GROWTH_RATIO ? 'growing' : 'steady';
      groups.push({
        fingerprint,
        signature: state.head.signature,
        reason: state.head.reason,
        count,
        previous,
        firstSeen: state.firstSeen,
        lastSeen: state.head.at,
        agents: sortedDistinct(state.agents),
        agentVersions: sortedDistinct(state.agentVersions),
        pages: sortedDistinct(state.pages),
        newest: state.newest.slice(0, this.keep).map((r) => r.location),
        trend,
        histogram: [...state.histogram],
      });
    }
    return groups.sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen || a.fingerprint.localeCompare(b.fingerprint));
  }
}

/** The groups of the failures in `[since, until]`, biggest first (then newest): `FailureGroupFolder` over a list. */
export function groupFailures(records: readonly TriageRecord[], window: TriageWindow): FailureGroup[] {
  const folder = new FailureGroupFolder(window);
  for (const record of records) folder.add(record);
  return folder.groups();
}
