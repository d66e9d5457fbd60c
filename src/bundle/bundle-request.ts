import type { FailureSignal } from '../../schemas/failure';
import type { Settings } from '../../schemas/settings';
import type { CaptureLevel } from '../../schemas/capture-level';

/** What kind of bundle to write. */
export interface BundleOptions {
  /** `success` for a passing run bundled at `runEnd` (persistMode `always`). */
  status: 'failure' | 'success';
  /** What to include: frames from `screenshots`, the clip from `video`, snapshot from `trace`. */
  level: CaptureLevel;
  run: { runId: string; agent: string | null; agentVersion: string | null; task: string | null; startedAt: number } | null;
  outcome: 'passed' | 'failed' | null;
  /** A signal's bundle made while no agent run was active: held to a page's rules (`isUnattendedSignal`). */
  unattended?: boolean;
}

/** One bundle to make: the admitted signal, and what was fixed when it was admitted. */
export interface BundleRequest extends BundleOptions {
  signal: FailureSignal;
  /** Signals of the tab the failure gate dropped since its previous bundle. */
  suppressedBefore: number;
  /** The settings of the moment of the signal: the ring kept its window by them. */
  settings: Settings;
  /** The run the bundle belongs to: the declared run's id, else the browser session's. */
  runId: string;
}
