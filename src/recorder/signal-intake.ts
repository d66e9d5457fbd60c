import type { AppErrorSeen } from '../network/network-log';
import type { Clock } from '../shared/clock';
import type { StepLog } from '../steps/step-log';
import { CdpSignalTranslator } from '../signals/cdp-signals';
import { ECHO_KEPT_MS, ExceptionEchoes } from '../signals/exception-echo';
import { signalFromRaw } from '../signals/normalize-signal';
import { redactSignal } from '../signals/redact-signal';
import { BUNDLE_REFUSALS, comparedForEcho, decideSignal } from '../signals/signal-decision';
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
  failures: Pick<FailureJobs, 'facts' | 'carryOut'>;
  debuggerState(tabId: number): { attached: boolean };
  /** The tab's page as best known, for a request that is not the page's own document. */
  tabUrl(tabId: number): string | null;
}

/**
 * Where signals come in, from CDP, `chrome.webRequest` and the page: each is decided once
 * (`decideSignal`: scope, recording mode, the other sources' reports of the same exception, signal
 * rules, quotas, the failure gate), then dropped, put on the timeline, or handed to the failure jobs.
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

  /**
   * An API call's 2xx answer that says it failed, found by the network log in the body it read from
   * the debugger (masked there): a signal like a 4xx, which no page can send (it is not a message).
   */
  async handleAppError(tabId: number, seen: AppErrorSeen): Promise<void> {
    await this.handleSignal({
      kind: 'app_error',
      tabId,
      pageUrl: this.translators.get(tabId)?.currentPageUrl() ?? this.ports.tabUrl(tabId),
      ts: this.ports.clock.now(),
      message: `HTTP ${seen.status} says it failed (${seen.fields.join(', ')}): ${seen.method} ${seen.url} → ${seen.excerpt}`,
      stack: null,
      request: {
        url: seen.url,
        method: seen.method,
        status: seen.status,
        resourceType: seen.resourceType,
        durationMs: seen.durationMs,
        errorText: null,
        requestId: seen.requestId,
        excerpt: seen.excerpt,
      },
      origin: 'debugger',
    });
  }

  /** A request seen by `chrome.webRequest`: used only for tabs whose debugger is not attached. */
  async handleWebRequest(e: WebRequestEvent): Promise<void> {
    if (e.tabId < 0 || this.ports.debuggerState(e.tabId).attached) return;
    const raw = webRequestSignal(e, this.ports.tabUrl(e.tabId), this.ports.clock.now());
    if (raw) await this.handleSignal(raw);
  }

  /**
   * What becomes of a signal: its facts gathered (the scope, the recording mode, the other source's
   * report of the same exception, the signal rules, the quotas and the tab's failure gate), one
   * decision (`decideSignal`), then acted upon: nothing, an entry on the timeline, or the failure
   * jobs' refusal or bundle.
   */
  async handleSignal(raw: RawSignal): Promise<void> {
    const { clock, mode, failures } = this.ports;
    const now = clock.now();
    const signal = signalFromRaw(raw);
    const echo = this.echoes.compare(raw, now, mode.masker);
    // A crash ends the page: it is no storm's repeat, and the last chance to bundle it (after the
    // bundle of an exception that led to it, if one is being made).
    const facts = failures.facts(signal, raw.kind === 'crash', {
      recordsTimeline: mode.recordsTimeline,
      echo: echo.echo,
      rule: evaluateSignal(mode.settings.signals, raw).disposition,
      manual: mode.settings.persistMode === 'manual',
      longPast: raw.kind === 'exception' && raw.origin === 'debugger' && now - raw.ts > ECHO_KEPT_MS,
    });

    const decision = decideSignal(facts);

    if (comparedForEcho(decision)) echo.keep();
    if (decision.outcome === 'record') await this.ports.stepLog.add(signalStep(redactSignal(signal, mode.masker), 'record'));
    else if (decision.outcome === 'bundle' || BUNDLE_REFUSALS.has(decision.reason)) await failures.carryOut(signal, facts, decision);
  }

  /** The tab was closed. */
  forget(tabId: number): void {
    this.translators.delete(tabId);
    this.echoes.forget(tabId);
  }
}
