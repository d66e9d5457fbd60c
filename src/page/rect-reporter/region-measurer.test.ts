// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { ViewportRect } from '../../redact/sensitive-rects';
import { redactUrl } from '../../redact/redact-url';
import type { RectReporterOptions } from '../rect-reporter';
import { createCollectCost } from './collect-cost';
import { createGuard } from './guard';
import { createRegionMeasurer, type RegionMeasurer } from './region-measurer';
import { BUILT_IN_MASKER } from '../../redact/mask-text';
import { endOfTask, FIELD, fire, quiet, useReporterHarness } from '../../../test/fakes/rect-reporter-harness';

describe('createRegionMeasurer', () => {
  let t: number;
  let rects: ViewportRect[];
  /** What measuring again gives (null: it cannot stand in for a walk). */
  let remeasured: ViewportRect[] | null;
  let collect: Mock<NonNullable<RectReporterOptions['collect']>>;
  let remeasure: Mock<NonNullable<RectReporterOptions['remeasure']>>;
  let parts: Parameters<typeof createRegionMeasurer>[2];
  let warn: Mock<(message: string) => void>;
  let measurer: RegionMeasurer;
  const now = () => t;

  beforeEach(() => {
    vi.useFakeTimers();
    t = 0;
    rects = [FIELD];
    remeasured = [FIELD];
    collect = vi.fn((doc: Document, onRoot: (root: Document | ShadowRoot) => void) => {
      onRoot(doc);
      t += 10; // a walk takes 10 ms
      return rects;
    });
    remeasure = vi.fn(() => remeasured);
    warn = vi.fn();
    parts = {
      now,
      guarded: createGuard(warn),
      costs: createCollectCost(now),
      focus: { note: vi.fn(), typingInto: vi.fn() },
      onRoot: vi.fn(),
      masker: () => BUILT_IN_MASKER,
      takeMutations: vi.fn(() => false),
      reportIn: vi.fn((ms: number, first: () => void) => setTimeout(first, ms)),
    };
    measurer = createRegionMeasurer(window, { collect, remeasure, walkMaxAgeMs: 250 }, parts);
  });
  afterEach(() => {
    measurer.stop();
    vi.useRealTimers();
  });

  it('walks the page first, telling of every root it meets, and gives the report of the viewport', () => {
    expect(measurer.measure()).toEqual({
      type: 'redaction/rects',
      ts: Date.now(),
      url: redactUrl(window.location.href, BUILT_IN_MASKER),
      viewport: { width: window.innerWidth, height: window.innerHeight },
      device_pixel_ratio: window.devicePixelRatio,
      rects: [FIELD],
      scroll: { x: window.scrollX, y: window.scrollY },
    });
    expect(collect).toHaveBeenCalledWith(document, parts.onRoot);
    expect(parts.onRoot).toHaveBeenCalledWith(document);
    expect(parts.focus.note).toHaveBeenCalledWith(document);
    expect(remeasure).not.toHaveBeenCalled();
  });

  it('measures again what the last walk found, and walks once that walk is walkMaxAgeMs old', () => {
    measurer.measure();
    t = 100;
    expect(measurer.nextRemeasures()).toBe(true);
    measurer.measure();
    expect([collect.mock.calls.length, remeasure.mock.calls.length]).toEqual([1, 1]);
    expect(parts.reportIn).toHaveBeenCalledWith(150, expect.any(Function)); // counted from the walk's start
    measurer.measure(); // one timer for all
    expect(parts.reportIn).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(150);
    measurer.measure();
    expect([collect.mock.calls.length, remeasure.mock.calls.length]).toEqual([2, 2]);
  });

  it.each([
    ['after invalidate', () => measurer.invalidate()],
    ['after mutations made in this task', () => vi.mocked(parts.takeMutations).mockReturnValue(true)],
    ['once the last walk is walkMaxAgeMs old', () => (t += 250)],
  ])('walks again %s', (_name, change) => {
    measurer.measure();
    change();
    expect(measurer.nextRemeasures()).toBe(false);
    measurer.measure();
    expect([collect.mock.calls.length, remeasure.mock.calls.length]).toEqual([2, 0]);
  });

  it('walks when measuring again cannot stand in, and then paces by walks', () => {
    measurer.measure();
    remeasured = null;
    measurer.measure();
    expect([collect.mock.calls.length, remeasure.mock.calls.length]).toEqual([2, 1]);
    expect(measurer.nextRemeasures()).toBe(false);
  });

  it('counts what walks and measuring again cost, apart', () => {
    measurer.measure(); // 10 ms
    expect(parts.costs.waitBefore(false)).toBe(80);
    expect(parts.costs.waitBefore(true)).toBe(0);
  });

  it('gives no report while the viewport has no size, and never throws', () => {
    const width = Object.getOwnPropertyDescriptor(window, 'innerWidth');
    Object.defineProperty(window, 'innerWidth', { value: 0, configurable: true });
    try {
      expect(measurer.measure()).toBeNull();
      expect(collect).not.toHaveBeenCalled();
    } finally {
      if (width) Object.defineProperty(window, 'innerWidth', width);
      else Reflect.deleteProperty(window, 'innerWidth');
    }
    collect.mockImplementation(() => {
      throw new Error('boom');
    });
    expect(measurer.measure()).toBeNull();
    expect(warn).toHaveBeenCalledWith('reporting sensitive regions failed: boom');
  });
});

describe('startSensitiveRectReporter: measuring again instead of walking the page', () => {
  const h = useReporterHarness();
  let remeasures: number;
  /** Remeasures give the current rects, as a walk would; `null` when the collection cannot be measured again. */
  let remeasured: ViewportRect[] | null;
  const startRemeasuring = (opts: RectReporterOptions = {}) => {
    remeasures = 0;
    remeasured = null;
    return h.start({
      pollMs: 0,
      remeasure: () => {
        remeasures++;
        return remeasured;
      },
      ...opts,
    });
  };
  const canRemeasure = () => {
    remeasured = h.current;
  };

  it('measures again after a focus change or scrolling with no DOM mutation, and walks again after one', async () => {
    document.body.innerHTML = '<input id="a"><input id="b">';
    startRemeasuring();
    expect(h.collects).toBe(1);
    h.current = [FIELD];
    canRemeasure();
    (document.getElementById('a') as HTMLInputElement).focus();
    await endOfTask();
    quiet();
    await fire('scroll', document);
    expect([h.collects, remeasures]).toEqual([1, 2]);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);

    document.body.append(document.createElement('p'));
    await endOfTask();
    await endOfTask();
    expect([h.collects, remeasures]).toEqual([2, 2]);
  });

  it('walks again when the DOM changed after the focus in the same task (the mutation not yet delivered)', async () => {
    document.body.innerHTML = '<input id="a">';
    startRemeasuring();
    canRemeasure();
    (document.getElementById('a') as HTMLInputElement).focus();
    document.body.append(document.createElement('p'));
    await endOfTask();
    expect([h.collects, remeasures]).toEqual([2, 0]);
  });

  it('walks again when the last walk is older than walkMaxAgeMs, or when a remeasure cannot stand in', async () => {
    document.body.innerHTML = '<input id="a"><input id="b">';
    startRemeasuring({ walkMaxAgeMs: 250 });
    vi.advanceTimersByTime(300);
    canRemeasure();
    (document.getElementById('a') as HTMLInputElement).focus();
    await endOfTask();
    expect([h.collects, remeasures]).toEqual([2, 0]);
    remeasured = null;
    quiet();
    (document.getElementById('b') as HTMLInputElement).focus();
    await endOfTask();
    expect([h.collects, remeasures]).toEqual([3, 1]);
  });

  it('walks the page once the last walk is walkMaxAgeMs old, after reports measured again (an attached shadow root shows no mutation)', async () => {
    document.body.innerHTML = '<input id="a">';
    startRemeasuring({ walkMaxAgeMs: 250 });
    canRemeasure();
    vi.advanceTimersByTime(100);
    (document.getElementById('a') as HTMLInputElement).focus();
    await endOfTask();
    expect([h.collects, remeasures]).toEqual([1, 1]);
    vi.advanceTimersByTime(149);
    expect(h.collects).toBe(1);
    vi.advanceTimersByTime(1);
    expect(h.collects).toBe(2);
    vi.advanceTimersByTime(1000);
    expect([h.collects, remeasures]).toEqual([2, 1]);
  });

  it('walks again at page milestones and on refresh', async () => {
    startRemeasuring();
    canRemeasure();
    window.dispatchEvent(new Event('pageshow'));
    expect(h.collects).toBe(2);
    h.reporter!.refresh();
    expect([h.collects, remeasures]).toEqual([3, 0]);
  });
});
