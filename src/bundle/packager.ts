import type { SnapshotCaptureResult } from '../../schemas/messages';
import type { ClipFrameRef } from '../../schemas/messages';
import type { Step } from '../../schemas/steps';
import type { CaptureStats } from '../capture/capture-loop';
import type { FrameMeta } from '../ring/ports';
import type { FrameRing } from '../ring/frame-ring';
import { framesInWindow } from '../ring/ring-policy';
import type { Clock } from '../shared/clock';
import { viewportCutsOf, viewportCutWarning } from '../../schemas/viewport-cut';
import { errorMessage } from '../shared/error-message';
import type { StepLog } from '../steps/step-log';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';
import { agentCallTotals, layOutAgentCalls } from './agent-file';
import { makeBundleId } from './bundle-id';
import { bundleContents } from './bundle-contents';
import { bundlePlan, snapshotTarget, type BundlePlan, type SnapshotTarget } from './bundle-plan';
import type { BundleRequest } from './bundle-request';
import { bundleSummary } from './bundle-summary';
import { buildDiagnostics } from './build-diagnostics';
import { buildManifest } from './build-manifest';
import { clipFrameRefs } from './clip-frames';
import type { ClipOutcome } from './clip-outcome';
import { collectFrames, noFramesWarning } from './collect-frames';
import { otherTabsActivity } from './diagnostics-report';
import type { BundleStore, StoredBundle } from './ports';
import { MAX_STEP_PAGES_CHARS, layOutStepPages, type StepPages } from './step-pages';
import { writeBundle } from './write-bundle';
import { linkHarEntries } from './har-links';
import type { NetworkHarSource } from '../network/ports';
import type { HarFile } from '../../schemas/network';

export type { BundleOptions, BundleRequest } from './bundle-request';
export type { ClipOutcome } from './clip-outcome';

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
  /** Each recorded tab's requests, masked (`src/network/`): the bundle's `network.har`. */
  network?: NetworkHarSource;
  /** Whether a tab is in the recording scope (every tab without it): `other_tabs` lists no other. */
  recordsTab?(tabId: number): boolean;
  log(message: string): void;
}

/**
 * Turns an admitted failure signal into a bundle: snapshot, frames of the failing tab within the
 * buffer window, steps, clip, diagnostics; zipped and stored. What happens to it next (retention,
 * downloads, an upload) is for the bundle sinks.
 */
export async function packageBundle(ports: PackagerPorts, request: BundleRequest): Promise<StoredBundle> {
  const { signal, suppressedBefore, settings, ...options } = request;
  const { clock, ring } = ports;
  const t0 = clock.now();
  const plan = bundlePlan(makeBundleId(signal.ts), signal, settings, options.level, t0);
  const { bundleId, tabId, windowStart, windowEnd } = plan;
  const snapshot = takeSnapshot(ports, snapshotTarget(plan, options.level), t0);

  const allFrames = await ring.frames();
  const inWindow = tabId === null || !plan.withFrames ? [] : framesInWindow(allFrames, tabId, windowStart, windowEnd);
  const release = ring.pin(inWindow.map((f) => f.key));
  try {
    const { frames, warnings } = collectFrames(inWindow, await Promise.all(inWindow.map((f) => ring.readJpeg(f.key))), { start: windowStart, end: windowEnd });
    if (inWindow.length === 0 && plan.withFrames) warnings.push(noFramesWarning(ports.capture.stats()));
    const cuts = viewportCutsOf(frames);
    if (cuts) warnings.push(viewportCutWarning(cuts.latest.cut, cuts.cutFrames, cuts.frames));
    const tFrames = clock.now();
    const clip = plan.withClip && frames.length > 0 ? await encodeClip(ports, bundleId, frames, warnings) : null;
    const tClip = clock.now();
    const snapshotResult = await snapshot.result;
    if (!snapshotResult.ok && plan.withSnapshot) warnings.push(`no DOM snapshot: ${snapshotResult.error}`);
    await ports.stepsSettled?.(windowEnd);
    const logged = await ports.stepLog.between(tabId, windowStart, windowEnd);
    // The page at each step, from the tab's DOM timeline (capture level `trace` and up).
    const pages = plan.withSnapshot && tabId !== null && ports.timeline ? await stepPagesOf(ports.timeline, bundleId, tabId, windowStart, logged, warnings) : null;
    const har = tabId === null ? null : await networkHarOf(ports, tabId, windowStart, windowEnd, warnings);
    // The agent's model and tool calls move to `agent.json`; their steps point at them.
    const { steps: laidOut, agent } = layOutAgentCalls(bundleId, pages?.steps ?? logged);
    const steps = linkHarEntries(laidOut, har);
    const otherTabs = settings.diagnosticsOtherTabs ? await otherTabsOf(ports, plan, allFrames) : undefined;
    const stats = ports.capture.stats();
    const ringStats = ring.stats();

    const diagnostics = buildDiagnostics({
      bundleId,
      signal,
      suppressedBefore,
      steps,
      snapshot: snapshotResult,
      framesInBundle: frames.length,
      captureTimes: inWindow.map((f) => f.ts),
      windowStart,
      windowEnd,
      capture: stats,
      ...(cuts ? { viewportCut: { frames: cuts.cutFrames, ...cuts.latest.cut } } : {}),
      ring: ringStats,
      otherTabs,
      ...(har ? { network: har.log._afr } : {}),
      debugger: ports.debuggerState(tabId),
      timings: { snapshot: snapshot.ms(), frames: tFrames - t0, clip: tClip - tFrames, before_zip: clock.now() - t0 },
      clip,
      warnings,
      agentCalls: agentCallTotals(agent),
    });
    const manifest = buildManifest({
      bundleId,
      runId: request.runId,
      signal,
      settings,
      options,
      firstFrameTs: frames[0]?.ts ?? null,
      firstStepTs: steps[0]?.ts ?? null,
      steps,
      maskedRegions: frames.reduce((n, f) => n + f.masked, 0),
      droppedFrames: stats.dropped,
      clip,
      extension: ports.extension,
    });
    const written = await writeBundle(
      bundleContents({ bundleId, manifest, withSnapshot: plan.withSnapshot, snapshot: snapshotResult, diagnostics, steps, pages, frames, clip, har, agent, viewerScript: ports.viewerScript }),
    );
    const summary = bundleSummary(written.manifest, signal, written.zip.byteLength, clock.now(), options.unattended);
    await ports.bundles.save(summary, written.zip);
    ports.log(`[afr] bundle ${bundleId} (${signal.reason}) ready in ${clock.now() - t0} ms, ${frames.length} frames`);
    return { summary, zip: written.zip };
  } finally {
    release();
  }
}

/** The DOM snapshot of the tab, started at once (it runs while the frames are read), and how long it took. */
function takeSnapshot(ports: PackagerPorts, target: SnapshotTarget, t0: number): { result: Promise<SnapshotCaptureResult>; ms(): number } {
  let ms = 0;
  const result: Promise<SnapshotCaptureResult> =
    'skipped' in target
      ? Promise.resolve({ ok: false, error: target.skipped })
      : ports
          .snapshot(target.tabId)
          .catch((error: unknown) => ({ ok: false as const, error: String(error) }))
          .finally(() => {
            ms = ports.clock.now() - t0;
          });
  return { result, ms: () => ms };
}

/** The clip of the frames, or why there is none (logged); a warning when frames were left out of it. */
async function encodeClip(ports: PackagerPorts, bundleId: string, frames: readonly { key: number; jpeg: Uint8Array; durationMs: number }[], warnings: string[]): Promise<ClipOutcome> {
  const { refs, warning } = clipFrameRefs(frames, (key) => ports.ring.isInMemory(key));
  if (warning) warnings.push(warning);
  const clip = await ports.encodeClip(bundleId, refs).catch((error: unknown) => ({ ok: false as const, error: String(error) }));
  if (!clip.ok) ports.log(`[afr] clip encoding failed for ${bundleId}: ${clip.error}`);
  return clip;
}

/** The other tabs' activity in the window, only those in the recording scope (the operator asked for it). */
async function otherTabsOf(ports: PackagerPorts, plan: BundlePlan, allFrames: readonly FrameMeta[]) {
  const { windowStart, windowEnd } = plan;
  const shown = (id: number | null) => id !== null && (ports.recordsTab?.(id) ?? true);
  return otherTabsActivity(
    plan.tabId,
    (await ports.stepLog.inWindow(windowStart, windowEnd)).filter((s) => shown(s.tab_id)),
    allFrames.filter((f) => f.ts >= windowStart && f.ts <= windowEnd && shown(f.tabId)),
  );
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

/** The tab's requests in the window as HAR, or null (with a warning) when the log could not give them. */
async function networkHarOf(ports: PackagerPorts, tabId: number, windowStart: number, windowEnd: number, warnings: string[]): Promise<HarFile | null> {
  if (!ports.network) return null;
  try {
    return await ports.network.har(tabId, windowStart, windowEnd, ports.extension);
  } catch (error) {
    warnings.push(`no network.har: ${errorMessage(error)}`);
    return null;
  }
}
