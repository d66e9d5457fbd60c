import { DIAGNOSTICS_VERSION, type Diagnostics } from '../../schemas/diagnostics';
import type { FailureSignal } from '../../schemas/failure';
import type { HarCounts } from '../../schemas/network';
import type { SnapshotCaptureResult } from '../../schemas/messages';
import type { RedactionCounts } from '../../schemas/snapshot';
import type { Step } from '../../schemas/steps';
import type { CaptureStats } from '../capture/capture-loop';
import { captureRate } from './capture-rate';
import type { ClipOutcome } from './clip-outcome';
import { consoleErrors, failedRequests, pageMetrics, signalChain } from './diagnostics-report';

const EMPTY_REDACTION: RedactionCounts = { fields: {}, text: {} };

const iso = (ts: number) => new Date(ts).toISOString();

/** Everything `diagnostics.json` tells, as gathered while the bundle was packaged. */
export interface DiagnosticsInput {
  bundleId: string;
  signal: FailureSignal;
  /** Signals of the tab the failure gate dropped since its previous bundle. */
  suppressedBefore: number;
  /** The steps of the bundle (with the page at each, when it has them). */
  steps: readonly Step[];
  snapshot: SnapshotCaptureResult;
  /** Entries in `frames/` (identical frames in a row are one). */
  framesInBundle: number;
  /** When each of the window's captures was taken, oldest first (the one from before it, if any; identical ones too). */
  captureTimes: readonly number[];
  /** The window's bounds: the rate is over them (a frame from before the window counts from its start). */
  windowStart: number;
  windowEnd: number;
  capture: CaptureStats;
  /** The frames that show less than their page's viewport, when any do (`viewportCutsOf`). */
  viewportCut?: NonNullable<Diagnostics['capture']['viewport_cut']>;
  ring: { frames: number; bytes: number; evicted: number };
  otherTabs?: NonNullable<Diagnostics['other_tabs']>;
  /** `network.har`'s counts (`log._afr`), when the bundle has one. */
  network?: HarCounts;
  debugger: Diagnostics['debugger'];
  timings: Diagnostics['timings_ms'];
  /** The clip's encoding, or null when none was asked (capture level, no frames). */
  clip: ClipOutcome | null;
  warnings: string[];
  /** The agent's calls in the window with their tokens and cost (`agentCallTotals`), or null: none. */
  agentCalls?: Diagnostics['agent_calls'] | null;
}

/** `diagnostics.json`: the failure, what led to it, the page's figures and how the capture went. */
export function buildDiagnostics(input: DiagnosticsInput): Diagnostics {
  const { steps, snapshot, capture: stats, ring, clip } = input;
  return {
    version: DIAGNOSTICS_VERSION,
    bundle_id: input.bundleId,
    failure: input.signal,
    suppressed_signals: input.suppressedBefore,
    signal_chain: signalChain(steps),
    console_errors: consoleErrors(steps),
    failed_requests: failedRequests(steps),
    page_metrics: pageMetrics(snapshot.ok ? snapshot.snapshot : null),
    redaction: snapshot.ok ? snapshot.snapshot.redaction : EMPTY_REDACTION,
    capture: {
      frames_in_bundle: input.framesInBundle,
      fps: captureRate(input.captureTimes.map((ts) => Math.max(ts, input.windowStart)), input.windowEnd),
      masked_regions: stats.maskedRegions,
      dropped_frames: stats.dropped,
      ...(stats.droppedByReason ? { dropped_frames_by_reason: stats.droppedByReason } : {}),
      frames_in_ring: ring.frames,
      ring_bytes: ring.bytes,
      window_start: input.captureTimes[0] === undefined ? null : iso(input.captureTimes[0]),
      window_end: iso(input.windowEnd),
      captures_ok: stats.capturesOk,
      capture_errors: stats.captureErrors,
      quota_errors: stats.quotaErrors,
      evicted_frames: ring.evicted,
      last_capture_error: stats.lastError,
      ...(input.viewportCut ? { viewport_cut: input.viewportCut } : {}),
    },
    ...(input.otherTabs ? { other_tabs: input.otherTabs } : {}),
    ...(input.network ? { network: input.network } : {}),
    debugger: input.debugger,
    timings_ms: input.timings,
    clip_error: clip && !clip.ok ? clip.error : null,
    warnings: input.warnings,
    ...(input.agentCalls ? { agent_calls: input.agentCalls } : {}),
  };
}
