import type { SensitiveRectsMessage } from '../../../schemas/messages';
import { RECT_REPORTER_DEFAULTS, type RectReporterOptions } from './options';
import { decideReport, type SentReport } from './report-diff';

/** Sends the reports `decideReport` lets through; holds what was last sent and the report waiting. */
export interface ReportSender {
  /** Sends `message` now, later (a timer asks for a report then) or not at all. */
  offer(message: SensitiveRectsMessage, force: boolean): void;
  /** No report with fewer regions is waiting any more (one was sent, the regions are back, the page is left). */
  settle(): void;
}

/** What the sender needs from the reporter's other parts. */
export interface ReportSenderParts {
  emit: (message: SensitiveRectsMessage) => void;
  now: () => number;
  /** Asks for a report in `ms` (running `first` before it). */
  reportIn: (ms: number, first: () => void) => ReturnType<typeof setTimeout>;
}

/** The reporter's memory of what it sent: the input of `decideReport`, and the timer of a report waiting. */
export function createReportSender(opts: Pick<RectReporterOptions, 'resendMs' | 'fewerDelayMs'>, { emit, now, reportIn }: ReportSenderParts): ReportSender {
  const resendMs = opts.resendMs ?? RECT_REPORTER_DEFAULTS.resendMs;
  const fewerDelayMs = opts.fewerDelayMs ?? RECT_REPORTER_DEFAULTS.fewerDelayMs;
  let last: SentReport | null = null;
  /** Since when the regions are fewer than last sent (a report waiting), and the timer that sends it. */
  let fewerSince: number | null = null;
  let fewerTimer: ReturnType<typeof setTimeout> | null = null;
  const settle = () => {
    fewerSince = null;
    if (fewerTimer !== null) clearTimeout(fewerTimer);
    fewerTimer = null;
  };
  return {
    offer(message, force) {
      const decision = decideReport(last, message, { force, now: now(), resendMs, fewerDelayMs, fewerSince });
      if (decision.send === 'later') {
        fewerSince = decision.since;
        fewerTimer ??= reportIn(decision.inMs, () => {
          fewerTimer = null;
        });
        return;
      }
      settle();
      if (decision.send === 'nothing') return;
      last = decision.sent;
      emit(message);
    },
    settle,
  };
}
