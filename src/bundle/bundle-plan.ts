import { captureLevelAtLeast, type CaptureLevel } from '../../schemas/capture-level';
import type { FailureSignal } from '../../schemas/failure';
import type { Settings } from '../../schemas/settings';

/** What one bundle covers and holds, fixed before anything is read. */
export interface BundlePlan {
  bundleId: string;
  /** The failing tab, or null for a failure bound to none (then no frames, steps of no tab, no snapshot). */
  tabId: number | null;
  /** The buffer window: `bufferSeconds` before the signal up to the signal, or to now when packaging starts later. */
  windowStart: number;
  windowEnd: number;
  /** The DOM snapshot, `snapshot.json`, the diagnostics and the pages at the steps: capture level `trace` and up. */
  withSnapshot: boolean;
  /** Frames of the tab: capture level `screenshots` and up. */
  withFrames: boolean;
  /** The clip: capture level `video` and up, when `encodeClip` is on. */
  withClip: boolean;
}

/** The plan of the bundle of `signal`, packaged from `now` at capture level `level` under `settings`. */
export function bundlePlan(bundleId: string, signal: FailureSignal, settings: Pick<Settings, 'bufferSeconds' | 'encodeClip'>, level: CaptureLevel, now: number): BundlePlan {
  return {
    bundleId,
    tabId: signal.tab_id,
    windowStart: signal.ts - settings.bufferSeconds * 1000,
    windowEnd: Math.max(signal.ts, now),
    withSnapshot: captureLevelAtLeast(level, 'trace'),
    withFrames: captureLevelAtLeast(level, 'screenshots'),
    withClip: captureLevelAtLeast(level, 'video') && settings.encodeClip,
  };
}

/** The tab whose DOM snapshot the bundle takes, or why it takes none (the error `snapshot.json` gives). */
export type SnapshotTarget = { tabId: number } | { skipped: string };

/** Whose DOM snapshot to take: the failing tab's from capture level `trace` up, when the failure has a tab. */
export function snapshotTarget(plan: Pick<BundlePlan, 'withSnapshot' | 'tabId'>, level: CaptureLevel): SnapshotTarget {
  if (!plan.withSnapshot) return { skipped: `not taken at capture level ${level}` };
  if (plan.tabId === null) return { skipped: 'the failure is not bound to a tab' };
  return { tabId: plan.tabId };
}
