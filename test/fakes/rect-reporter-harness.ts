// Test support for the reporter's tests (never imported by the content script): a reporter on the
// test's window with rects the test sets, and the fake clock's helpers.
import { afterEach, beforeEach, vi } from 'vitest';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import type { ViewportRect } from '../../src/redact/sensitive-rects';
import { startSensitiveRectReporter, type RectReporter, type RectReporterOptions } from '../../src/page/rect-reporter';
import { BUILT_IN_MASKER } from '../../src/redact/mask-text';

export const FIELD: ViewportRect = { x: 10, y: 20, width: 100, height: 30 };

/** Lets the reporter's quiet period pass. */
export const quiet = () => vi.advanceTimersByTime(150);
/** The end of the task that fired the events: the reporter reports there (a microtask). */
export const endOfTask = () => Promise.resolve();
export const fire = async (type: string, target: EventTarget = window) => {
  target.dispatchEvent(new Event(type));
  await endOfTask();
};

/**
 * A reporter under test, on fake timers: `sent` holds what it emitted, `current` the rects its
 * `collect` finds, `collects` how often it walked. Reset before each test, stopped after it.
 */
export interface ReporterHarness {
  sent: SensitiveRectsMessage[];
  current: ViewportRect[];
  collects: number;
  reporter: RectReporter | null;
  /** Starts a reporter with the test's rects; reports with fewer regions go at once unless `fewerDelayMs` is given. */
  start(opts?: RectReporterOptions): RectReporter;
  /** A `collect` that takes `ms` of the (fake) clock: a page slow to walk. */
  slowCollect(ms: number): () => ViewportRect[];
}

/** Registers the harness's `beforeEach`/`afterEach` in the calling test file and returns it. */
export function useReporterHarness(): ReporterHarness {
  const h: ReporterHarness = {
    sent: [],
    current: [],
    collects: 0,
    reporter: null,
    start(opts = {}) {
      h.reporter = startSensitiveRectReporter(window, (m) => h.sent.push(m), () => BUILT_IN_MASKER, {
        fewerDelayMs: 0,
        whenPainted: () => null,
        collect: () => {
          h.collects++;
          return h.current.map((r) => ({ ...r }));
        },
        ...opts,
      });
      return h.reporter;
    },
    slowCollect: (ms) => () => {
      h.collects++;
      vi.advanceTimersByTime(ms);
      return h.current;
    },
  };
  beforeEach(() => {
    vi.useFakeTimers();
    h.sent = [];
    h.current = [];
    h.collects = 0;
    h.reporter = null;
    document.body.innerHTML = '';
  });
  afterEach(() => {
    h.reporter?.();
    vi.useRealTimers();
  });
  return h;
}
