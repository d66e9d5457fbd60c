import type { BundleSummary } from '../../schemas/api';
import { STEPS_IN_FLIGHT_MS } from '../../schemas/content-port';
import type { FailureSignal } from '../../schemas/failure';
import type { Settings } from '../../schemas/settings';
import { runSinks } from '../bundle/bundle-sinks';
import { isUnattendedSignal } from '../bundle/bundle-trigger';
import { packageBundle, type BundleOptions, type PackagerPorts } from '../bundle/packager';
import type { BundleSink } from '../bundle/ports';
import type { FrameSources } from '../capture/frame-sources';
import type { Clock } from '../shared/clock';
import { errorMessage } from '../shared/error-message';
import { FailureGate } from '../signals/failure-gate';
import { redactSignal } from '../signals/redact-signal';
import type { PageGuard } from '../trust/page-guard';
import type { RecordingMode } from './recording-mode';
import type { RunState } from './run-state';
import { signalStep } from './step-drafts';

/** How a failure is to be bundled. */
export interface TriggerOptions {
  /** Asked for (the agent, the operator, a crash): skips the cooldown, and waits for the tab's bundle being made. */
  explicit?: boolean;
  status?: BundleOptions['status'];
  /** The run the bundle is of, when it is no longer the active one (`runEnd`). */
  runOverride?: BundleOptions['run'] | null;
  outcome?: 'passed' | 'failed';
}

/** What a failure job needs besides the packager's ports. */
export interface FailureJobPorts extends PackagerPorts {
  /** The frame sources: a frame of the page as it is, and the capture statistics. */
  capture: Pick<FrameSources, 'handleFailure' | 'frameNow' | 'stats'>;
  run: Pick<RunState, 'runOf' | 'runId' | 'active'>;
  mode: RecordingMode;
  /** The page-bundle quotas: a bundle a page triggered, or an unattended signal's, is made only within its own. */
  guard: Pick<PageGuard, 'admitBundle' | 'bundleMade' | 'admitSignalBundle' | 'signalBundleMade'>;
  /** Where each stored bundle goes next, in order. */
  sinks: readonly BundleSink[];
  /** Waits (the after-failure tail, the steps in flight). */
  sleep(ms: number): Promise<void>;
  /** Whether the tab is in the recording scope (every tab without it): no bundle is made of any other. */
  recordsTab?(tabId: number): boolean;
  /** A bundle began or ended (`packaging`, `lastError` changed). */
  changed?(): void;
}

/**
 * Turns failure signals into bundles: admits them through the failure gate, waits for the
 * after-failure tail, packages, and hands the stored bundle to the sinks. One job per tab at a time;
 * an explicit request waits for the tab's job in flight rather than being dropped.
 */
export class FailureJobs {
  private readonly gate: FailureGate;
  private readonly inflight = new Map<number | null, Promise<BundleSummary | null>>();
  private readonly packager: PackagerPorts;
  private lastErrorText: string | null = null;

  constructor(
    private readonly ports: FailureJobPorts,
    cooldownMs: number,
  ) {
    this.gate = new FailureGate(cooldownMs);
    this.packager = { ...ports, stepsSettled: stepsSettled(ports.clock, ports.sleep) };
  }

  setCooldown(ms: number): void {
    this.gate.setCooldown(ms);
  }

  /** Whether a bundle is being made now. */
  get packaging(): boolean {
    return this.inflight.size > 0;
  }

  /** Why the latest bundle that ended could not be written, or null when it was. */
  get lastError(): string | null {
    return this.lastErrorText;
  }

  /** The tab was closed: the cooldown it was in goes (a job in flight still ends). */
  forget(tabId: number): void {
    this.gate.forget(tabId);
  }

  /**
   * Records the signal on the timeline and, if the gate admits it, packages a bundle.
   * Resolves to the bundle, or null when the signal was suppressed.
   */
  async trigger(raw: FailureSignal, options: TriggerOptions = {}): Promise<BundleSummary | null> {
    if (raw.tab_id !== null && this.ports.recordsTab?.(raw.tab_id) === false) {
      this.ports.log(`[afr] no bundle of tab ${raw.tab_id}: the tab is outside the recording scope`);
      return null;
    }
    // The window's frames are kept from the signal on: it may wait for the tab's bundle being made,
    // then for its own tail, longer than the ring keeps frames past the window.
    // The settings of the moment of the signal make its bundle: its window is the one kept.
    const settings = this.ports.mode.settings;
    const release = raw.tab_id === null ? () => undefined : this.ports.ring.pinWindow(raw.tab_id, raw.ts - settings.bufferSeconds * 1000);
    try {
      return await this.admitAndPackage(raw, options, settings);
    } finally {
      release();
    }
  }

  private async admitAndPackage(raw: FailureSignal, options: TriggerOptions, settings: Settings): Promise<BundleSummary | null> {
    const { clock, mode, stepLog, log } = this.ports;
    const signal = redactSignal(raw, mode.masker);
    // A page's failure is never explicit, whatever the caller says: the cooldown applies to it.
    const byPage = signal.origin === 'page';
    const explicit = (options.explicit ?? false) && !byPage;
    // A signal with no agent run is the page's doing too (it threw, its server answered 5xx): it has a
    // quota of its own, explicit (a crash) or not.
    const unattended = isUnattendedSignal(signal.origin, this.ports.run.active !== null);
    const guard = this.ports.guard;
    if ((byPage && !guard.admitBundle(signal.tab_id, signal.reason)) || (unattended && !guard.admitSignalBundle(signal.tab_id, signal.reason))) {
      if (mode.recordsTimeline) await stepLog.add(signalStep(signal, 'suppressed'));
      return null;
    }
    let verdict = this.gate.admit(signal.tab_id, clock.now(), { ignoreCooldown: explicit });
    while (!verdict.admitted && explicit && this.inflight.has(signal.tab_id)) {
      await this.inflight.get(signal.tab_id)!.catch(() => null);
      verdict = this.gate.admit(signal.tab_id, clock.now(), { ignoreCooldown: true });
    }
    if (!verdict.admitted) {
      if (mode.recordsTimeline) await stepLog.add(signalStep(signal, 'suppressed'));
      log(`[afr] ${signal.reason} on tab ${signal.tab_id} not bundled: ${verdict.why}`);
      return null;
    }
    if (byPage) guard.bundleMade(signal.tab_id);
    if (unattended) guard.signalBundleMade(signal.tab_id);
    // `runEnd` names the run it ended (null: none), which is no longer the tab's.
    const run = options.runOverride !== undefined ? options.runOverride : this.ports.run.runOf(signal.tab_id);
    // Registered before any await, so a concurrent explicit request for the same tab waits for it.
    const job = (async () => {
      await this.afterFailure(signal, settings);
      const bundle = await packageBundle(this.packager, {
        signal,
        suppressedBefore: verdict.suppressedBefore,
        settings,
        // Without a declared run, the bundle is the browser session's.
        runId: run?.runId ?? this.ports.run.runId,
        status: options.status ?? 'failure',
        level: settings.captureLevel,
        run: run ?? null,
        outcome: options.outcome ?? null,
        unattended,
      });
      this.lastErrorText = null;
      await runSinks(this.ports.sinks, bundle, { settings, status: options.status ?? 'failure' }, log);
      return bundle.summary;
    })()
      .catch((error: unknown) => {
        this.lastErrorText = errorMessage(error);
        throw error;
      })
      .finally(() => {
        this.gate.done(signal.tab_id);
        this.inflight.delete(signal.tab_id);
        this.ports.changed?.();
      });
    this.inflight.set(signal.tab_id, job);
    this.ports.changed?.();
    return job;
  }

  /** The admitted failure goes on the timeline, then the after-failure tail is recorded. */
  private async afterFailure(signal: FailureSignal, settings: Settings): Promise<void> {
    const { capture, mode, stepLog, sleep } = this.ports;
    const tabId = signal.tab_id;
    if (tabId !== null) capture.handleFailure(tabId);
    if (mode.recordsTimeline) await stepLog.add(signalStep(signal, 'trigger'));
    // The after-failure tail: recording goes on, so the clip shows what the failure led to. It
    // starts and ends with a frame of the page as it is (a screencast may not have sent the last change).
    // A crashed page has nothing left to show.
    const frameNow = () => (tabId !== null && signal.kind !== 'crash' ? capture.frameNow(tabId) : Promise.resolve());
    if (settings.postFailureSeconds > 0) {
      void frameNow();
      await sleep(settings.postFailureSeconds * 1000);
    }
    await frameNow();
  }
}

/**
 * A step taken just before the window's end may still be in its page's batch: the steps are read once
 * it is in (`STEPS_IN_FLIGHT_MS` after the window's end, or at once if that has passed).
 */
export function stepsSettled(clock: Clock, sleep: (ms: number) => Promise<void>): (windowEnd: number) => Promise<void> {
  return async (windowEnd) => {
    const wait = Math.min(STEPS_IN_FLIGHT_MS, windowEnd + STEPS_IN_FLIGHT_MS - clock.now());
    if (wait > 0) await sleep(wait);
  };
}
