import type { Change } from './change-events';
import type { CollectCost } from './collect-cost';
import type { Guard } from './guard';
import { RECT_REPORTER_DEFAULTS, type RectReporterOptions } from './options';

/** `requestAnimationFrame` does not run in a hidden document: fall back to a timer. */
const FRAME_FALLBACK_MS = 100;

/** When the next report is made. */
export interface Pacer {
  /** Something other than a milestone may have changed: asks for a report (see `createPacer`). */
  request(change: Exclude<Change, 'milestone'>): void;
  /** A report is being made now: nothing asked for before is due any more. */
  reporting(): void;
  /** No report is asked for (at the end of the task, with an animation frame or on a timer). */
  idle(): boolean;
  /** How long until the next report may be made, paced by what it will cost (≤ 0: now). */
  paceLeft(): number;
  /** Cancels what was asked for, and the polling. */
  stop(): void;
}

/** What the pacer needs from the reporter's other parts. */
export interface PacerParts {
  costs: CollectCost;
  /** The next measurement will measure again, not walk (it costs what measuring again cost). */
  nextRemeasures: () => boolean;
  /** Makes a report (`force`: even if unchanged). */
  report: (force: boolean) => void;
  guarded: Guard;
}

/**
 * Paces the reports. A change of content is reported at the end of the task that made it (a
 * microtask) while the time recently spent collecting stays under `contentBudgetMs`: such a report is
 * on its way before the change is painted. A change of layout is reported then after a quiet spell
 * of `quietMs` (leading edge). Otherwise, and for typing, with the next animation frame, or later
 * when collecting is slow. While visible, polls every `pollMs` (layout also moves without an event).
 */
export function createPacer(win: Window, opts: Pick<RectReporterOptions, 'quietMs' | 'contentBudgetMs' | 'pollMs'>, parts: PacerParts): Pacer {
  const { costs, report, guarded } = parts;
  const quietMs = opts.quietMs ?? RECT_REPORTER_DEFAULTS.quietMs;
  const contentBudgetMs = opts.contentBudgetMs ?? RECT_REPORTER_DEFAULTS.contentBudgetMs;
  const pollMs = opts.pollMs ?? RECT_REPORTER_DEFAULTS.pollMs;
  let stopped = false;
  /** A report is due at the end of the current task. */
  let soon = false;
  let frame: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const cancel = () => {
    if (frame !== null) win.cancelAnimationFrame?.(frame);
    if (timer !== null) clearTimeout(timer);
    frame = timer = null;
  };

  const paceLeft = () => costs.waitBefore(parts.nextRemeasures());

  /**
   * Reports at the end of the current task (a microtask), still before the change is painted: the
   * events of one change make one report, e.g. a script moving the focus fires the field's `change`,
   * its `focusout` and the next field's `focusin`.
   */
  const reportSoon = () => {
    if (soon) return;
    soon = true;
    queueMicrotask(() =>
      guarded('reporting sensitive regions', () => {
        if (soon && !stopped) report(false);
      }),
    );
  };

  const request = (change: Exclude<Change, 'milestone'>) => {
    const due = change === 'content' ? costs.recent() < contentBudgetMs : change === 'layout' && costs.sinceLastRun() >= quietMs;
    if (due) return reportSoon();
    if (frame !== null || timer !== null) return;
    // Asked again when it fires: the page's own handlers of the event may change the DOM after this
    // one ran (a sticky header on scroll), and a walk costs more than measuring again.
    const fire = () => {
      const left = paceLeft();
      if (left <= 0) return report(false);
      cancel();
      timer = setTimeout(fire, left);
    };
    const left = paceLeft();
    if (left > 0) timer = setTimeout(fire, left);
    else {
      frame = win.requestAnimationFrame?.(fire) ?? null;
      timer = setTimeout(fire, FRAME_FALLBACK_MS);
    }
  };

  // Hidden tabs are not captured: no need to look.
  const tick = () => {
    if (!win.document.hidden) report(false);
  };
  const poll = pollMs > 0 ? setInterval(() => guarded('polling', tick), pollMs) : null;

  return {
    request,
    reporting: () => {
      cancel();
      soon = false;
    },
    idle: () => !soon && frame === null && timer === null,
    paceLeft,
    stop: () => {
      stopped = true;
      cancel();
      if (poll !== null) clearInterval(poll);
    },
  };
}
