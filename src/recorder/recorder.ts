import type { BundleSummary, FailInput, Status, StepInput } from '../../schemas/api';
import { FailInputSchema, StepInputSchema } from '../../schemas/api';
import type { FailureSignal } from '../../schemas/failure';
import { ToBackgroundMessageSchema, type ToBackgroundMessage } from '../../schemas/messages';
import type { Settings } from '../../schemas/settings';
import type { StepDraft } from '../../schemas/steps';
import { packageBundle, type PackagerPorts } from '../bundle/packager';
import { CaptureLoop } from '../capture/capture-loop';
import type { Capturer } from '../capture/ports';
import type { SettingsStore } from '../settings/settings-store';
import { describeZodError } from '../settings/settings-store';
import { FailureGate } from '../signals/failure-gate';
import { describeCdpException, exceptionSignal, explicitSignal, http5xxSignal, type CdpExceptionDetails } from '../signals/normalize-signal';
import { redactSignal } from '../signals/redact-signal';
import { maskText } from '../redact/mask-text';
import { reconcileTimestamp } from '../steps/timeline';
import { BUNDLE_ID_PATTERN } from '../bundle/bundle-id';
import { bytesToBase64 } from '../bundle/base64';

export interface RecorderPorts extends Omit<PackagerPorts, 'settings' | 'captureStats' | 'debuggerState'> {
  settingsStore: SettingsStore;
  capturer: Capturer;
  debuggerState(tabId: number | null): { attached: boolean; error: string | null };
  /** Called for every tab the recorder sees activity in, so the platform can attach its debugger. */
  watchTab(tabId: number): void;
}

/** Who sent a content-script message (from `chrome.runtime.MessageSender`). */
export interface MessageOrigin {
  tabId: number | null;
  frameId: number | null;
  tabUrl: string | null;
}

/** Steps are kept a while longer than frames so a bundle shows what led into its window. */
const timelineLimits = (s: Settings) => ({ maxSteps: 2_000, maxAgeMs: Math.max(60_000, s.bufferSeconds * 1000 * 2) });
const ringLimits = (s: Settings) => ({ maxAgeMs: s.bufferSeconds * 1000, maxBytes: s.maxBufferBytes });

/** Thrown to the automation API caller with a message that says what was wrong. */
export class RecorderInputError extends Error {
  override readonly name = 'RecorderInputError';
}

/**
 * The recorder controller: owns the capture loop, routes messages and signals, and turns admitted
 * failures into bundles. All browser access goes through its ports.
 */
export class Recorder {
  readonly loop: CaptureLoop;
  private readonly gate: FailureGate;
  private readonly inflight = new Map<number | null, Promise<BundleSummary | null>>();
  private started: Promise<void> | null = null;

  constructor(private readonly ports: RecorderPorts) {
    const settings = ports.settingsStore.get();
    this.loop = new CaptureLoop(ports.capturer, ports.ring, ports.clock, { intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality }, ports.log);
    this.gate = new FailureGate(settings.failureCooldownMs);
  }

  /** Loads persisted state and starts capturing. Safe to call again (e.g. on every worker wake-up). */
  start(): Promise<void> {
    this.started ??= (async () => {
      const settings = await this.ports.settingsStore.load();
      this.ports.settingsStore.onChange((next) => void this.apply(next));
      await this.apply(settings);
      await Promise.all([this.ports.ring.load(), this.ports.timeline.load()]);
      this.loop.start();
    })();
    return this.started;
  }

  private async apply(settings: Settings): Promise<void> {
    this.loop.configure({ intervalMs: settings.captureIntervalMs, jpegQuality: settings.jpegQuality });
    this.gate.setCooldown(settings.failureCooldownMs);
    await Promise.all([this.ports.ring.setLimits(ringLimits(settings)), this.ports.timeline.setLimits(timelineLimits(settings))]);
  }

  private get settings(): Settings {
    return this.ports.settingsStore.get();
  }

  /** A message from a content script. Anything that does not parse is dropped with a warning. */
  async handleMessage(raw: unknown, origin: MessageOrigin): Promise<void> {
    const parsed = ToBackgroundMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.ports.log(`[afr] dropped a malformed message from tab ${origin.tabId}: ${describeZodError(parsed.error)}`);
      return;
    }
    if (origin.tabId !== null) this.ports.watchTab(origin.tabId);
    await this.route(parsed.data, origin);
  }

  private async route(message: ToBackgroundMessage, origin: MessageOrigin): Promise<void> {
    const now = this.ports.clock.now();
    const ts = reconcileTimestamp(message.ts, now);
    switch (message.type) {
      case 'step/observed':
        await this.ports.timeline.add({
          ts,
          tab_id: origin.tabId,
          frame_id: origin.frameId,
          url: message.url,
          source: message.from_agent ? 'agent' : 'observer',
          kind: message.kind,
          action: message.action,
          target: message.target,
          value: message.value_redacted ? null : message.value,
          value_redacted: message.value_redacted,
          outcome: message.outcome,
          label: message.label,
        });
        if (this.settings.captureOnAction && origin.tabId !== null) this.loop.requestCapture(origin.tabId);
        return;
      case 'signal/page-fail':
        await this.trigger(explicitSignal({ tabId: origin.tabId, url: message.url, ts, reason: message.reason, label: message.label, origin: 'page' }));
        return;
      case 'signal/page-error':
        // The debugger reports the same exception with a better stack; the page's own report is the fallback.
        if (origin.tabId !== null && this.ports.debuggerState(origin.tabId).attached) return;
        if (!this.settings.triggerOnPageException) return;
        await this.trigger(
          exceptionSignal({
            tabId: origin.tabId,
            url: message.url,
            ts,
            origin: 'page_fallback',
            message: message.kind === 'unhandledrejection' ? `Uncaught (in promise): ${message.message}` : message.message,
            stack: message.stack,
          }),
        );
        return;
    }
  }

  /** CDP `Runtime.exceptionThrown` for a tab. */
  async handleException(tabId: number, url: string | null, details: CdpExceptionDetails): Promise<void> {
    if (!this.settings.triggerOnPageException) return;
    const { message, stack } = describeCdpException(details);
    await this.trigger(exceptionSignal({ tabId, url, ts: this.ports.clock.now(), origin: 'debugger', message, stack }));
  }

  /** A completed main-frame document response. */
  async handleDocumentResponse(tabId: number, url: string, status: number, statusLine: string | null): Promise<void> {
    if (status < 500 || !this.settings.triggerOnHttp5xx || tabId < 0) return;
    await this.trigger(http5xxSignal({ tabId, url, ts: this.ports.clock.now(), status, statusLine }));
  }

  /**
   * Records the signal on the timeline and, if the gate admits it, packages a bundle.
   * Resolves to the bundle, or null when the signal was suppressed.
   */
  private async trigger(raw: FailureSignal, { explicit = false } = {}): Promise<BundleSummary | null> {
    const signal = redactSignal(raw);
    await this.ports.timeline.add(signalStep(signal));
    let verdict = this.gate.admit(signal.tab_id, this.ports.clock.now(), { ignoreCooldown: explicit });
    while (!verdict.admitted && explicit && this.inflight.has(signal.tab_id)) {
      await this.inflight.get(signal.tab_id)!.catch(() => null);
      verdict = this.gate.admit(signal.tab_id, this.ports.clock.now(), { ignoreCooldown: true });
    }
    if (!verdict.admitted) {
      this.ports.log(`[afr] ${signal.reason} on tab ${signal.tab_id} not bundled: ${verdict.why}`);
      return null;
    }
    const job = packageBundle(
      { ...this.ports, settings: () => this.settings, captureStats: () => this.loop.stats(), debuggerState: (t) => this.ports.debuggerState(t) },
      signal,
      verdict.suppressedBefore,
    ).finally(() => {
      this.gate.done(signal.tab_id);
      this.inflight.delete(signal.tab_id);
    });
    this.inflight.set(signal.tab_id, job);
    return job;
  }

  /** The tab an agent means when it names none: the most recently captured visible tab. */
  private defaultTab(): { tabId: number | null; url: string | null } {
    const target = this.loop.targets()[0];
    return { tabId: target?.tabId ?? null, url: target?.url ?? null };
  }

  private tabUrl(tabId: number | null): string | null {
    return this.loop.targets().find((t) => t.tabId === tabId)?.url ?? null;
  }

  // ---- the automation API (globalThis.afr) ----

  async fail(input: unknown): Promise<string> {
    const parsed = FailInputSchema.safeParse(input);
    if (!parsed.success) throw new RecorderInputError(`afr.fail: ${describeZodError(parsed.error)}`);
    const { tabId, reason, label }: FailInput = parsed.data;
    const tab = tabId === undefined ? this.defaultTab() : { tabId, url: this.tabUrl(tabId) };
    const signal = explicitSignal({ ...tab, ts: this.ports.clock.now(), reason, label: label ?? null, origin: 'agent' });
    const bundle = await this.trigger(signal, { explicit: true });
    if (!bundle) throw new Error('afr.fail: the failure was not bundled');
    return bundle.id;
  }

  async step(input: unknown): Promise<void> {
    const parsed = StepInputSchema.safeParse(input);
    if (!parsed.success) throw new RecorderInputError(`afr.step: ${describeZodError(parsed.error)}`);
    const s: StepInput = parsed.data;
    const tabId = s.tabId ?? null;
    await this.ports.timeline.add({
      ts: this.ports.clock.now(),
      tab_id: tabId,
      frame_id: null,
      url: this.tabUrl(tabId),
      source: 'agent',
      kind: 'agent',
      action: maskText(s.action).text,
      target: s.target === undefined ? null : maskText(s.target).text,
      value: null,
      value_redacted: false,
      outcome: s.outcome ?? null,
      label: s.label === undefined ? null : maskText(s.label).text,
    });
    if (tabId !== null && this.settings.captureOnAction) this.loop.requestCapture(tabId);
  }

  async status(): Promise<Status> {
    const stats = this.loop.stats();
    const ring = this.ports.ring.stats();
    return {
      recording: this.loop.isRunning,
      tabs: this.loop.targets().map((t) => ({ ...t, debugger: this.ports.debuggerState(t.tabId).attached })),
      frames: ring.frames,
      bytes: ring.bytes,
      fps: stats.fps,
      oldestFrameAgeMs: ring.oldestTs === null ? null : this.ports.clock.now() - ring.oldestTs,
      capturesOk: stats.capturesOk,
      captureErrors: stats.captureErrors,
      quotaErrors: stats.quotaErrors,
      lastCaptureError: stats.lastError,
      steps: this.ports.timeline.size,
      bundles: (await this.ports.bundles.list()).length,
      packaging: this.inflight.size > 0,
      runId: this.ports.runId(),
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

function checkBundleId(id: unknown): string {
  if (typeof id !== 'string' || !BUNDLE_ID_PATTERN.test(id)) throw new RecorderInputError(`not a bundle id: ${JSON.stringify(id)}`);
  return id;
}

/** The timeline entry every failure signal leaves, bundled or not. */
function signalStep(signal: FailureSignal): StepDraft {
  return {
    ts: signal.ts,
    tab_id: signal.tab_id,
    frame_id: null,
    url: signal.url,
    source: 'recorder',
    kind: 'signal',
    action: `failure: ${signal.reason}`,
    target: null,
    value: null,
    value_redacted: false,
    outcome: 'fail',
    label: signal.message,
  };
}
