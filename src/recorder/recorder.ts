import type { ZodMiniType } from 'zod/mini';
import { apiInputSchema, type AgentCommand, type AgentCommandKind } from '../../schemas/agent';
import type { BundleSummary, Status } from '../../schemas/api';
import type { FailureSignal } from '../../schemas/failure';
import { STEP_BATCH_MAX, StepObservedMessageSchema, ToBackgroundMessageSchema, type StepObservedMessage, type ToBackgroundMessage } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import { packageBundle, type BundleOptions, type PackagerPorts } from '../bundle/packager';
import { BUNDLE_ID_PATTERN } from '../bundle/bundle-id';
import { bytesToBase64 } from '../shared/base64';
import type { CaptureLoop } from '../capture/capture-loop';
import { maskCommand } from '../redact/mask-command';
import type { KeyValueStore, SettingsStore } from '../settings/settings-store';
import { describeZodError } from '../shared/zod-error';
import { CdpSignalTranslator, WEB_REQUEST_TYPES } from '../signals/cdp-signals';
import { FailureGate } from '../signals/failure-gate';
import { explicitSignal, signalFromRaw } from '../signals/normalize-signal';
import { PAGE_ERROR_LIMITS } from '../../schemas/content-port';
import { maskSignalText, redactSignal } from '../signals/redact-signal';
import { evaluateSignal, type RawSignal } from '../signals/signal-rules';
import { reconcileTimestamp } from '../shared/timestamps';
import { RunState } from './run-state';
import { FrameSources, type FrameSourcePorts } from '../capture/frame-sources';
import { enforceRetention } from '../bundle/retention';
import { retentionPolicy } from '../bundle/packager';
import type { RedactionRules } from '../../schemas/settings';
import { PreviewRedactionInputSchema, SaveBundleInputSchema, type RedactionPreview } from '../../schemas/api';
import { commandStep, observedStep, signalStep } from './step-drafts';
import { STEPS_IN_FLIGHT_MS } from '../../schemas/content-port';

export interface RecorderPorts
  extends Omit<PackagerPorts, 'settings' | 'captureStats' | 'debuggerState' | 'runId'>,
    Pick<FrameSourcePorts, 'capturer' | 'screencast' | 'maskFrame' | 'requestRegions' | 'syncRegions'> {
  settingsStore: SettingsStore;
  debuggerState(tabId: number | null): { attached: boolean; error: string | null };
  /** Called for every tab the recorder sees activity in, so the platform can attach its debugger. */
  watchTab(tabId: number): void;
  /** Where the declared run and the pause survive service worker restarts (`chrome.storage.session`). */
  sessionStore: KeyValueStore;
  /** Waits (the after-failure tail); `setTimeout` by default. */
  sleep?(ms: number): Promise<void>;
  /** The tab's current URL (redacted) as the browser last reported it, if known. */
  currentTabUrl?(tabId: number): string | null;
  /** Asks the tab's content script what the given redaction rules (plus the built-in ones) would mask. */
  previewRedaction(tabId: number, rules: RedactionRules): Promise<RedactionPreview>;
  /** The browser session's run id, used when the agent declared no run. */
  sessionRunId(): string;
}

/** Who sent a content-script message (from `chrome.runtime.MessageSender`). */
export interface MessageOrigin {
  tabId: number | null;
  frameId: number | null;
}

/** A completed or failed request as `chrome.webRequest` reports it (the fallback without a debugger). */
export interface WebRequestEvent {
  tabId: number;
  url: string;
  method: string;
  type: string;
  statusCode: number | null;
  error: string | null;
}

interface TriggerOptions {
  explicit?: boolean;
  status?: BundleOptions['status'];
  runOverride?: BundleOptions['run'] | null;
  outcome?: 'passed' | 'failed';
}

/** Steps are kept a while longer than frames so a bundle shows what led into its window. */
const stepLogLimits = (s: Settings) => ({ maxSteps: 2_000, maxAgeMs: Math.max(60_000, s.bufferSeconds * 1000 * 2) });
/**
 * Beyond the window, how long the ring keeps frames for a bundle being made: the after-failure tail,
 * the failure's own frame (`FRAME_NOW_WAIT_MS`), the steps in flight, with room to spare.
 */
const RING_SPARE_MS = 5_000;
/** A bundle's window starts `bufferSeconds` before its signal, and its frames are read after the tail: they must last that long. */
const ringLimits = (s: Settings) => ({ maxAgeMs: (s.bufferSeconds + s.postFailureSeconds) * 1000 + RING_SPARE_MS, maxBytes: s.maxBufferBytes });

/** Thrown to the automation API caller with a message that says what was wrong. */
export class RecorderInputError extends Error {
  override readonly name = 'RecorderInputError';
}

/**
 * The recorder controller: owns the capture loop, routes messages, agent commands and signals, and
 * turns admitted failures into bundles. All browser access goes through its ports.
 */
export class Recorder {
  private readonly frames: FrameSources;
  private readonly gate: FailureGate;
  private readonly inflight = new Map<number | null, Promise<BundleSummary | null>>();
  private readonly translators = new Map<number, CdpSignalTranslator>();
  /** Per sender tab, when a malformed message was last logged and how many were dropped since without a word. */
  private readonly malformed = new Map<number | null, { loggedAt: number; unlogged: number }>();
  /** Each tab's recent exceptions not matched yet: when they arrived, when they were thrown, from where (see `isEcho`). */
  private readonly exceptions = new Map<number, { at: number; thrown: number; text: string; origin: RawSignal['origin'] }[]>();
  private readonly run: RunState;
  private started: Promise<void> | null = null;
  /** `start` has loaded the settings, the pause and the stores. */
  private isStarted = false;
  private followingSettings = false;
  private paused = false;

  constructor(private readonly ports: RecorderPorts) {
    const settings = ports.settingsStore.get();
    this.frames = new FrameSources({ ...ports, tabUrl: (tabId) => this.tabUrl(tabId) }, settings);
    this.gate = new FailureGate(settings.failureCooldownMs);
    this.run = new RunState(ports.sessionStore, ports.sessionRunId);
  }

  /** The `captureVisibleTab` loop (tests stop it to freeze the clock's effects). */
  get loop(): CaptureLoop {
    return this.frames.loop;
  }

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

  /**
   * Loads persisted state and starts capturing. Safe to call again (e.g. on every worker wake-up);
   * a start that failed (storage refused) is tried again by the next call.
   */
  start(): Promise<void> {
    this.started ??= (async () => {
      const settings = await this.ports.settingsStore.load();
      if (!this.followingSettings) this.ports.settingsStore.onChange((next) => void this.apply(next));
      this.followingSettings = true;
      // The user's limits before loading: loading evicts what they no longer allow, not what the defaults do not.
      await Promise.all([this.ports.ring.setLimits(ringLimits(settings)), this.ports.stepLog.setLimits(stepLogLimits(settings))]);
      await Promise.all([this.ports.ring.load(), this.ports.stepLog.load(), this.run.load()]);
      this.paused = (await this.ports.sessionStore.get(PAUSED_KEY)) === true;
      await this.apply(settings);
      this.isStarted = true;
      void enforceRetention(this.ports.bundles, this.ports.clock.now(), retentionPolicy(settings)).catch((error: unknown) =>
        this.ports.log(`[afr] old bundles not deleted: ${String(error)}`),
      );
    })().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  /**
   * Waits for `start` when it has not finished: an event that woke the worker (a page's message, a
   * CDP event, a request) is handled with the user's settings and pause, not the defaults. Null once
   * started, so that events that follow are handled at once and in order.
   */
  private untilStarted(): Promise<void> | null {
    return this.isStarted ? null : this.start();
  }

  private async apply(settings: Settings): Promise<void> {
    this.gate.setCooldown(settings.failureCooldownMs);
    // Frames are taken from `screenshots` up; a level raised mid-run starts the capture at once.
    await Promise.all([
      this.frames.apply(settings, this.paused),
      this.ports.ring.setLimits(ringLimits(settings)),
      this.ports.stepLog.setLimits(stepLogLimits(settings)),
    ]);
  }

  private get settings(): Settings {
    return this.ports.settingsStore.get();
  }

  private get recordingTimeline(): boolean {
    return this.settings.captureLevel !== 'off' && !this.paused;
  }

  // ---- inputs from the browser ----

  /**
   * A message from a content script. Anything that does not parse is dropped with a warning; a batch
   * of steps with an invalid one keeps its valid steps (content scripts do not validate what they send).
   */
  async handleMessage(raw: unknown, origin: MessageOrigin): Promise<void> {
    const parsed = ToBackgroundMessageSchema.safeParse(raw);
    let message: ToBackgroundMessage;
    if (parsed.success) message = parsed.data;
    else {
      const steps = validStepsOf(raw);
      this.logMalformed(origin.tabId, `${steps.length ? ` (kept ${steps.length} of its steps)` : ''}: ${describeZodError(parsed.error)}`);
      if (!steps.length) return;
      message = { type: 'step/batch', steps };
    }
    if (origin.tabId !== null) this.ports.watchTab(origin.tabId);
    // A page's regions hold for its document, whatever the settings: taken at once, before a
    // navigation that may follow forgets them (taken after it, they would mask the next page).
    if (message.type !== 'redaction/rects') {
      const starting = this.untilStarted();
      if (starting) await starting;
    }
    await this.route(message, origin);
  }

  /**
   * Logs a dropped message: the first of a tab's, then at most one per `MALFORMED_LOG_SPACING_MS` with
   * the count dropped since (a page bug in a frequent message must not flood the worker's console).
   */
  private logMalformed(tabId: number | null, detail: string): void {
    const now = this.ports.clock.now();
    const seen = this.malformed.get(tabId);
    if (seen && now - seen.loggedAt < MALFORMED_LOG_SPACING_MS) {
      seen.unlogged++;
      return;
    }
    if (!seen && this.malformed.size >= 256) this.malformed.clear();
    const since = seen?.unlogged ? ` (${seen.unlogged} more dropped without a warning since the last one)` : '';
    this.malformed.set(tabId, { loggedAt: now, unlogged: 0 });
    this.ports.log(`[afr] dropped a malformed message from tab ${tabId}${detail}${since}`);
  }

  private async route(message: ToBackgroundMessage, origin: MessageOrigin): Promise<void> {
    if (message.type === 'step/observed' || message.type === 'step/batch') return this.observed(message.type === 'step/batch' ? message.steps : [message], origin);
    const ts = reconcileTimestamp(message.ts, this.ports.clock.now());
    switch (message.type) {
      case 'redaction/rects':
        if (origin.tabId !== null && origin.frameId === 0) this.frames.updateRegions(origin.tabId, message);
        return;
      case 'agent/command':
        await this.command(message.command, { tabId: origin.tabId, url: message.url, ts, origin: 'page' });
        return;
      case 'signal/page-error':
        // The debugger reports the same exception with a better stack; the page's own report is the fallback.
        if (origin.tabId !== null && this.ports.debuggerState(origin.tabId).attached) return;
        await this.handleSignal({
          kind: 'exception',
          tabId: origin.tabId,
          pageUrl: message.url,
          // Dated when thrown, up to a minute before: the relay, the port and a worker starting may come in between.
          ts: reconcileTimestamp(message.ts, this.ports.clock.now(), ECHO_KEPT_MS),
          message: message.kind === 'unhandledrejection' ? `Uncaught (in promise): ${message.message}` : message.message,
          stack: message.stack,
          request: null,
          origin: 'page_fallback',
        });
        return;
    }
  }

  /** Steps a page observed, one or a batch of a quick run, in the order they happened. */
  private async observed(messages: readonly StepObservedMessage[], origin: MessageOrigin): Promise<void> {
    if (!this.recordingTimeline) return;
    const received = this.ports.clock.now();
    const steps = await this.ports.stepLog.addAll(messages.map((m) => observedStep(m, reconcileTimestamp(m.ts, received), origin.tabId, origin.frameId)));
    if (origin.tabId === null) return;
    const capture = this.settings.captureOnAction;
    // A document loading is no action of the agent's (each frame of a page reports its own): no burst.
    for (const step of steps) this.frames.handleAction(origin.tabId, step.ts, { capture, action: step.kind !== 'navigate' });
  }

  /** A CDP event of a recorded tab. */
  async handleCdpEvent(tabId: number, method: string, params: Record<string, unknown> | undefined, pageUrl: () => string | null): Promise<void> {
    if (method === 'Page.screencastFrame') return this.frames.handleScreencastFrame(tabId, params);
    const starting = this.untilStarted();
    if (starting) await starting;
    let translator = this.translators.get(tabId);
    if (!translator) {
      translator = new CdpSignalTranslator(tabId, pageUrl, () => this.ports.clock.now());
      this.translators.set(tabId, translator);
    }
    const raw = translator.translate(method, params);
    if (raw) await this.handleSignal(raw);
  }

  /** A request seen by `chrome.webRequest`: used only for tabs whose debugger is not attached. */
  async handleWebRequest(e: WebRequestEvent): Promise<void> {
    const starting = this.untilStarted();
    if (starting) await starting;
    if (e.tabId < 0 || this.ports.debuggerState(e.tabId).attached) return;
    const request = { url: e.url, method: e.method, status: e.statusCode, resourceType: WEB_REQUEST_TYPES[e.type] ?? 'Other', durationMs: null, errorText: e.error };
    const pageUrl = e.type === 'main_frame' ? e.url : this.tabUrl(e.tabId);
    const base = { tabId: e.tabId, pageUrl, ts: this.ports.clock.now(), stack: null, request, origin: 'web_request' as const };
    if (e.error !== null) {
      if (e.error === 'net::ERR_ABORTED') return;
      await this.handleSignal({ ...base, kind: 'network_failure', message: `${e.method} ${e.url} failed: ${e.error}` });
    } else if (e.statusCode !== null && e.statusCode >= 400) {
      await this.handleSignal({ ...base, kind: e.statusCode >= 500 ? 'http_5xx' : 'http_4xx', message: `HTTP ${e.statusCode}: ${e.method} ${e.url}` });
    }
  }

  /** The tab was closed: its state goes, and its frames once they are past the window (no anchor kept). */
  forgetTab(tabId: number): void {
    this.translators.delete(tabId);
    this.malformed.delete(tabId);
    this.exceptions.delete(tabId);
    this.gate.forget(tabId);
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

  /** Applies the signal rules: ignore, put on the timeline, or bundle. */
  async handleSignal(raw: RawSignal): Promise<void> {
    if (!this.recordingTimeline || this.isEcho(raw)) return;
    const { disposition } = evaluateSignal(this.settings.signals, raw);
    if (disposition === 'ignore') return;
    const signal = signalFromRaw(raw);
    // An exception thrown long before it came (a debugger session attaching replays the document's
    // earlier ones) goes on the timeline at its time: a bundle now would not show it.
    const longPast = raw.kind === 'exception' && raw.origin === 'debugger' && this.ports.clock.now() - raw.ts > ECHO_KEPT_MS;
    if (disposition === 'record' || this.settings.persistMode === 'manual' || longPast) {
      await this.ports.stepLog.add(signalStep(redactSignal(signal), 'record'));
      return;
    }
    // A crash ends the page: it is no storm's repeat, and the last chance to bundle it (after the
    // bundle of an exception that led to it, if one is being made).
    await this.trigger(signal, { explicit: raw.kind === 'crash' });
  }

  /**
   * Whether the exception came from the other source already: the page reports its own exceptions
   * only while the tab has no debugger session, but one that started meanwhile (a worker restarted,
   * a session attaching and replaying the document's exceptions) may report the same one. Both say
   * when it was thrown; the page says "Uncaught Error: x", masked and capped, where CDP says
   * "Error: x" (a rejection is "Uncaught (in promise): …" in both), and "Script error." for a throw
   * in another origin's script, whose message CDP knows. A report is matched once, with its closest
   * twin in time (one of the same message before a "Script error."), so the same error thrown again
   * soon after is a new one. A replay from long ago waits for no twin.
   */
  private isEcho(raw: RawSignal): boolean {
    if (raw.kind !== 'exception' || raw.tabId === null) return false;
    const now = this.ports.clock.now();
    const text = echoText(raw.message, raw.origin);
    const recent = (this.exceptions.get(raw.tabId) ?? []).filter((e) => now - e.at < ECHO_KEPT_MS);
    // The page's "Script error." and CDP's report of that throw (not of a rejection).
    const crossOrigin = (e: (typeof recent)[number]) => {
      const [page, cdp] = e.origin === 'page_fallback' ? [e.text, text] : [text, e.text];
      return page === CROSS_ORIGIN_ERROR && !cdp.startsWith('Uncaught (in promise)');
    };
    const closest = (match: (e: (typeof recent)[number]) => boolean) => {
      let twin: (typeof recent)[number] | undefined;
      for (const e of recent) {
        if (e.origin === raw.origin || Math.abs(e.thrown - raw.ts) > ECHO_SKEW_MS || !match(e)) continue;
        if (!twin || Math.abs(e.thrown - raw.ts) < Math.abs(twin.thrown - raw.ts)) twin = e;
      }
      return twin;
    };
    const twin = closest((e) => e.text === text) ?? closest(crossOrigin);
    if (twin) recent.splice(recent.indexOf(twin), 1);
    else if (now - raw.ts <= ECHO_KEPT_MS) recent.push({ at: now, thrown: raw.ts, text, origin: raw.origin });
    this.exceptions.set(raw.tabId, recent.slice(-ECHO_KEPT));
    return twin !== undefined;
  }

  // ---- agent commands (page protocol and automation API) ----

  private async command(
    raw: AgentCommand,
    at: { tabId: number | null; url: string | null; ts: number; origin: 'page' | 'agent' },
  ): Promise<string | null> {
    const c = maskCommand(raw);
    if (c.kind === 'runStart') {
      await this.run.start({
        runId: c.runId ?? `run-${at.ts.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        agent: c.agent ?? null,
        agentVersion: c.agentVersion ?? null,
        task: c.task ?? null,
        startedAt: at.ts,
      });
    }
    const runId = this.run.runId;
    if (this.recordingTimeline && c.kind !== 'fail') await this.ports.stepLog.add(commandStep(c, at.ts, at.tabId, at.url, runId));
    if (this.recordingTimeline && (c.kind === 'step' || c.kind === 'assert') && at.tabId !== null) {
      this.frames.handleAction(at.tabId, at.ts, { capture: this.settings.captureOnAction, action: true });
    }
    switch (c.kind) {
      case 'runStart':
        return runId;
      case 'fail': {
        const explicit = at.origin === 'agent';
        const bundle = await this.trigger(explicitSignal({ ...at, reason: c.reason, label: c.label ?? null }), { explicit });
        return bundle?.id ?? null;
      }
      case 'assert': {
        if (c.passed || this.settings.persistMode === 'manual') return null;
        const message = [c.expected !== undefined && `expected ${c.expected}`, c.actual !== undefined && `actual ${c.actual}`].filter(Boolean).join(', ');
        const signal = explicitSignal({ ...at, reason: 'assertion_failed', label: c.label, kind: 'assertion', message: message ? `${c.label}: ${message}` : c.label });
        return (await this.trigger(signal, { explicit: at.origin === 'agent' }))?.id ?? null;
      }
      case 'runEnd': {
        const ended = await this.run.end();
        if (this.settings.persistMode !== 'always') return null;
        const passed = c.outcome !== 'failed';
        const signal = explicitSignal({ ...at, reason: passed ? 'run_passed' : 'run_failed', label: c.label ?? null });
        const bundle = await this.trigger(signal, { explicit: true, status: passed ? 'success' : 'failure', runOverride: ended, outcome: c.outcome ?? 'passed' });
        return bundle?.id ?? null;
      }
      default:
        return null;
    }
  }

  /**
   * Records the signal on the timeline and, if the gate admits it, packages a bundle.
   * Resolves to the bundle, or null when the signal was suppressed.
   */
  private async trigger(raw: FailureSignal, options: TriggerOptions = {}): Promise<BundleSummary | null> {
    // The window's frames are kept from the signal on: it may wait for the tab's bundle being made,
    // then for its own tail, longer than the ring keeps frames past the window.
    // The settings of the moment of the signal make its bundle: its window is the one kept.
    const settings = this.settings;
    const release = raw.tab_id === null ? () => undefined : this.ports.ring.pinWindow(raw.tab_id, raw.ts - settings.bufferSeconds * 1000);
    try {
      return await this.admitAndPackage(raw, options, settings);
    } finally {
      release();
    }
  }

  private async admitAndPackage(raw: FailureSignal, options: TriggerOptions, settings: Settings): Promise<BundleSummary | null> {
    const signal = redactSignal(raw);
    const explicit = options.explicit ?? false;
    let verdict = this.gate.admit(signal.tab_id, this.ports.clock.now(), { ignoreCooldown: explicit });
    while (!verdict.admitted && explicit && this.inflight.has(signal.tab_id)) {
      await this.inflight.get(signal.tab_id)!.catch(() => null);
      verdict = this.gate.admit(signal.tab_id, this.ports.clock.now(), { ignoreCooldown: true });
    }
    if (!verdict.admitted) {
      if (this.recordingTimeline) await this.ports.stepLog.add(signalStep(signal, 'suppressed'));
      this.ports.log(`[afr] ${signal.reason} on tab ${signal.tab_id} not bundled: ${verdict.why}`);
      return null;
    }
    const run = options.runOverride ?? this.run.active;
    // Registered before any await, so a concurrent explicit request for the same tab waits for it.
    const job = (async () => {
      const tabId = signal.tab_id;
      if (tabId !== null) this.frames.handleFailure(tabId);
      if (this.recordingTimeline) await this.ports.stepLog.add(signalStep(signal, 'trigger'));
      // The after-failure tail: recording goes on, so the clip shows what the failure led to. It
      // starts and ends with a frame of the page as it is (a screencast may not have sent the last change).
      // A crashed page has nothing left to show.
      const frameNow = () => (tabId !== null && signal.kind !== 'crash' ? this.frames.frameNow(tabId) : Promise.resolve());
      if (settings.postFailureSeconds > 0) {
        void frameNow();
        await (this.ports.sleep ?? defaultSleep)(settings.postFailureSeconds * 1000);
      }
      await frameNow();
      return packageBundle(
        {
          ...this.ports,
          settings: () => settings,
          runId: () => run?.runId ?? this.run.runId,
          captureStats: () => this.frames.stats(),
          debuggerState: (t) => this.ports.debuggerState(t),
          // A step taken just before the window's end may still be in its page's batch: wait until it is in.
          stepsSettled: async (windowEnd) => {
            const wait = Math.min(STEPS_IN_FLIGHT_MS, windowEnd + STEPS_IN_FLIGHT_MS - this.ports.clock.now());
            if (wait > 0) await (this.ports.sleep ?? defaultSleep)(wait);
          },
        },
        signal,
        verdict.suppressedBefore,
        { status: options.status ?? 'failure', level: settings.captureLevel, run: run ?? null, outcome: options.outcome ?? null },
      );
    })().finally(() => {
      this.gate.done(signal.tab_id);
      this.inflight.delete(signal.tab_id);
    });
    this.inflight.set(signal.tab_id, job);
    return job;
  }

  /**
   * The tab an agent means when it names none: the visible tab of the first window Chrome lists with
   * a capturable page, asked now (the capture loop's list may be a tick old: a tab that just navigated).
   */
  private async defaultTab(): Promise<{ tabId: number | null; url: string | null }> {
    const tabId = (await this.frames.listTargets())[0]?.tabId ?? null;
    return { tabId, url: this.tabUrl(tabId) };
  }

  /** The browser's latest word on the tab's URL; the capture loop's (a tick old) otherwise. */
  private tabUrl(tabId: number | null): string | null {
    if (tabId === null) return null;
    return this.ports.currentTabUrl?.(tabId) ?? this.frames.targets().find((t) => t.tabId === tabId)?.url ?? null;
  }

  // ---- the automation API (globalThis.afr) ----

  /** Runs an agent command given through the API: validated, bound to a tab, masked, recorded. */
  private async apiCommand<K extends AgentCommandKind>(kind: K, input: unknown): Promise<string | null> {
    const schema = apiInputSchema(kind) as unknown as ZodMiniType<{ tabId?: number } & Record<string, unknown>>;
    const parsed = schema.safeParse(input);
    if (!parsed.success) throw new RecorderInputError(`afr.${kind}: ${describeZodError(parsed.error)}`);
    const { tabId, ...fields } = parsed.data;
    const ts = this.ports.clock.now();
    const tab = tabId === undefined ? await this.defaultTab() : { tabId, url: this.tabUrl(tabId) };
    return this.command({ kind, ...fields } as AgentCommand, { ...tab, ts, origin: 'agent' });
  }

  async fail(input: unknown): Promise<string> {
    const id = await this.apiCommand('fail', input);
    if (!id) throw new Error('afr.fail: the failure was not bundled');
    return id;
  }

  async step(input: unknown): Promise<void> {
    await this.apiCommand('step', input);
  }

  /** Resolves to the bundle id when the failed assertion produced one, else null. */
  assert(input: unknown): Promise<string | null> {
    return this.apiCommand('assert', input);
  }

  async mark(input: unknown): Promise<void> {
    await this.apiCommand('mark', input);
  }

  /** Resolves to the run id (the given one, or a generated one). */
  async runStart(input: unknown = {}): Promise<string> {
    return (await this.apiCommand('runStart', input))!;
  }

  /** Resolves to the run's bundle id when persistMode is `always`, else null. */
  runEnd(input: unknown = {}): Promise<string | null> {
    return this.apiCommand('runEnd', input);
  }

  // ---- the operator API (popup, options, library pages) ----

  /** Stops recording (frames, steps, signals) until `resume`; the ring and bundles are kept. */
  async pause(): Promise<Status> {
    this.paused = true;
    await this.ports.sessionStore.set(PAUSED_KEY, true);
    await this.apply(this.settings);
    return this.status();
  }

  async resume(): Promise<Status> {
    this.paused = false;
    await this.ports.sessionStore.set(PAUSED_KEY, false);
    await this.apply(this.settings);
    return this.status();
  }

  /** A bundle on the operator's request (reason `manual`), whatever the persist mode and cooldown. */
  async saveBundle(input: unknown = {}): Promise<string> {
    const parsed = SaveBundleInputSchema.safeParse(input ?? {});
    if (!parsed.success) throw new RecorderInputError(`saveBundle: ${describeZodError(parsed.error)}`);
    const ts = this.ports.clock.now();
    const tab = parsed.data.tabId === undefined ? await this.defaultTab() : { tabId: parsed.data.tabId, url: this.tabUrl(parsed.data.tabId) };
    const signal = explicitSignal({ ...tab, ts, reason: 'manual', label: 'saved by the operator', origin: 'operator' });
    const bundle = await this.trigger(signal, { explicit: true });
    if (!bundle) throw new Error('saveBundle: the bundle was not written');
    return bundle.id;
  }

  /** Saves a stored bundle to the downloads folder; resolves to the download id. */
  async downloadBundle(id: unknown): Promise<number> {
    const bundleId = checkBundleId(id);
    const zip = await this.ports.bundles.read(bundleId);
    if (!zip) throw new RecorderInputError(`no bundle with id ${bundleId}`);
    const downloadId = await this.ports.download(bundleId, zip);
    await this.ports.bundles.setDownloadId(bundleId, downloadId);
    return downloadId;
  }

  /** What the given custom rules, with the built-in ones, would mask on a tab. */
  async previewRedaction(input: unknown): Promise<RedactionPreview> {
    const parsed = PreviewRedactionInputSchema.safeParse(input);
    if (!parsed.success) throw new RecorderInputError(`previewRedaction: ${describeZodError(parsed.error)}`);
    return this.ports.previewRedaction(parsed.data.tabId, parsed.data.rules);
  }

  async status(): Promise<Status> {
    const stats = this.frames.stats();
    const ring = this.ports.ring.stats();
    const run = this.run.active;
    const settings = this.settings;
    const now = this.ports.clock.now();
    // Frames stored in the last 10 s, whatever their source.
    const recent = (await this.ports.ring.frames()).filter((f) => f.ts > now - 10_000).length;
    return {
      recording: this.frames.recording,
      paused: this.paused,
      tabs: this.frames.targets().map((t) => {
        const dbg = this.ports.debuggerState(t.tabId);
        return {
          ...t,
          debugger: dbg.attached,
          debuggerError: dbg.error,
          signals: dbg.attached ? ('debugger' as const) : ('page' as const),
          source: this.frames.sourceOf(t.tabId),
        };
      }),
      frames: ring.frames,
      bytes: ring.bytes,
      fps: recent / 10,
      oldestFrameAgeMs: ring.oldestTs === null ? null : this.ports.clock.now() - ring.oldestTs,
      capturesOk: stats.capturesOk,
      captureErrors: stats.captureErrors,
      quotaErrors: stats.quotaErrors,
      lastCaptureError: stats.lastError,
      droppedFrames: stats.dropped,
      storage: { quotaErrors: ring.quotaErrors, lastError: ring.lastStorageError, framesInMemory: ring.framesInMemory },
      steps: this.ports.stepLog.size,
      bundles: (await this.ports.bundles.list()).length,
      packaging: this.inflight.size > 0,
      runId: this.run.runId,
      run: {
        active: run !== null,
        agent: run?.agent ?? null,
        agentVersion: run?.agentVersion ?? null,
        task: run?.task ?? null,
        startedAt: run ? new Date(run.startedAt).toISOString() : null,
      },
      captureLevel: settings.captureLevel,
      persistMode: settings.persistMode,
      version: this.ports.extension.version,
    };
  }

  listBundles(): Promise<BundleSummary[]> {
    return this.ports.bundles.list();
  }

  async exportBundle(id: unknown): Promise<string> {
    const zip = await this.ports.bundles.read(checkBundleId(id));
    if (!zip) throw new RecorderInputError(`no bundle with id ${String(id)}`);
    return bytesToBase64(zip);
  }

  async deleteBundle(id: unknown): Promise<boolean> {
    return this.ports.bundles.delete(checkBundleId(id));
  }

  settingsSnapshot(): Settings {
    return this.settings;
  }

  configure(patch: unknown): Promise<Settings> {
    return this.ports.settingsStore.update(patch);
  }
}

const PAUSED_KEY = 'paused';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function checkBundleId(id: unknown): string {
  if (typeof id !== 'string' || !BUNDLE_ID_PATTERN.test(id)) throw new RecorderInputError(`not a bundle id: ${JSON.stringify(id)}`);
  return id;
}

/** A tab's malformed messages are logged at most once per this many ms. */
const MALFORMED_LOG_SPACING_MS = 10_000;
/** The page and CDP date an exception they both report this close (both read the renderer's clock). */
const ECHO_SKEW_MS = 1_000;
/** Messages are compared by their first line, up to this long (the page caps its reports at `PAGE_ERROR_LIMITS.messageChars`). */
const ECHO_TEXT_CHARS = 1_024;
/** A report waits this long for its twin from the other source (a session attaching replays it later). */
const ECHO_KEPT_MS = 60_000;
/** What the page is told of an exception in another origin's script. */
const CROSS_ORIGIN_ERROR = 'Script error.';

/** An exception's message as both sources can say it: its first line, the page's "Uncaught " off, masked as the page masks it. */
function echoText(message: string, origin: RawSignal['origin']): string {
  const line = message.slice(0, PAGE_ERROR_LIMITS.messageChars).split('\n', 1)[0]!;
  return maskSignalText(origin === 'page_fallback' ? line.replace(/^Uncaught (?!\(in promise\))/, '') : line).slice(0, ECHO_TEXT_CHARS);
}
/** At most this many of a tab's recent exceptions are remembered (a loop throwing in every frame). */
const ECHO_KEPT = 20;

/** The steps of a malformed `step/batch` that are valid on their own, at most a batch's worth. */
function validStepsOf(raw: unknown): StepObservedMessage[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const { type, steps } = raw as { type?: unknown; steps?: unknown };
  if (type !== 'step/batch' || !Array.isArray(steps)) return [];
  return steps.slice(0, STEP_BATCH_MAX).flatMap((step: unknown) => {
    const parsed = StepObservedMessageSchema.safeParse(step);
    return parsed.success ? [parsed.data] : [];
  });
}
