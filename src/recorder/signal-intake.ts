import type { Clock } from '../shared/clock';
import type { StepLog } from '../steps/step-log';
import { CdpSignalTranslator } from '../signals/cdp-signals';
import { ECHO_KEPT_MS, ExceptionEchoes } from '../signals/exception-echo';
import { signalFromRaw } from '../signals/normalize-signal';
import { redactSignal } from '../signals/redact-signal';
import { evaluateSignal, type RawSignal } from '../signals/signal-rules';
import { webRequestSignal, type WebRequestEvent } from '../signals/web-request-signal';
import type { FailureJobs } from './failure-jobs';
import type { RecordingMode } from './recording-mode';
import { signalStep } from './step-drafts';

/** What the signal intake reads and where admitted failures go. */
export interface SignalIntakePorts {
  clock: Clock;
  stepLog: StepLog;
  mode: RecordingMode;
  failures: Pick<FailureJobs, 'trigger'>;
  debuggerState(tabId: number): { attached: boolean };
  /** The tab's page as best known, for a request that is not the page's own document. */
  tabUrl(tabId: number): string | null;
  /** Whether the tab is in the recording scope (every tab without it): signals of any other are dropped. */
  recordsTab?(tabId: number): boolean;
}

/**
 * Where signals come in, from CDP, `chrome.webRequest` and the page: each is checked against the
 * other sources' reports of the same exception and against the signal rules, then ignored, put on
 * the timeline, or bundled.
 */
export class SignalIntake {
  private readonly translators = new Map<number, CdpSignalTranslator>();
  private readonly echoes = new ExceptionEchoes();

  constructor(private readonly ports: SignalIntakePorts) {}

  /** A CDP event of a recorded tab (its screencast frames excepted). */
  async handleCdpEvent(tabId: number, method: string, params: Record<string, unknown> | undefined, pageUrl: () => string | null): Promise<void> {
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
    if (e.tabId < 0 || this.ports.debuggerState(e.tabId).attached) return;
    const raw = webRequestSignal(e, this.ports.tabUrl(e.tabId), this.ports.clock.now());
    if (raw) await this.handleSignal(raw);
  }

  /** Applies the signal rules: ignore, put on the timeline, or bundle. */
  async handleSignal(raw: RawSignal): Promise<void> {
    const { clock, mode } = this.ports;
    if (raw.tabId !== null && this.ports.recordsTab?.(raw.tabId) === false) return;
    if (!mode.recordsTimeline || this.echoes.isEcho(raw, clock.now(), mode.masker)) return;
    const { disposition } = evaluateSignal(mode.settings.signals, raw);
    if (disposition === 'ignore') return;
    const signal = signalFromRaw(raw);
    // An exception thrown long before it came (a debugger session attaching replays the document's
    // earlier ones) goes on the timeline at its time: a bundle now would not show it.
    const longPast = raw.kind === 'exception' && raw.origin === 'debugger' && clock.now() - raw.ts > ECHO_KEPT_MS;
    if (disposition === 'record' || mode.settings.persistMode === 'manual' || longPast) {
      await this.ports.stepLog.add(signalStep(redactSignal(signal, mode.masker), 'record'));
      return;
    }
    // A crash ends the page: it is no storm's repeat, and the last chance to bundle it (after the
    // bundle of an exception that led to it, if one is being made).
    await this.ports.failures.trigger(signal, { explicit: raw.kind === 'crash' });
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.translators.delete(tabId);
    this.echoes.forget(tabId);
  }
}
