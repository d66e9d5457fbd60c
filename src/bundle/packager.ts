import { captureRate } from './capture-rate';
import type { BundleSummary } from '../../schemas/api';
import type { Diagnostics } from '../../schemas/diagnostics';
import type { FailureSignal } from '../../schemas/failure';
import type { ClipFrameRef, SnapshotCaptureResult } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import type { RedactionCounts } from '../../schemas/snapshot';
import { MANIFEST_VERSION, manifestSettings } from '../../schemas/manifest';
import { DIAGNOSTICS_VERSION } from '../../schemas/diagnostics';
import { SNAPSHOT_FILE_VERSION } from '../../schemas/snapshot';
import { STEPS_FILE_VERSION } from '../../schemas/steps';
import { viewportCutsOf, viewportCutWarning } from '../../schemas/viewport-cut';
import type { CaptureStats } from '../capture/capture-loop';
import type { FrameRing } from '../ring/frame-ring';
import { framesInWindow } from '../ring/ring-policy';
import type { Clock } from '../shared/clock';
import type { StepLog } from '../steps/step-log';
import { bytesToBase64 } from '../shared/base64';
import { makeBundleId } from './bundle-id';
import { bundleTrigger } from './bundle-trigger';
import { frameDurations } from './frame-durations';
import { mergeRepeatedFrames } from './repeated-frames';
import type { BundleStore, StoredBundle } from './ports';
import { writeBundle } from './write-bundle';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';
import type { Step } from '../../schemas/steps';
import { errorMessage } from '../shared/error-message';
import { MAX_STEP_PAGES_CHARS, layOutStepPages, type StepPages } from './step-pages';
import { outlineBundle } from '../bundle-format/page-outline';
import { consoleErrors, failedRequests, otherTabsActivity, pageMetrics, signalChain } from './diagnostics-report';
import { captureLevelAtLeast, type CaptureLevel } from '../../schemas/capture-level';

export type ClipOutcome =
  | { ok: true; mp4: Uint8Array; durationSeconds: number; encoder: string }
  | { ok: false; error: string };

/** Where the capture statistics of the diagnostics come from (the frame sources). */
export interface CaptureStatsSource {
  stats(): CaptureStats;
}

/** Everything packaging needs from the rest of the recorder and the browser. */
export interface PackagerPorts {
  clock: Clock;
  ring: FrameRing;
  stepLog: StepLog;
  bundles: BundleStore;
  extension: { name: string; version: string };
  /** The standalone viewer script (`virtual:afr-viewer-script`); when set, every bundle gets `viewer.html`. */
  viewerScript?: string;
  /** Read once the frames are in, so the figures cover the bundle's own capture. */
  capture: CaptureStatsSource;
  debuggerState(tabId: number | null): { attached: boolean; error: string | null };
  /** DOM snapshot of the tab's top frame (the platform applies a timeout). */
  snapshot(tabId: number): Promise<SnapshotCaptureResult>;
  encodeClip(jobId: string, frames: ClipFrameRef[]): Promise<ClipOutcome>;
  /**
   * Resolves when the steps taken up to `windowEnd` have reached the timeline (a page sends a quick
   * run of steps in batches). Awaited just before the steps are read; none: read at once.
   */
  stepsSettled?(windowEnd: number): Promise<void>;
  /** The tabs' DOM timelines (capture level `trace` and up): the page at each step. */
  timeline?: Pick<TimelineKeeper, 'documents'>;
  /** Whether a tab is in the recording scope (every tab without it): `other_tabs` lists no other. */
  recordsTab?(tabId: number): boolean;
  log(message: string): void;
}

const EMPTY_REDACTION: RedactionCounts = { fields: {}, text: {} };

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

const iso = (ts: number) => new Date(ts).toISOString();

/**
 * Turns an admitted failure signal into a bundle: snapshot, frames of the failing tab within the
 * buffer window, steps, clip, diagnostics; zipped and stored. What happens to it next (retention,
 * downloads, an upload) is for the bundle sinks.
 */
export async function packageBundle(ports: PackagerPorts, request: BundleRequest): Promise<StoredBundle> {
  const { signal, suppressedBefore, settings, ...options } = request;
  const t0 = ports.clock.now();
  const bundleId = makeBundleId(signal.ts);
  const windowEnd = Math.max(signal.ts, t0);
  const windowStart = signal.ts - settings.bufferSeconds * 1000;
  const warnings: string[] = [];
  const tabId = signal.tab_id;

  const withSnapshot = captureLevelAtLeast(options.level, 'trace');
  const withFrames = captureLevelAtLeast(options.level, 'screenshots');
  const withClip = captureLevelAtLeast(options.level, 'video') && settings.encodeClip;
  let snapshotMs = 0;
  const snapshotPromise: Promise<SnapshotCaptureResult> = !withSnapshot
    ? Promise.resolve({ ok: false, error: `not taken at capture level ${options.level}` })
    : tabId === null
      ? Promise.resolve({ ok: false, error: 'the failure is not bound to a tab' })
      : ports
          .snapshot(tabId)
          .catch((error: unknown) => ({ ok: false as const, error: String(error) }))
          .finally(() => {
            snapshotMs = ports.clock.now() - t0;
          });

  const allFrames = await ports.ring.frames();
  const frames = tabId === null || !withFrames ? [] : framesInWindow(allFrames, tabId, windowStart, windowEnd);
  const release = ports.ring.pin(frames.map((f) => f.key));
  try {
    // The frame from before the window (the screen at its start) counts from the window's start.
    const durations = frameDurations(frames.map((f) => Math.max(f.ts, windowStart)), windowEnd);
    const read = await Promise.all(frames.map((f) => ports.ring.readJpeg(f.key)));
    const stored = frames.flatMap((f, i) => {
      const jpeg = read[i];
      if (!jpeg) {
        warnings.push(`frame ${f.key} was evicted while the bundle was being packaged`);
        return [];
      }
      return [{ key: f.key, jpeg, ts: f.ts, durationMs: durations[i]!, width: f.width, height: f.height, masked: f.masked ?? 0, source: f.source ?? 'visibleTab', ...(f.viewport ? { viewport: f.viewport } : {}) }];
    });
    // A frame identical to the one before it is stored once: that entry's duration covers both.
    const jpegs = mergeRepeatedFrames(stored);
    if (frames.length === 0 && withFrames) warnings.push(noFramesWarning(ports.capture.stats()));
    const cuts = viewportCutsOf(jpegs);
    if (cuts) warnings.push(viewportCutWarning(cuts.latest.cut, cuts.cutFrames, cuts.frames));
    const tFrames = ports.clock.now();

    let clip: ClipOutcome | null = null;
    if (withClip && jpegs.length > 0) {
      clip = await ports
        .encodeClip(bundleId, clipFrameRefs(jpegs, (key) => ports.ring.isInMemory(key), warnings))
        .catch((error: unknown) => ({ ok: false as const, error: String(error) }));
      if (!clip.ok) ports.log(`[afr] clip encoding failed for ${bundleId}: ${clip.error}`);
    }
    const tClip = ports.clock.now();
    const snapshot = await snapshotPromise;
    if (!snapshot.ok && withSnapshot) warnings.push(`no DOM snapshot: ${snapshot.error}`);
    await ports.stepsSettled?.(windowEnd);
    const logged = await ports.stepLog.between(tabId, windowStart, windowEnd);
    // The page at each step, from the tab's DOM timeline (capture level `trace` and up).
    const pages = withSnapshot && tabId !== null && ports.timeline ? await stepPagesOf(ports.timeline, bundleId, tabId, windowStart, logged, warnings) : null;
    const steps = pages?.steps ?? logged;
    // The other tabs' activity only when the operator asked for it, and never a tab outside the scope.
    const shown = (id: number | null) => id !== null && (ports.recordsTab?.(id) ?? true);
    const otherTabs = settings.diagnosticsOtherTabs
      ? otherTabsActivity(
          tabId,
          (await ports.stepLog.inWindow(windowStart, windowEnd)).filter((s) => shown(s.tab_id)),
          allFrames.filter((f) => f.ts >= windowStart && f.ts <= windowEnd && shown(f.tabId)),
        )
      : undefined;
    const stats = ports.capture.stats();
    const ring = ports.ring.stats();

    const diagnostics: Diagnostics = {
      version: DIAGNOSTICS_VERSION,
      bundle_id: bundleId,
      failure: signal,
      suppressed_signals: suppressedBefore,
      signal_chain: signalChain(steps),
      console_errors: consoleErrors(steps),
      failed_requests: failedRequests(steps),
      page_metrics: pageMetrics(snapshot.ok ? snapshot.snapshot : null),
      redaction: snapshot.ok ? snapshot.snapshot.redaction : EMPTY_REDACTION,
      capture: {
        frames_in_bundle: jpegs.length,
        fps: captureRate(frames.map((f) => f.ts), windowEnd),
        masked_regions: stats.maskedRegions,
        dropped_frames: stats.dropped,
        ...(stats.droppedByReason ? { dropped_frames_by_reason: stats.droppedByReason } : {}),
        frames_in_ring: ring.frames,
        ring_bytes: ring.bytes,
        window_start: frames[0] ? iso(frames[0].ts) : null,
        window_end: iso(windowEnd),
        captures_ok: stats.capturesOk,
        capture_errors: stats.captureErrors,
        quota_errors: stats.quotaErrors,
        evicted_frames: ring.evicted,
        last_capture_error: stats.lastError,
        ...(cuts ? { viewport_cut: { frames: cuts.cutFrames, ...cuts.latest.cut } } : {}),
      },
      ...(otherTabs ? { other_tabs: otherTabs } : {}),
      debugger: ports.debuggerState(tabId),
      timings_ms: { snapshot: snapshotMs, frames: tFrames - t0, clip: tClip - tFrames, before_zip: ports.clock.now() - t0 },
      clip_error: clip && !clip.ok ? clip.error : null,
      warnings,
    };

    const startedAt = Math.min(jpegs[0]?.ts ?? signal.ts, steps[0]?.ts ?? signal.ts);
    const { zip, manifest } = await writeBundle({
      manifest: {
        version: MANIFEST_VERSION,
        bundle_id: bundleId,
        run_id: request.runId,
        status: options.status,
        started_at: iso(startedAt),
        ended_at: iso(signal.ts),
        failure_reason: signal.reason,
        failure_label: signal.label,
        failure_message: signal.message,
        url_at_failure: signal.url,
        tab_id: tabId,
        step_count: steps.length,
        buffer_seconds: settings.bufferSeconds,
        capture_level: options.level,
        run: {
          agent: options.run?.agent ?? null,
          agent_version: options.run?.agentVersion ?? null,
          task: options.run?.task ?? null,
          started_at: options.run ? iso(options.run.startedAt) : null,
          outcome: options.outcome,
        },
        clip: clip?.ok ? { name: 'failure.mp4', duration_seconds: clip.durationSeconds, encoder: clip.encoder } : null,
        capture: {
          source: settings.captureSource,
          fps: settings.fps,
          interval_ms: settings.captureIntervalMs,
          masked_regions: jpegs.reduce((n, f) => n + f.masked, 0),
          dropped_frames: stats.dropped,
          jpeg_quality: settings.jpegQuality,
          max_buffer_bytes: settings.maxBufferBytes,
        },
        // Never the redaction rules themselves: a bundle is shared, they say what its owner keeps secret.
        settings: manifestSettings(settings),
        extension: ports.extension,
      },
      snapshot: withSnapshot
        ? {
            version: SNAPSHOT_FILE_VERSION,
            bundle_id: bundleId,
            snapshot: snapshot.ok ? snapshot.snapshot : null,
            error: snapshot.ok ? null : snapshot.error,
            ...(pages?.previous ? { previous: pages.previous } : {}),
          }
        : null,
      stepSnapshots: pages?.files ?? [],
      outline: withSnapshot ? outlineOf(snapshot, steps, pages) : undefined,
      diagnostics: withSnapshot ? diagnostics : null,
      steps: { version: STEPS_FILE_VERSION, bundle_id: bundleId, steps },
      frames: jpegs,
      clip: clip?.ok ? clip.mp4 : null,
      viewerScript: ports.viewerScript,
    });

    const summary: BundleSummary = {
      id: bundleId,
      createdAt: iso(ports.clock.now()),
      reason: manifest.failure_reason,
      label: manifest.failure_label,
      tabId,
      url: signal.url,
      sizeBytes: zip.byteLength,
      downloadId: null,
      trigger: bundleTrigger(signal.origin),
      ...(options.unattended ? { unattended: true } : {}),
    };
    await ports.bundles.save(summary, zip);
    ports.log(`[afr] bundle ${bundleId} (${signal.reason}) ready in ${ports.clock.now() - t0} ms, ${jpegs.length} frames`);
    return { summary, zip };
  } finally {
    release();
  }
}

/** `outline.md`: the page at the failure (`snapshot.json`) and at the last action (its page in `snapshots/`). */
function outlineOf(snapshot: SnapshotCaptureResult, steps: readonly Step[], pages: StepPages | null): string {
  return outlineBundle(snapshot.ok ? snapshot.snapshot : null, steps, new Map(pages?.files.map((f) => [f.name, f.file])));
}

/** The pages at the steps, or null (with a warning) when the timeline could not be read or laid out. */
async function stepPagesOf(
  timeline: Pick<TimelineKeeper, 'documents'>,
  bundleId: string,
  tabId: number,
  windowStart: number,
  steps: readonly Step[],
  warnings: string[],
): Promise<StepPages | null> {
  try {
    const pages = layOutStepPages(bundleId, await timeline.documents(tabId, windowStart), steps);
    if (pages.leftOut) warnings.push(`${pages.leftOut} older pages of the DOM timeline left out: the pages at the steps are capped at ${MAX_STEP_PAGES_CHARS} characters`);
    return pages;
  } catch (error) {
    warnings.push(`no pages at the steps: the DOM timeline could not be read (${errorMessage(error)})`);
    return null;
  }
}

/**
 * Base64 of frames kept in memory a clip job carries at most: Chrome refuses an extension message
 * over 64 MiB, and the worker holds the message's text and its serialised copy.
 */
export const MAX_INLINE_CLIP_BYTES = 24 * 1024 * 1024;

/**
 * The clip job's frames: by IndexedDB key, which the offscreen document reads; a frame kept in
 * memory only (IndexedDB out of quota) in the message itself, the newest first up to
 * `MAX_INLINE_CLIP_BYTES` (the encoder gives the time of a frame left out to the one before it).
 */
function clipFrameRefs(frames: readonly { key: number; jpeg: Uint8Array; durationMs: number }[], inMemory: (key: number) => boolean, warnings: string[]): ClipFrameRef[] {
  const refs: ClipFrameRef[] = frames.map((f) => ({ key: f.key, duration_ms: f.durationMs }));
  let budget = MAX_INLINE_CLIP_BYTES;
  let left = 0;
  for (let i = frames.length - 1; i >= 0; i--) {
    if (!inMemory(frames[i]!.key)) continue;
    const base64 = bytesToBase64(frames[i]!.jpeg);
    if (base64.length > budget) {
      left++;
      continue;
    }
    budget -= base64.length;
    refs[i]!.jpeg_base64 = base64;
  }
  if (left) warnings.push(`${left} frames kept in memory (storage full) are left out of the clip: more than a message to the encoder takes`);
  return refs;
}

/**
 * Why a bundle has no frame of its tab: frames dropped (named by reason) when there were any, else
 * none was captured at all (the tab was neither visible nor screencast).
 */
export function noFramesWarning(stats: Pick<CaptureStats, 'dropped' | 'droppedByReason'>): string {
  const reasons = Object.entries(stats.droppedByReason ?? {}).filter(([, n]) => n > 0);
  if (stats.dropped > 0) {
    const named = reasons.length ? `: ${reasons.map(([reason, n]) => `${reason} ${n}`).join(', ')}` : '';
    return `no frames of this tab were stored in the buffer window; ${stats.dropped} frames were dropped since the recorder started${named}`;
  }
  return 'no frames of this tab were captured in the buffer window (was it the visible tab?)';
}
