import type { Status } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import { enforceRetention, retentionPolicy } from '../bundle/retention';
import type { CaptureLoop } from '../capture/capture-loop';
import { FrameSources } from '../capture/frame-sources';
import { onceUntilFailure } from '../shared/once-until-failure';
import type { WebRequestEvent } from '../signals/web-request-signal';
import { PageGuard } from '../trust/page-guard';
import { AgentCommands } from './agent-commands';
import { BundleWaiters } from './bundle-waiters';
import { FailureJobs } from './failure-jobs';
import { MessageIntake, type MessageOrigin } from './message-intake';
import type { RecorderPorts } from './ports';
import type { TextMasker } from '../redact/mask-text';
import { RecordingMode } from './recording-mode';
import { RunState } from './run-state';
import { SignalIntake } from './signal-intake';
import { statusReport } from './status-report';
import { ringLimits, stepLogLimits } from './store-limits';
import { StoredBundles } from './stored-bundles';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The recorder controller: starts up, follows the settings and the pause, and wires the browser's
 * inputs to the parts that handle them (messages, signals, agent commands, failure jobs). All
 * browser access goes through its ports.
 */
export class Recorder {
  private readonly mode: RecordingMode;
  readonly failures: FailureJobs;
  readonly commands: AgentCommands;
  readonly storedBundles: StoredBundles;
  /** `afr.waitForBundle`: woken as each bundle is stored. */
  readonly bundleWaiters: BundleWaiters;
  private readonly frames: FrameSources;
  private readonly run: RunState;
  /** The page's trust boundary: which frames speak for the page, and each tab's quotas. */
  private readonly guard: PageGuard;
  private readonly signals: SignalIntake;
  private readonly messages: MessageIntake;
  /** `start` has loaded the settings, the pause and the stores. */
  private isStarted = false;
  private followingSettings = false;

  constructor(readonly ports: RecorderPorts) {
    const settings = ports.settingsStore.get();
    const { clock, stepLog, debuggerState } = ports;
    const tabUrl = (tabId: number) => this.tabUrl(tabId);
    this.mode = new RecordingMode(ports.settingsStore, ports.sessionStore);
    this.frames = new FrameSources({ ...ports, tabUrl }, settings);
    this.run = new RunState(ports.sessionStore, ports.sessionRunId);
    this.guard = new PageGuard(clock, ports.log);
    const { mode, frames, run, guard } = this;
    this.bundleWaiters = new BundleWaiters(ports.bundles, clock);
    // The waiters' sink comes last: a waiter gets the summary with its download id.
    const sinks = [...ports.sinks, this.bundleWaiters.sink];
    this.failures = new FailureJobs({ ...ports, sinks, capture: frames, run, mode, guard, sleep: ports.sleep ?? defaultSleep }, settings.failureCooldownMs);
    const failures = this.failures;
    this.commands = new AgentCommands({ stepLog, mode, run, failures, frames, guard });
    this.signals = new SignalIntake({ clock, stepLog, mode, failures, debuggerState, tabUrl });
    this.messages = new MessageIntake({ ...ports, mode, frames, guard, commands: this.commands, signals: this.signals, untilStarted: () => this.untilStarted() });
    this.storedBundles = new StoredBundles(ports.bundles, ports.download);
  }

  /** The masker of the settings in force, for text the worker produces outside the recorder (tab URLs). */
  get masker(): TextMasker {
    return this.mode.masker;
  }

  /** The `captureVisibleTab` loop (tests stop it to freeze the clock's effects). */
  get loop(): CaptureLoop {
    return this.frames.loop;
  }

  /**
   * Loads persisted state and starts capturing. Safe to call again (e.g. on every worker wake-up);
   * a start that failed (storage refused) is tried again by the next call.
   */
  readonly start = onceUntilFailure(async () => {
    const { settingsStore, ring, stepLog, bundles, clock, log } = this.ports;
    const settings = await settingsStore.load();
    if (!this.followingSettings) settingsStore.onChange((next) => void this.apply(next));
    this.followingSettings = true;
    // The user's limits before loading: loading evicts what they no longer allow, not what the defaults do not.
    await Promise.all([ring.setLimits(ringLimits(settings)), stepLog.setLimits(stepLogLimits(settings))]);
    await Promise.all([ring.load(), stepLog.load(), this.run.load()]);
    await this.mode.loadPause();
    await this.apply(settings);
    this.isStarted = true;
    void enforceRetention(bundles, clock.now(), retentionPolicy(settings)).catch((error: unknown) => log(`[afr] old bundles not deleted: ${String(error)}`));
  });

  /**
   * Waits for `start` when it has not finished: an event that woke the worker (a page's message, a
   * CDP event, a request) is handled with the user's settings and pause, not the defaults. Null once
   * started, so that events that follow are handled at once and in order.
   */
  private untilStarted(): Promise<void> | null {
    return this.isStarted ? null : this.start();
  }

  private async apply(settings: Settings): Promise<void> {
    this.failures.setCooldown(settings.failureCooldownMs);
    // Frames are taken from `screenshots` up; a level raised mid-run starts the capture at once.
    await Promise.all([
      this.frames.apply(settings, this.mode.paused),
      this.ports.ring.setLimits(ringLimits(settings)),
      this.ports.stepLog.setLimits(stepLogLimits(settings)),
    ]);
  }

  /** Stops recording (frames, steps, signals) until resumed; the ring and bundles are kept. */
  async setPaused(paused: boolean): Promise<void> {
    await this.mode.setPaused(paused);
    await this.apply(this.mode.settings);
  }

  // ---- inputs from the browser ----

  /** The debugger session of a tab is ready: its frames may come from the screencast now. */
  async handleDebuggerAttached(_tabId: number): Promise<void> {
    const starting = this.untilStarted();
    if (starting) await starting;
    await this.frames.handleDebuggerAttached();
  }

  /** The debugger session of a tab is gone (closed tab, or the user detached it): back to captureVisibleTab. */
  handleDebuggerDetached(tabId: number): void {
    this.frames.handleDebuggerDetached(tabId);
  }

  /** A tab started loading a new document: its sensitive regions are unknown until it reports. */
  handleNavigation(tabId: number): void {
    this.frames.handleNavigation(tabId);
  }

  /**
   * The content script of a document in a frame of a tab connected (its first message). In a frame
   * inside the page, the document may be another origin's, which the top document cannot look
   * into: see `FrameSources.handleSubframeLoad`.
   */
  handleFrameConnected(tabId: number, frameId: number, documentId: string | null, again = false): void {
    if (frameId !== 0) this.frames.handleSubframeLoad(tabId, documentId, again);
  }

  /** A message from a content script: see `MessageIntake`. */
  handleMessage(raw: unknown, origin: MessageOrigin): Promise<void> {
    return this.messages.handleMessage(raw, origin);
  }

  /** A CDP event of a recorded tab. */
  async handleCdpEvent(tabId: number, method: string, params: Record<string, unknown> | undefined, pageUrl: () => string | null): Promise<void> {
    if (method === 'Page.screencastFrame') return this.frames.handleScreencastFrame(tabId, params);
    const starting = this.untilStarted();
    if (starting) await starting;
    await this.signals.handleCdpEvent(tabId, method, params, pageUrl);
  }

  /** A request seen by `chrome.webRequest`: used only for tabs whose debugger is not attached. */
  async handleWebRequest(e: WebRequestEvent): Promise<void> {
    const starting = this.untilStarted();
    if (starting) await starting;
    await this.signals.handleWebRequest(e);
  }

  /** The tab was closed: its state goes, and its frames once they are past the window (no anchor kept). */
  forgetTab(tabId: number): void {
    this.signals.forget(tabId);
    this.messages.forget(tabId);
    this.failures.forget(tabId);
    this.guard.forget(tabId);
    void this.run.forget(tabId).catch((error: unknown) => this.ports.log(`[afr] page run of closed tab ${tabId} not forgotten: ${String(error)}`));
    this.frames.forgetTab(tabId);
    this.ports.ring.forgetTab(tabId);
  }

  /**
   * The tabs open now (at start-up): frames taken before `since` of any other tab (closed while the
   * worker was stopped, or in an earlier browser session, whose tab ids a new one gives again) keep
   * no anchor and go once past the window, so no bundle of a tab shows another's.
   */
  async keepTabs(open: Iterable<number>, since?: number): Promise<void> {
    await this.ports.ring.keepTabs(open, since);
  }

  // ---- what the APIs ask ----

  status(): Promise<Status> {
    return statusReport({ ...this.ports, frames: this.frames, run: this.run, mode: this.mode, failures: this.failures, guard: this.guard });
  }

  /**
   * The tab a command is about, with its URL. One named none means the visible tab of the first
   * window Chrome lists with a capturable page, asked now (the capture loop's list may be a tick
   * old: a tab that just navigated).
   */
  async tabFor(tabId: number | undefined): Promise<{ tabId: number | null; url: string | null }> {
    const tab = tabId ?? (await this.frames.listTargets())[0]?.tabId ?? null;
    return { tabId: tab, url: tab === null ? null : this.tabUrl(tab) };
  }

  /** The browser's latest word on the tab's URL; the capture loop's (a tick old) otherwise. */
  private tabUrl(tabId: number): string | null {
    return this.ports.currentTabUrl?.(tabId) ?? this.frames.targets().find((t) => t.tabId === tabId)?.url ?? null;
  }
}
