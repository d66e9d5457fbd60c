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
import { decideSignal, gateRefusalText, type SeenSignalFacts, type SignalDecision, type SignalFacts, type SignalReason } from '../signals/signal-decision';
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
  guard: Pick<PageGuard, 'allowsBundle' | 'refuseBundle' | 'bundleMade' | 'allowsSignalBundle' | 'refuseSignalBundle' | 'signalBundleMade'>;
  /** Where each stored bundle goes next, in order. */
  sinks: readonly BundleSink[];
  /** Waits (the after-failure tail, the steps in flight). */
  sleep(ms: number): Promise<void>;
  /** Whether the tab is in the recording scope (every tab without it): no bundle is made of any other. */
  recordsTab?(tabId: number): boolean;
  /** A bundle began or ended (`packaging`, `lastError` changed). */
  changed?(): void;
  /** `settings` with the enterprise policy over them once it has answered (a browser's start goes on without it): what the sinks are given. */
  withSettledPolicy?(settings: Settings): Promise<Settings>;
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
   * A bundle asked for (the agent, a page's command, the operator): its facts gathered, decided
   * (`decideSignal`), and carried out. Resolves to the bundle, or null when none was made.
   */
  trigger(signal: FailureSignal, options: TriggerOptions = {}): Promise<BundleSummary | null> {
    const facts = this.facts(signal, options.explicit ?? false, null);
    return this.carryOut(signal, facts, decideSignal(facts), options);
  }

  /**
   * What the decision about a signal weighs besides what the signal intake saw of it: the recording
   * scope, who asked, the page's quotas and the tab's failure gate, now.
   */
  facts(signal: FailureSignal, explicit: boolean, seen: SeenSignalFacts | null): SignalFacts {
    const { guard, recordsTab, run, clock } = this.ports;
    const tabId = signal.tab_id;
    return {
      inScope: tabId === null || recordsTab?.(tabId) !== false,
      seen,
      byPage: signal.origin === 'page',
      // A signal with no agent run is the page's doing too (it threw, its server answered 5xx): it has a
      // quota of its own, explicit (a crash) or not.
      unattended: isUnattendedSignal(signal.origin, run.active !== null),
      explicit,
      quotas: { page: guard.allowsBundle(tabId), signal: guard.allowsSignalBundle(tabId) },
      gate: this.gate.state(tabId, clock.now()),
    };
  }

  /**
   * Carries out a decision to bundle the signal or to refuse it a bundle: a refusal is counted, put
   * on the timeline and told; a bundle is counted against its quotas, packaged and handed to the sinks.
   */
  async carryOut(raw: FailureSignal, facts: SignalFacts, decision: SignalDecision, options: Omit<TriggerOptions, 'explicit'> = {}): Promise<BundleSummary | null> {
    const tabId = raw.tab_id;
    if (decision.reason === 'outside-scope') {
      this.ports.log(`[afr] no bundle of tab ${tabId}: the tab is outside the recording scope`);
      return null;
    }
    // The window's frames are kept from the signal on: it may wait for the tab's bundle being made,
    // then for its own tail, longer than the ring keeps frames past the window.
    // The settings of the moment of the signal make its bundle: its window is the one kept.
    const settings = this.ports.mode.settings;
    const release = tabId === null ? () => undefined : this.ports.ring.pinWindow(tabId, raw.ts - settings.bufferSeconds * 1000);
    try {
      const signal = redactSignal(raw, this.ports.mode.masker);
      // Nothing is awaited between the facts and the gate told (`bundle`, `refuse`), unless the request waits.
      let [current, settled] = [facts, decision];
      // An explicit request waits for the tab's bundle being made, then is decided again (another may
      // have begun meanwhile); each wait counts as a signal the gate dropped.
      while (settled.reason === 'after-packaging' && this.inflight.has(tabId)) {
        this.gate.suppress(tabId);
        await this.inflight.get(tabId)!.catch(() => null);
        current = { ...current, gate: this.gate.state(tabId, this.ports.clock.now()) };
        settled = decideSignal(current);
      }
      if (settled.outcome === 'bundle' && settled.reason !== 'after-packaging') return await this.bundle(signal, current, options, settings);
      // With no job to wait for (the gate's packaging and the job begin and end together), a refusal as any other.
      return await this.refuse(signal, current, settled.reason === 'after-packaging' ? 'packaging' : settled.reason);
    } finally {
      release();
    }
  }

  /** A signal refused a bundle: counted where it was refused, on the timeline as `suppressed`, and told. */
  private async refuse(signal: FailureSignal, facts: SignalFacts, reason: SignalReason): Promise<null> {
    const { guard, mode, stepLog, log } = this.ports;
    const tabId = signal.tab_id;
    if (reason === 'page-quota') guard.refuseBundle(tabId, signal.reason);
    if (reason === 'signal-quota') guard.refuseSignalBundle(tabId, signal.reason);
    if (reason === 'packaging' || reason === 'cooldown') this.gate.suppress(tabId);
    if (mode.recordsTimeline) await stepLog.add(signalStep(signal, 'suppressed'));
    if (reason === 'packaging' || reason === 'cooldown') log(`[afr] ${signal.reason} on tab ${tabId} not bundled: ${gateRefusalText(reason, facts.gate)}`);
    return null;
  }

  /** An admitted signal: counted against its quotas and the gate, then packaged and handed to the sinks. */
  private bundle(signal: FailureSignal, facts: SignalFacts, options: Omit<TriggerOptions, 'explicit'>, settings: Settings): Promise<BundleSummary | null> {
    const { guard, clock, log } = this.ports;
    const tabId = signal.tab_id;
    if (facts.byPage) guard.bundleMade(tabId);
    if (facts.unattended) guard.signalBundleMade(tabId);
    const suppressedBefore = this.gate.begin(tabId, clock.now());
    // `runEnd` names the run it ended (null: none), which is no longer the tab's.
    const run = options.runOverride !== undefined ? options.runOverride : this.ports.run.runOf(tabId);
    // Registered before any await, so a concurrent explicit request for the same tab waits for it.
    const job = (async () => {
      await this.afterFailure(signal, settings);
      const bundle = await packageBundle(this.packager, {
        signal,
        suppressedBefore,
        settings,
        // Without a declared run, the bundle is the browser session's.
        runId: run?.runId ?? this.ports.run.runId,
        status: options.status ?? 'failure',
        level: settings.captureLevel,
        run: run ?? null,
        outcome: options.outcome ?? null,
        unattended: facts.unattended,
      });
      this.lastErrorText = null;
      const sinkSettings = (await this.ports.withSettledPolicy?.(settings)) ?? settings;
      await runSinks(this.ports.sinks, bundle, { settings: sinkSettings, status: options.status ?? 'failure' }, log);
      return bundle.summary;
    })()
      .catch((error: unknown) => {
        this.lastErrorText = errorMessage(error);
        throw error;
      })
      .finally(() => {
        this.gate.done(tabId);
        this.inflight.delete(tabId);
        this.ports.changed?.();
      });
    this.inflight.set(tabId, job);
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
