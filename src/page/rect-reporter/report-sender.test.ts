// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SensitiveRectsMessage } from '../../../schemas/messages';
import type { ViewportRect } from '../../redact/sensitive-rects';
import { FIELD, fire, quiet, useReporterHarness } from '../../../test/fakes/rect-reporter-harness';
import { createReportSender, type ReportSender } from './report-sender';

describe('createReportSender', () => {
  const OTHER: ViewportRect = { ...FIELD, y: 60 };
  let t: number;
  let emitted: ViewportRect[][];
  let sender: ReportSender;
  /** The report of `rects`, offered; a timer's report offers `latest`. */
  let latest: SensitiveRectsMessage;
  const offer = (rects: ViewportRect[], force = false) => {
    latest = { type: 'redaction/rects', ts: t, url: 'https://example.com/', viewport: { width: 800, height: 600 }, device_pixel_ratio: 1, rects };
    sender.offer(latest, force);
  };
  const reportIn = vi.fn((ms: number, first: () => void) =>
    setTimeout(() => {
      first();
      sender.offer(latest, false);
    }, ms),
  );

  beforeEach(() => {
    vi.useFakeTimers();
    t = 0;
    emitted = [];
    reportIn.mockClear();
    sender = createReportSender({ resendMs: 3000, fewerDelayMs: 300 }, { emit: (m) => emitted.push(m.rects), now: () => t, reportIn });
  });
  afterEach(() => vi.useRealTimers());

  it('sends the first report, not an unchanged one, and sends it again resendMs later', () => {
    offer([FIELD]);
    offer([FIELD]);
    t = 2999;
    offer([FIELD]);
    expect(emitted).toEqual([[FIELD]]);
    t = 3000;
    offer([FIELD]);
    expect(emitted).toEqual([[FIELD], [FIELD]]);
  });

  it('lets a report that only drops regions wait, with one timer, then sends the regions then', () => {
    offer([FIELD, OTHER]);
    offer([OTHER]);
    t = 100;
    offer([OTHER]);
    expect(reportIn.mock.calls.map(([ms]) => ms)).toEqual([300]);
    expect(emitted).toHaveLength(1);
    t = 300;
    vi.advanceTimersByTime(300);
    expect(emitted).toEqual([[FIELD, OTHER], [OTHER]]);
  });

  it('sends nothing when the regions are back, and waits the whole delay for the next drop', () => {
    offer([FIELD]);
    offer([]);
    t = 200;
    offer([FIELD]);
    vi.advanceTimersByTime(1000);
    expect(emitted).toEqual([[FIELD]]);
    offer([]);
    expect(reportIn.mock.calls.at(-1)![0]).toBe(300);
  });

  it('drops the waiting report on settle (the page is left), and sends a forced one at once', () => {
    offer([FIELD]);
    offer([]);
    sender.settle();
    vi.advanceTimersByTime(1000);
    expect(emitted).toEqual([[FIELD]]);
    offer([], true);
    expect(emitted).toEqual([[FIELD], []]);
  });
});

describe('startSensitiveRectReporter: a report with fewer regions waits', () => {
  const h = useReporterHarness();
  const OTHER: ViewportRect = { x: 10, y: 60, width: 100, height: 30 };
  /** The regions become `rects`, and an event of `type` tells it after a quiet spell. */
  const becomes = async (rects: ViewportRect[], type: string) => {
    h.current = rects;
    quiet();
    await fire(type, document);
  };

  it('sends fewer regions only after fewerDelayMs, the frames meanwhile masked over more than needed', async () => {
    h.start({ fewerDelayMs: 300, pollMs: 0 });
    await becomes([FIELD, OTHER], 'focusin');
    await becomes([OTHER], 'focusout');
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER]]);
    vi.advanceTimersByTime(299);
    expect(h.sent).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [OTHER]]);
  });

  it('sends at once a report that adds or moves a region, with the regions dropped meanwhile', async () => {
    h.start({ fewerDelayMs: 300, pollMs: 0 });
    await becomes([FIELD, OTHER], 'focusin');
    await becomes([OTHER], 'focusout');
    await becomes([{ ...OTHER, y: 61 }], 'scroll');
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [{ ...OTHER, y: 61 }]]);
    vi.advanceTimersByTime(1000);
    expect(h.sent).toHaveLength(3);
  });

  it('sends nothing when the regions are back before the wait ends', async () => {
    h.start({ fewerDelayMs: 300, pollMs: 0 });
    await becomes([FIELD], 'focusin');
    await becomes([], 'focusout');
    await becomes([FIELD], 'focusin');
    vi.advanceTimersByTime(1000);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('does not wait when the viewport changed, nor on a forced refresh', async () => {
    const stop = h.start({ fewerDelayMs: 300, pollMs: 0 });
    await becomes([FIELD], 'focusin');
    h.current = [];
    stop.refresh(true);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
    await becomes([FIELD], 'focusin');
    h.current = [];
    const own = Object.getOwnPropertyDescriptor(window, 'innerWidth');
    Object.defineProperty(window, 'innerWidth', { value: window.innerWidth + 10, configurable: true });
    try {
      quiet();
      await fire('resize');
      expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD], [], [FIELD], []]);
    } finally {
      if (own) Object.defineProperty(window, 'innerWidth', own);
      else delete (window as { innerWidth?: number }).innerWidth;
    }
  });

  it('waits on a plain refresh (the rules changed) as on any other change', async () => {
    const stop = h.start({ fewerDelayMs: 300, pollMs: 0 });
    h.current = [FIELD];
    stop.refresh();
    h.current = [];
    stop.refresh();
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    vi.advanceTimersByTime(300);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
  });

  it('sends an unchanged report again at once, and the same regions in another order at once', async () => {
    h.start({ fewerDelayMs: 300, pollMs: 1000, resendMs: 5000 });
    await becomes([FIELD, OTHER], 'focusin');
    vi.advanceTimersByTime(5800); // the poll at 6000 ms, the first one 5000 ms after the report
    expect(h.sent).toHaveLength(2);
    vi.advanceTimersByTime(100);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [FIELD, OTHER]]);
    await becomes([OTHER, FIELD], 'scroll');
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [FIELD, OTHER], [OTHER, FIELD]]);
  });

  it('does not send a waiting report from a page being left', async () => {
    h.start({ fewerDelayMs: 300, pollMs: 0 });
    await becomes([FIELD], 'focusin');
    await becomes([], 'focusout');
    window.dispatchEvent(new Event('pagehide'));
    vi.advanceTimersByTime(1000);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });
});
