import type { Status } from '../../schemas/api';
import type { Settings } from '../../schemas/settings';
import { enforceRetention, retentionPolicy } from '../bundle/retention';
import type { CaptureLoop } from '../capture/capture-loop';
import { FrameSources } from '../capture/frame-sources';
import { onceUntilFailure } from '../shared/once-until-failure';
import type { WebRequestEvent } from '../signals/web-request-signal';
import { PageGuard } from '../trust/page-guard';
import { AgentCalls } from './agent-calls';
import { noToolCallsSignal, toolCallSignals } from '../signals/agent-checks';
import type { RawSignal } from '../signals/signal-rules';
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
import { TabLookup } from './tab-lookup';
import { TabScope } from './tab-scope';
import { TimelineUpkeep } from './timeline-upkeep';
import { applySettings } from './settings-effects';
import { forgetClosedTab } from './closed-tab';
import { scopeChanged } from './scope-change';
import { NetworkLog } from '../network/network-log';

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
  /** The agent's model and tool calls (`afr.modelCall`, `afr.toolCall`). */
  readonly calls: AgentCalls;
  readonly storedBundles: StoredBundles;
  /** `afr.waitForBundle`: woken as each bundle is stored. */
  readonly bundleWaiters: BundleWaiters;
  private readonly frames: FrameSources;
  private readonly run: RunState;
  /** The page's trust boundary: which frames speak for the page, and each tab's quotas. */
  private readonly guard: PageGuard;
  private readonly signals: SignalIntake;
  private readonly messages: MessageIntake;
  /** Which tabs are recorded (the `scope` setting); outside it nothing is captured, stored or bundled. */
  readonly scope: TabScope;
  /** Which tab a command is about, and each tab's URL. */
  private readonly tabs: TabLookup;
  private readonly timeline: TimelineUpkeep;
  /** Each recorded tab's requests, masked, for `network.har`. */
  private readonly network: NetworkLog;
  /** `start` has loaded the settings, the pause and the stores. */
  private isStarted = false;
  private followingSettings = false;

  constructor(readonly ports: RecorderPorts) {
    const settings = ports.settingsStore.get();
    const { clock, stepLog, debuggerState } = ports;
    const tabUrl = (tabId: number) => this.tabs.tabUrl(tabId);
    this.mode = new RecordingMode(ports.settingsStore, ports.sessionStore);
    this.run = new RunState(ports.sessionStore, ports.sessionRunId);
    this.scope = new TabScope({
      sessionStore: ports.sessionStore,
      settings: () => this.mode.settings,
      agentRunActive: () => this.run.active !== null,
      activeTab: ports.activeTab,
      changed: (tabId, recorded) => scopeChanged(this.ports, this.frames, tabId, recorded),
    });
    const recordsTab = (tabId: number) => this.scope.recordsTab(tabId);
    // Only the debugger sessions of recorded tabs cast (a session may outlive its tab's place in the scope a moment).
    const screencast = ports.screencast && { ...ports.screencast, attachedTabs: () => ports.screencast!.attachedTabs().filter(recordsTab) };
    this.frames = new FrameSources({ ...ports, screencast, tabUrl, recordsTab }, settings);
    this.tabs = new TabLookup({ frames: this.frames, settings: () => this.mode.settings, scope: this.scope, currentTabUrl: ports.currentTabUrl });
    this.timeline = new TimelineUpkeep(ports.timeline, ports.log);
    this.guard = new PageGuard(clock, ports.log);
    const { mode, frames, run, guard } = this;
    const scope = this.scope;
    this.bundleWaiters = new BundleWaiters(ports.bundles, clock);
    // The waiters' sink comes last: a waiter gets the summary with its download id.
    const sinks = [...ports.sinks, this.bundleWaiters.sink];
    this.network = new NetworkLog({
      clock,
      masker: () => this.mode.masker,
      settings: () => this.mode.settings,
      bodies: ports.networkBodies,
      sleep: ports.sleep,
      log: ports.log,
      appError: (tabId, seen) => void this.signals.handleAppError(tabId, seen).catch((error: unknown) => ports.log(`[afr] app_error of tab ${tabId} not handled: ${String(error)}`)),
    });
    this.failures = new FailureJobs({ ...ports, network: this.network, sinks, capture: frames, run, mode, guard, recordsTab, sleep: ports.sleep ?? defaultSleep, changed: ports.stateChanged, withSettledPolicy: (settings) => ports.settingsStore.withSettledPolicy(settings) }, settings.failureCooldownMs);
    const failures = this.failures;
    this.commands = new AgentCommands({
      stepLog,
      mode,
      run,
      failures,
      frames,
      guard,
      scope,
      tabUrl,
      timelineCheckpoint: ports.timelineCheckpoint,
      agentStepAdded: async (step) => {
        const signal = noToolCallsSignal(await stepLog.between(step.tab_id, 0, Number.MAX_SAFE_INTEGER), mode.settings.signals);
        if (signal) await this.signals.handleSignal(signal);
      },
    });
    this.signals = new SignalIntake({ clock, stepLog, mode, failures, debuggerState, tabUrl });
    // The agent-side signals: a tool call that failed, timed out or was slow; steps without a tool call.
    const agentSignals = (raws: readonly RawSignal[]) => raws.reduce((done, raw) => done.then(() => this.signals.handleSignal(raw)), Promise.resolve());
    this.calls = new AgentCalls({ clock, stepLog, mode, run, recordsTab, tabFor: (tabId) => this.tabFor(tabId), recorded: (step) => agentSignals(toolCallSignals(step, mode.settings.signals)) });
    const watchTab = (tabId: number) => recordsTab(tabId) && ports.watchTab(tabId);
    this.messages = new MessageIntake({ ...ports, watchTab, recordsTab, mode, frames, guard, commands: this.commands, signals: this.signals, untilStarted: () => this.untilStarted() });
    this.storedBundles = new StoredBundles(ports.bundles, ports.download, ports.delivery);
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
    await Promise.all([ring.load(), stepLog.load(), this.run.load(), this.timeline.load()]);
    await this.scope.load();
    await this.mode.loadPause();
    await this.apply(settings);
    this.isStarted = true;
    this.ports.stateChanged?.();
    void enforceRetention(bundles, clock.now(), retentionPolicy(settings), this.ports.delivery).catch((error: unknown) => log(`[afr] old bundles not deleted: ${String(error)}`));
  });

  /**
   * Waits for `start` when it has not finished: an event that woke the worker (a page's message, a
   * CDP event, a request) is handled with the user's settings and pause, not the defaults. Null once
   * started, so that events that follow are handled at once and in order.
   */
  private untilStarted(): Promise<void> | null {
    return this.isStarted ? null : this.start();
  }

  /** Brings every part to the settings and the pause in force; the state is told once started. */
  private apply(settings: Settings): Promise<void> {
    const parts = { ...this.ports, timeline: this.timeline, failures: this.failures, scope: this.scope, frames: this.frames };
    return applySettings(parts, settings, this.mode.paused, () => {
      if (this.isStarted) this.ports.stateChanged?.();
    });
  }

  /** Stops recording (frames, steps, signals) until resumed; the ring and bundles are kept. */
  async setPaused(paused: boolean): Promise<void> {
    await this.mode.setPaused(paused);
    await this.apply(this.mode.settings);
  }

  // ---- inputs from the browser ----

  /** The debugger session of a tab is ready: its frames may come from the screencast now. */
  async handleDebuggerAttached(tabId: number): Promise<void> {
    const starting = this.untilStarted();
    if (starting) await starting;
    // The tab left the scope while its session was being opened.
    if (!this.scope.recordsTab(tabId)) return this.ports.unwatchTab?.(tabId);
    await this.frames.handleDebuggerAttached();
  }

  /** The browser told of a tab's page (start-up, a navigation, a content script connecting). */
  handleTabSeen(tabId: number, url: string | null): void {
    this.scope.tabSeen(tabId, url);
  }

  /** A tab was created; `openerTabId` is the tab it was opened from, if any. */
  handleTabCreated(tabId: number, openerTabId: number | null, url: string | null): Promise<void> {
    return this.scope.tabCreated(tabId, openerTabId, url);
  }

  /** The operator's "Record this tab" toggle (`scope: 'chosen'`). */
  chooseTab(tabId: number, chosen: boolean): Promise<void> {
    return this.scope.choose(tabId, chosen);
  }

  /** Whether the tab is recorded now (see the `scope` setting). */
  recordsTab(tabId: number): boolean {
    return this.scope.recordsTab(tabId);
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
    // A session of a tab outside the scope (one left by an earlier worker, or closing now) tells nothing.
    if (!this.scope.recordsTab(tabId)) return;
    // A fault in the network log costs its requests, never the signals of the same event.
    try {
      if (this.mode.recordsTimeline) this.network.handleEvent(tabId, method, params);
    } catch (error) {
      this.ports.log(`[afr] ${method} of tab ${tabId} not logged: ${String(error)}`);
    }
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
    const { signals, messages, failures, guard, run, scope, frames } = this;
    forgetClosedTab({ signals, messages, failures, guard, run, scope, frames, ring: this.ports.ring }, tabId, this.ports.log);
    this.network.forgetTab(tabId);
  }

  /**
   * The tabs open now (at start-up): frames taken before `since` of any other tab (closed while the
   * worker was stopped, or in an earlier browser session, whose tab ids a new one gives again) keep
   * no anchor and go once past the window, so no bundle of a tab shows another's.
   */
  async keepTabs(open: Iterable<number>, since?: number): Promise<void> {
    await this.ports.ring.keepTabs(open, since);
  }

  /** The tabs open now (at start-up): the agent's and chosen tabs closed while the worker was stopped go. */
  async keepScopeTabs(open: Iterable<number>): Promise<void> {
    await this.scope.keepTabs(open);
  }

  // ---- what the APIs ask ----

  status(): Promise<Status> {
    return statusReport({ ...this.ports, frames: this.frames, run: this.run, mode: this.mode, failures: this.failures, guard: this.guard, scope: this.scope });
  }

  /** The tab a command is about, with its URL (see `TabLookup.tabFor`). */
  tabFor(tabId: number | undefined): Promise<{ tabId: number | null; url: string | null }> {
    return this.tabs.tabFor(tabId);
  }
}
