import type { Status } from '../../schemas/api';
import { viewportCutsOf, viewportCutWarning } from '../../schemas/viewport-cut';
import type { FrameMeta } from '../ring/ports';
import { NO_DOWNLOAD } from '../bundle/download-check';
import type { TimelineKeeper } from '../timeline/store/timeline-keeper';
import type { PackagerPorts } from '../bundle/packager';
import type { FrameSources } from '../capture/frame-sources';
import type { PageGuard } from '../trust/page-guard';
import type { FailureJobs } from './failure-jobs';
import type { DeliveryView } from './ports';
import type { RecordingMode } from './recording-mode';
import type { RunState } from './run-state';
import type { TabScope } from './tab-scope';

/** What the status report reads. */
export interface StatusSources extends Pick<PackagerPorts, 'clock' | 'ring' | 'stepLog' | 'bundles' | 'extension' | 'debuggerState'> {
  frames: Pick<FrameSources, 'stats' | 'targets' | 'recording' | 'sourceOf'>;
  run: Pick<RunState, 'active' | 'runId' | 'pageRunOf'>;
  mode: RecordingMode;
  failures: Pick<FailureJobs, 'packaging' | 'lastError'>;
  guard: Pick<PageGuard, 'counts'>;
  scope: Pick<TabScope, 'recordsTab' | 'recordedTabs' | 'sets'>;
  /** The verdict on the latest bundle download (none: nothing downloaded yet). */
  downloadsStatus?(): Status['downloads'];
  delivery?: Pick<DeliveryView, 'status'>;
  timeline?: Pick<TimelineKeeper, 'stats'>;
}

/** Frames in the ring that show less than their page's viewport (see `Status.viewportCut`). */
function viewportCutReport(frames: readonly FrameMeta[]): Status['viewportCut'] {
  const cuts = viewportCutsOf(frames);
  if (!cuts) return null;
  const { frame, cut } = cuts.latest;
  return { frames: cuts.cutFrames, tabId: frame.tabId, ...cut, warning: viewportCutWarning(cut, cuts.cutFrames, cuts.frames) };
}

/** How many seconds of stored frames the reported fps is taken over. */
const FPS_WINDOW_S = 10;

/** The recorder's state for the operator pages and `afr.status()`: capture, storage, run, settings. */
export async function statusReport(s: StatusSources): Promise<Status> {
  const stats = s.frames.stats();
  const ring = s.ring.stats();
  const run = s.run.active;
  const settings = s.mode.settings;
  const now = s.clock.now();
  const frames = await s.ring.frames();
  // Frames stored in the last 10 s, whatever their source.
  const recent = frames.filter((f) => f.ts > now - FPS_WINDOW_S * 1000).length;
  return {
    recording: s.frames.recording,
    paused: s.mode.paused,
    tabs: s.frames.targets().map((t) => {
      const dbg = s.debuggerState(t.tabId);
      return {
        ...t,
        debugger: dbg.attached,
        debuggerError: dbg.error,
        signals: dbg.attached ? ('debugger' as const) : ('page' as const),
        source: s.frames.sourceOf(t.tabId),
        pageRunId: s.run.pageRunOf(t.tabId)?.runId ?? null,
        recorded: s.scope.recordsTab(t.tabId),
      };
    }),
    frames: ring.frames,
    bytes: ring.bytes,
    fps: recent / FPS_WINDOW_S,
    oldestFrameAgeMs: ring.oldestTs === null ? null : s.clock.now() - ring.oldestTs,
    capturesOk: stats.capturesOk,
    captureErrors: stats.captureErrors,
    quotaErrors: stats.quotaErrors,
    lastCaptureError: stats.lastError,
    droppedFrames: stats.dropped,
    ...(stats.droppedByReason ? { droppedFramesByReason: stats.droppedByReason } : {}),
    viewportCut: viewportCutReport(frames),
    storage: { quotaErrors: ring.quotaErrors, lastError: ring.lastStorageError, framesInMemory: ring.framesInMemory },
    steps: s.stepLog.size,
    ...(s.timeline ? { timeline: s.timeline.stats() } : {}),
    bundles: (await s.bundles.list()).length,
    packaging: s.failures.packaging,
    lastBundleError: s.failures.lastError,
    runId: s.run.runId,
    run: {
      active: run !== null,
      agent: run?.agent ?? null,
      agentVersion: run?.agentVersion ?? null,
      task: run?.task ?? null,
      startedAt: run ? new Date(run.startedAt).toISOString() : null,
    },
    captureLevel: settings.captureLevel,
    persistMode: settings.persistMode,
    version: s.extension.version,
    pageLimits: s.guard.counts(),
    scope: { mode: settings.scope, origins: settings.scopeOrigins, recordedTabs: s.scope.recordedTabs(), agentTabs: s.scope.sets.agent, chosenTabs: s.scope.sets.chosen },
    downloads: s.downloadsStatus?.() ?? NO_DOWNLOAD,
    ...(s.delivery ? { upload: await s.delivery.status(settings) } : {}),
  };
}
