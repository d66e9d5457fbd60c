import type { SensitiveRectsMessage } from '../../schemas/messages';
import type { TextMasker } from '../redact/mask-text';
import { watchChanges, type Change } from './rect-reporter/change-events';
import { createCollectCost } from './rect-reporter/collect-cost';
import { createFirstPaint, whenFirstPainted } from './rect-reporter/first-paint';
import { rememberFocusAtMeasure } from './rect-reporter/focus-at-measure';
import { createGuard } from './rect-reporter/guard';
import type { RectReporterOptions } from './rect-reporter/options';
import { createPacer } from './rect-reporter/pacer';
import { createRegionMeasurer } from './rect-reporter/region-measurer';
import { createReportSender } from './rect-reporter/report-sender';
import { startSyncAnswers } from './rect-reporter/sync-answers';

export { FIRST_PAINT_WAIT_MS } from './rect-reporter/first-paint';
export { REPORT_MARGIN_CSS_PX } from './rect-reporter/region-measurer';
export { RECT_REPORTER_DEFAULTS, type RectReporterOptions } from './rect-reporter/options';

/**
 * Stops the reporter; `refresh()` reports again now (e.g. the redaction rules changed), if the report
 * changed or `force` (e.g. the background may have missed the last one).
 */
export interface RectReporter {
  (): void;
  refresh(force?: boolean): void;
  /**
   * Measures the regions at the second animation frame from now (it has the compositor's scrolls
   * up to now; at once in a hidden document; later when measuring is slow) and gives that report to
   * `answer`, changed or not. It is not emitted, and the reports go on as if it had not been made.
   * Null when there is none (the document has not painted, is not laid out, or the reporter stopped).
   */
  sync(answer: (report: SensitiveRectsMessage | null) => void): void;
}

/**
 * How long a page keeps reporting its regions after it saw the capture level fall below frames:
 * the worker applies the new level a moment later, and frames it takes meanwhile must stay masked.
 */
export const RECT_REPORTER_GRACE_MS = 2_000;

/**
 * Reports where sensitive content is in the top document's viewport (`redaction/rects`), so that
 * frames can be masked before they are stored: once the document has first painted (until then
 * the screen shows the page it replaced, and the worker, with no report, drops the tab's frames),
 * then whenever the regions may have changed — scrolling (any scroller),
 * resizing, typing, focus changes, DOM mutations (same-origin iframes and open shadow roots
 * included), transitions and animations ending, loads. Focus, DOM and value changes are reported
 * once at the end of the task that made them, so the report is on its way before the change is painted (past a
 * budget of collecting time, with the next animation frame); typing into the focused text field (a
 * region already) with the next animation frame, so an agent's keystrokes do not wait for it; layout
 * changes at once after a quiet spell, then at most once per animation frame. The page is walked
 * again after a DOM mutation, a milestone, or `walkMaxAgeMs`; otherwise (focus moved, a value typed,
 * scrolling) what the last walk found is measured again, every form field examined again, which
 * gives the same rects for a fraction of the cost. A report equal to the last one is not sent, except
 * at page milestones and every `resendMs` while polling. Never throws into the page.
 * `masker` gives the masker of the settings in force; `refresh()` after it changed.
 * @example const stop = startSensitiveRectReporter(window, send, () => masker); stop.refresh(); stop();
 */
export function startSensitiveRectReporter(
  win: Window,
  emit: (message: SensitiveRectsMessage) => void,
  masker: () => TextMasker,
  opts: RectReporterOptions = {},
): RectReporter {
  const now = opts.now ?? (() => performance.now());
  const guarded = createGuard(opts.warn ?? ((m: string) => console.warn(`[afr] ${m}`)));
  /** Each part below holds its own state; the reporter only knows whether it was stopped. */
  let stopped = false;
  const firstPaint = createFirstPaint(guarded);

  /** A timer that runs `first`, then reports (unless stopped), in `ms`. */
  const reportIn = (ms: number, first: () => void) =>
    setTimeout(
      () =>
        guarded('reporting sensitive regions', () => {
          first();
          if (!stopped) report(false);
        }),
      ms,
    );
  const costs = createCollectCost(now);
  const focus = rememberFocusAtMeasure();
  const measurer = createRegionMeasurer(win, opts, {
    now,
    guarded,
    costs,
    focus,
    masker,
    onRoot: (root) => changes.observe(root),
    takeMutations: () => changes.takeMutations(),
    reportIn,
  });
  const sender = createReportSender(opts, { emit, now, reportIn });

  /** Reports the regions if they changed since the last report sent (or `force`), once the document has painted. */
  const report = (force: boolean) => {
    pacer.reporting();
    if (!firstPaint.isPainted()) return;
    const message = measurer.measure();
    if (!message) return;
    guarded('reporting sensitive regions', () => sender.offer(message, force));
  };
  /** Something may have changed: a page milestone is reported now, even if unchanged; the rest as the pacer says. */
  const request = (change: Change) => {
    if (stopped) return;
    if (change === 'milestone') {
      measurer.invalidate();
      return report(true);
    }
    pacer.request(change);
  };

  const changes = watchChanges(win, {
    guarded,
    onChange: request,
    onMutation: () => {
      measurer.invalidate();
      request('content');
    },
    // A report with fewer regions still waiting is not sent from a page being left: the worker has
    // forgotten this page's regions since the navigation started, and would apply it to the next one.
    onPageHide: () => sender.settle(),
    // Typing only when the last report was measured with that field focused and none is pending:
    // else that report may not hold the field yet.
    isTyping: (target) => pacer.idle() && focus.typingInto(target),
  });
  const pacer = createPacer(win, opts, {
    costs,
    nextRemeasures: () => measurer.nextRemeasures(),
    report,
    guarded,
  });
  firstPaint.wait(opts.whenPainted ?? ((done) => whenFirstPainted(win, done)), () => {
    measurer.invalidate();
    if (!stopped) report(true);
  });
  report(false);
  const answers = startSyncAnswers(win, {
    measure: () => (!stopped && firstPaint.isPainted() ? measurer.measure() : null),
    paceLeft: () => pacer.paceLeft(),
    guarded,
  });

  const stop = () => {
    stopped = true;
    firstPaint.stop();
    pacer.stop();
    sender.settle();
    measurer.stop();
    changes.stop();
    answers.stop();
  };
  const refresh = (force = false) => {
    measurer.invalidate();
    if (!stopped) report(force);
  };
  return Object.assign(stop, { refresh, sync: answers.sync });
}
