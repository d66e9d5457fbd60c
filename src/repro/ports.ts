import type { HarFile } from '../../schemas/network';

/*
 * What `afr repro` reads from a bundle and what it needs to replay one. The plan, the script writers and
 * the runner are plain functions over these shapes; the command line reads the zip into a `ReproSource`
 * and drives the browser behind `ReplayDriver` (`cli/repro-browser.ts`).
 */

/** The element a step acted on, as `steps.json` describes it (text already masked by the recorder). */
export interface ReproTarget {
  tag: string;
  role?: string;
  name?: string;
  selector: string;
}

/** One step of `steps.json`, as far as a replay needs it. */
export interface ReproStep {
  ts: number;
  url?: string | null;
  source: string;
  kind: string;
  action: string;
  target: ReproTarget | string | null;
  value: string | null;
  value_redacted: boolean;
  label: string | null;
  goal?: string;
  synthetic?: boolean;
}

/** The failure as `diagnostics.json` (else `manifest.json`) gives it. */
export interface ReproFailure {
  kind: string;
  label: string | null;
  message: string | null;
  ts: number;
  http_status: number | null;
  request: { url: string; method: string | null; status: number | null } | null;
}

/** Everything of a bundle a reproduction is made from; what the bundle lacks is null. */
export interface ReproSource {
  bundleId: string;
  steps: readonly ReproStep[];
  failure: ReproFailure | null;
  /** The page's layout viewport (CSS px), from the frames or the snapshot. */
  viewport: { width: number; height: number } | null;
  har: HarFile | null;
  /** Whether the bundle holds the DOM timeline (its steps' pages), for the note on what is missing. */
  hasTimeline: boolean;
}

/** Something the page did during a replay that a failure may be (`expectation.ts` matches them). */
export type ObservedSignal =
  | { kind: 'response'; method: string; url: string; status: number }
  | { kind: 'request_failed'; method: string; url: string; error: string }
  | { kind: 'exception'; message: string }
  | { kind: 'console_error'; message: string }
  | { kind: 'crash' };
