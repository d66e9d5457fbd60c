import type { Guard } from './guard';

/**
 * A document that shows no paint entry this long after the reporter started reports anyway (one
 * that paints nothing but its background never gets one).
 */
export const FIRST_PAINT_WAIT_MS = 3_000;

/**
 * Calls `onPainted` once the document has painted, unless it has already (then returns null);
 * returns a function that stops waiting.
 */
export type WhenPainted = (onPainted: () => void) => (() => void) | null;

/**
 * The default `whenPainted`: the document's first `paint` performance entry (the first frame it put
 * on screen; Chrome keeps showing the previous page until then, "paint holding"), at most
 * `FIRST_PAINT_WAIT_MS` later. A hidden document, or one without paint timing, counts as painted.
 */
export function whenFirstPainted(win: Window, onPainted: () => void): (() => void) | null {
  const perf = win.performance as Performance | undefined;
  const Observer = (win as Window & typeof globalThis).PerformanceObserver as typeof PerformanceObserver | undefined;
  if (win.document.hidden || typeof perf?.getEntriesByType !== 'function' || typeof Observer !== 'function') return null;
  if (perf.getEntriesByType('paint').length > 0) return null;
  let waiting = true;
  const observer = new Observer(() => done(true));
  const timer = setTimeout(() => done(true), FIRST_PAINT_WAIT_MS);
  const done = (painted: boolean) => {
    if (!waiting) return;
    waiting = false;
    clearTimeout(timer);
    observer.disconnect();
    if (painted) onPainted();
  };
  try {
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    done(false);
    return null;
  }
  return () => done(false);
}

/** Whether the document has painted yet; created before it is waited for, so a report made meanwhile can ask. */
export interface FirstPaint {
  /**
   * Waits for the document's first paint with `whenPainted`, then calls `onPainted`. Until then the
   * screen shows the page this document replaced, so nothing may be reported (the worker, with no
   * report, drops the tab's frames). A `whenPainted` that throws counts as painted.
   */
  wait(whenPainted: WhenPainted, onPainted: () => void): void;
  /** True until `wait` learns that the document has not painted yet, and again once it has. */
  isPainted(): boolean;
  /** Stops waiting. */
  stop(): void;
}

/** The first paint gate of a reporter; its callbacks run in `guarded`. */
export function createFirstPaint(guarded: Guard): FirstPaint {
  let painted = true;
  let stopWaiting: (() => void) | null = null;
  return {
    wait: (whenPainted, onPainted) =>
      guarded('waiting for the first paint', () => {
        stopWaiting = whenPainted(() =>
          guarded('reporting sensitive regions', () => {
            painted = true;
            onPainted();
          }),
        );
        painted = stopWaiting === null;
      }),
    isPainted: () => painted,
    stop: () => stopWaiting?.(),
  };
}
