// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { CollectCost } from './collect-cost';
import { createGuard } from './guard';
import { createPacer, type Pacer } from './pacer';
import { endOfTask, FIELD, fire, quiet, useReporterHarness } from '../../../test/fakes/rect-reporter-harness';

describe('createPacer', () => {
  let frames: FrameRequestCallback[];
  let hidden: boolean;
  let costs: { [K in keyof CollectCost]: Mock<CollectCost[K]> };
  let report: Mock<(force: boolean) => void>;
  let warn: Mock<(message: string) => void>;
  let pacer: Pacer;
  /** A pacer on a window whose animation frames run when the test says (`runFrames`). */
  const start = (pollMs = 0) => {
    const win = {
      document: {
        get hidden() {
          return hidden;
        },
      },
      requestAnimationFrame: (cb: FrameRequestCallback) => frames.push(cb),
      cancelAnimationFrame: (id: number) => delete frames[id - 1],
    } as unknown as Window;
    pacer = createPacer(win, { quietMs: 100, contentBudgetMs: 8, pollMs }, { costs, nextRemeasures: () => false, report, guarded: createGuard(warn) });
    return pacer;
  };
  const runFrames = () => frames.splice(0).forEach((cb) => cb?.(0));

  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    hidden = false;
    costs = { track: vi.fn(), recent: vi.fn(() => 0), sinceLastRun: vi.fn(() => Infinity), waitBefore: vi.fn((_remeasures: boolean) => 0) };
    // A report made: what was asked for is done (the reporter tells the pacer so).
    report = vi.fn(() => pacer.reporting());
    warn = vi.fn();
  });
  afterEach(() => {
    pacer.stop();
    vi.useRealTimers();
  });

  it('reports a change of content at the end of the task, once for the events of one change, while under the budget', async () => {
    start();
    pacer.request('content');
    pacer.request('content');
    expect(report).not.toHaveBeenCalled();
    await endOfTask();
    expect(report.mock.calls).toEqual([[false]]);
  });

  it('reports a change of content past the budget with the next animation frame', async () => {
    start();
    costs.recent.mockReturnValue(8);
    pacer.request('content');
    await endOfTask();
    expect(report).not.toHaveBeenCalled();
    runFrames();
    expect(report).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(1000); // the fallback timer was cancelled
    expect(report).toHaveBeenCalledOnce();
  });

  it.each([
    ['a layout change after a quiet spell', 'layout', 100, 'the end of the task'],
    ['a layout change within the quiet spell', 'layout', 99, 'the next frame'],
    ['typing, even after a quiet spell', 'typing', Infinity, 'the next frame'],
  ] as const)('reports %s at %s', async (_name, change, sinceLastRun, when) => {
    start();
    costs.sinceLastRun.mockReturnValue(sinceLastRun);
    pacer.request(change);
    await endOfTask();
    expect(report).toHaveBeenCalledTimes(when === 'the end of the task' ? 1 : 0);
    runFrames();
    expect(report).toHaveBeenCalledOnce();
  });

  it('asks for one animation frame for many changes, and falls back to a timer when none comes (a hidden document)', () => {
    start();
    pacer.request('typing');
    pacer.request('typing');
    expect(frames).toHaveLength(1);
    expect(pacer.idle()).toBe(false);
    vi.advanceTimersByTime(99);
    expect(report).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(report).toHaveBeenCalledOnce();
    expect(pacer.idle()).toBe(true);
  });

  it('waits as long as the next measurement’s cost says, asking again when the wait ends', () => {
    start();
    costs.waitBefore.mockReturnValue(40);
    pacer.request('typing');
    expect(frames).toHaveLength(0);
    costs.waitBefore.mockReturnValue(10); // the page changed meanwhile: a costlier walk is due
    vi.advanceTimersByTime(40);
    expect(report).not.toHaveBeenCalled();
    costs.waitBefore.mockReturnValue(0);
    vi.advanceTimersByTime(10);
    expect(report).toHaveBeenCalledOnce();
  });

  it('polls while the document is visible', () => {
    start(1000);
    vi.advanceTimersByTime(1000);
    expect(report).toHaveBeenCalledOnce();
    hidden = true;
    vi.advanceTimersByTime(3000);
    expect(report).toHaveBeenCalledOnce();
  });

  it('reports nothing once stopped, and never throws into the page', async () => {
    start(1000);
    pacer.request('content');
    costs.sinceLastRun.mockReturnValue(0);
    pacer.request('layout');
    pacer.stop();
    await endOfTask();
    runFrames();
    vi.advanceTimersByTime(5000);
    expect(report).not.toHaveBeenCalled();
    start();
    report.mockImplementation(() => {
      throw new Error('boom');
    });
    pacer.request('content');
    await endOfTask();
    expect(warn).toHaveBeenCalledWith('reporting sensitive regions failed: boom');
  });
});

describe('startSensitiveRectReporter: pacing', () => {
  const h = useReporterHarness();

  it('reports the first change after a quiet spell at once (leading edge)', async () => {
    h.start();
    quiet();
    h.current = [FIELD];
    await fire('scroll', document);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('coalesces a burst of changes into one report per animation frame, with the latest rects', async () => {
    h.start();
    for (let i = 0; i < 10; i++) {
      h.current = [{ ...FIELD, y: 20 + i }];
      await fire('scroll', document);
    }
    expect(h.sent).toHaveLength(1);
    expect(h.collects).toBe(1);
    vi.advanceTimersByTime(20);
    expect(h.collects).toBe(2);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [{ ...FIELD, y: 29 }]]);
  });

  it('coalesces changes of content once collecting has taken its budget', async () => {
    h.start({
      contentBudgetMs: 8,
      collect: () => {
        h.collects++;
        vi.advanceTimersByTime(3); // a 3 ms collection
        return h.current;
      },
    });
    for (let i = 0; i < 5; i++) await fire('input', document.body);
    expect(h.collects).toBe(3); // 3 + 3 ms spent, then 9 ms: over the budget
    vi.advanceTimersByTime(30); // a slow collection waits 8× its cost
    expect(h.collects).toBe(4);
    vi.advanceTimersByTime(300); // the budget recovers
    await fire('input', document.body);
    expect(h.collects).toBe(5);
  });

  it('finds changes no event announced by polling, only while the page is visible', async () => {
    h.start({ pollMs: 1000 });
    h.current = [FIELD];
    vi.advanceTimersByTime(1000);
    expect(h.sent.at(-1)?.rects).toEqual([FIELD]);
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    try {
      const before = h.collects;
      vi.advanceTimersByTime(3000);
      expect(h.collects).toBe(before);
    } finally {
      Object.defineProperty(document, 'hidden', { value: false, configurable: true });
    }
  });

  it('sends an unchanged report again now and then, for a background that restarted', async () => {
    h.start({ pollMs: 1000, resendMs: 5000 });
    vi.advanceTimersByTime(4000);
    expect(h.sent).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]!.rects).toEqual([]);
  });

  it('waits longer between reports when collecting is slow', async () => {
    h.start({ collect: h.slowCollect(10) }); // a 10 ms collection
    await fire('scroll', document);
    vi.advanceTimersByTime(50);
    expect(h.collects).toBe(1);
    vi.advanceTimersByTime(40);
    expect(h.collects).toBe(2);
  });

  it('paces scrolling by what measuring again costs, not by the slow walk before it', async () => {
    let remeasures = 0;
    h.start({
      collect: h.slowCollect(10), // a slow page to walk
      remeasure: () => {
        remeasures++;
        vi.advanceTimersByTime(0.5); // what that walk found, measured again
        return h.current;
      },
    });
    expect(h.collects).toBe(1);
    await fire('scroll', document); // right after the walk: paced, the next animation frame
    vi.advanceTimersByTime(20);
    expect(remeasures).toBe(1);
    expect(h.collects).toBe(1);
  });

  it('paces a report by a walk when the page changes its DOM on scroll after the reporter heard of it', async () => {
    let remeasures = 0;
    h.start({
      collect: h.slowCollect(10),
      remeasure: () => {
        remeasures++;
        return h.current;
      },
    });
    // The page's own handler runs after the reporter's (a sticky header changing on scroll).
    const onScroll = () => document.body.setAttribute('data-scrolled', String(Math.random()));
    document.addEventListener('scroll', onScroll);
    try {
      await fire('scroll', document);
      vi.advanceTimersByTime(20); // an animation frame: a walk is due, not a cheap measure
      expect(h.collects).toBe(1);
      vi.advanceTimersByTime(80); // 8 times the last walk's cost after it
      expect(h.collects).toBe(2);
      expect(remeasures).toBe(0);
    } finally {
      document.removeEventListener('scroll', onScroll);
    }
  });
});
