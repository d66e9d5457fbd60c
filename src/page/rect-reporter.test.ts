// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SensitiveRectsMessageSchema, type SensitiveRectsMessage } from '../../schemas/messages';
import type { ViewportRect } from '../redact/sensitive-rects';
import { FIRST_PAINT_WAIT_MS, startSensitiveRectReporter, type RectReporter, type RectReporterOptions } from './rect-reporter';

const FIELD: ViewportRect = { x: 10, y: 20, width: 100, height: 30 };

let sent: SensitiveRectsMessage[];
let current: ViewportRect[];
let collects: number;
let reporter: RectReporter | null;

/** Starts a reporter with the test's rects; reports with fewer regions go at once unless `fewerDelayMs` is given. */
function start(opts: RectReporterOptions = {}): RectReporter {
  reporter = startSensitiveRectReporter(window, (m) => sent.push(m), {
    fewerDelayMs: 0,
    whenPainted: () => null,
    collect: () => {
      collects++;
      return current.map((r) => ({ ...r }));
    },
    ...opts,
  });
  return reporter;
}

/** A `collect` that takes `ms` of the (fake) clock: a page slow to walk. */
const slowCollect = (ms: number) => () => {
  collects++;
  vi.advanceTimersByTime(ms);
  return current;
};

/** Lets the reporter's quiet period pass. */
const quiet = () => vi.advanceTimersByTime(150);
/** The end of the task that fired the events: the reporter reports there (a microtask). */
const endOfTask = () => Promise.resolve();
const fire = async (type: string, target: EventTarget = window) => {
  target.dispatchEvent(new Event(type));
  await endOfTask();
};

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  current = [];
  collects = 0;
  reporter = null;
  document.body.innerHTML = '';
});

afterEach(() => {
  reporter?.();
  vi.useRealTimers();
});

describe('startSensitiveRectReporter', () => {
  it('reports at start, an empty document with no rects, as a valid message', async () => {
    reporter = startSensitiveRectReporter(window, (m) => sent.push(m), { pollMs: 0, whenPainted: () => null });
    expect(sent).toHaveLength(1);
    expect(SensitiveRectsMessageSchema.parse(sent[0])).toEqual({
      type: 'redaction/rects',
      ts: Date.now(),
      url: window.location.href,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      device_pixel_ratio: window.devicePixelRatio,
      rects: [],
      scroll: { x: window.scrollX, y: window.scrollY },
    });
  });

  it('reports nothing before the document has painted (the screen still shows the page before it), then at once', async () => {
    let painted: () => void = () => {};
    const stopWaiting = vi.fn();
    start({
      whenPainted: (onPainted) => {
        painted = onPainted;
        return stopWaiting;
      },
    });
    current = [FIELD];
    await fire('focusin', document);
    await fire('DOMContentLoaded', document); // a milestone, forced otherwise
    vi.advanceTimersByTime(5_000); // polls, resends
    expect(sent).toEqual([]);
    painted();
    expect(sent.map((m) => m.rects)).toEqual([[FIELD]]);
    reporter!();
    expect(stopWaiting).toHaveBeenCalledTimes(1);
  });

  it('by default waits for a paint entry, at most FIRST_PAINT_WAIT_MS; a document that painted before reports at once', async () => {
    const entries: { name: string }[] = [];
    const observers: (() => void)[] = [];
    class FakeObserver {
      constructor(private readonly callback: () => void) {}
      observe() {
        observers.push(this.callback);
      }
      disconnect() {}
    }
    const performance = { getEntriesByType: (type: string) => (type === 'paint' ? entries : []) };
    const win = new Proxy(window, {
      get(target, key) {
        if (key === 'PerformanceObserver') return FakeObserver;
        if (key === 'performance') return performance;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    reporter = startSensitiveRectReporter(win, (m) => sent.push(m), { pollMs: 0, collect: () => [] });
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(sent).toHaveLength(1); // no paint entry came: reported anyway
    reporter();
    // A paint entry arriving: reported then.
    sent = [];
    reporter = startSensitiveRectReporter(win, (m) => sent.push(m), { pollMs: 0, collect: () => [] });
    expect(sent).toHaveLength(0);
    observers.at(-1)!();
    expect(sent).toHaveLength(1);
    reporter();
    // A document that painted before the reporter started reports at once.
    sent = [];
    entries.push({ name: 'first-paint' });
    reporter = startSensitiveRectReporter(win, (m) => sent.push(m), { pollMs: 0, collect: () => [] });
    expect(sent).toHaveLength(1);
  });

  it('reports the first change after a quiet spell at once (leading edge)', async () => {
    start();
    quiet();
    current = [FIELD];
    await fire('scroll', document);
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('coalesces a burst of changes into one report per animation frame, with the latest rects', async () => {
    start();
    for (let i = 0; i < 10; i++) {
      current = [{ ...FIELD, y: 20 + i }];
      await fire('scroll', document);
    }
    expect(sent).toHaveLength(1);
    expect(collects).toBe(1);
    vi.advanceTimersByTime(20);
    expect(collects).toBe(2);
    expect(sent.map((m) => m.rects)).toEqual([[], [{ ...FIELD, y: 29 }]]);
  });

  it('reports typing, focus and DOM changes at the end of their task, even right after another report', async () => {
    start();
    vi.advanceTimersByTime(5);
    current = [FIELD];
    await fire('input', document.body);
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    vi.advanceTimersByTime(5);
    current = [];
    document.body.append(document.createElement('p'));
    await Promise.resolve();
    await Promise.resolve();
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
  });

  it('makes one report of the events of one change: a script moving the focus fires change, focusout and focusin', async () => {
    document.body.innerHTML = '<input id="a" type="text"><input id="b" type="text">';
    const a = document.getElementById('a') as HTMLInputElement;
    a.focus();
    start();
    quiet();
    const before = collects;
    current = [FIELD];
    a.dispatchEvent(new Event('change', { bubbles: true }));
    (document.getElementById('b') as HTMLInputElement).focus();
    // Nothing yet within the task; once it ends (before anything is painted), one collection.
    expect(collects).toBe(before);
    await endOfTask();
    expect(collects).toBe(before + 1);
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('reports a character typed into the focused text field with the next frame, off the typing task', async () => {
    document.body.innerHTML = '<input id="name" type="text"><input id="other" type="text"><div contenteditable="true" id="editor"></div>';
    const name = document.getElementById('name') as HTMLInputElement;
    const other = document.getElementById('other') as HTMLInputElement;
    name.focus();
    start();
    vi.advanceTimersByTime(5);
    current = [FIELD];
    name.value = 'J';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    // The focused field is a region already (reported when it got the focus): nothing new to hide now.
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(120); // the next animation frame (or its fallback timer)
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    // A value set into a field that does not have the focus, or text in an editor: at the end of the task.
    current = [];
    other.value = 'jane@example.com';
    other.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(sent).toHaveLength(3);
    current = [FIELD];
    document.getElementById('editor')!.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(sent).toHaveLength(4);
  });

  it('reports typing at once when the focus came after the last report (that report does not hold the field)', async () => {
    document.body.innerHTML = '<input id="name" type="text">';
    const name = document.getElementById('name') as HTMLInputElement;
    let clock = 0;
    start({ now: () => clock, pollMs: 0 });
    // Focus without a report of it (as when the focus report waits for a slow collection).
    const quietFocus = (e: Event) => e.stopImmediatePropagation();
    window.addEventListener('focusin', quietFocus, { capture: true });
    name.focus();
    window.removeEventListener('focusin', quietFocus, { capture: true });
    expect(sent).toHaveLength(1);
    clock += 1_000;
    current = [FIELD];
    name.value = 'j';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('coalesces changes of content once collecting has taken its budget', async () => {
    start({
      contentBudgetMs: 8,
      collect: () => {
        collects++;
        vi.advanceTimersByTime(3); // a 3 ms collection
        return current;
      },
    });
    for (let i = 0; i < 5; i++) await fire('input', document.body);
    expect(collects).toBe(3); // 3 + 3 ms spent, then 9 ms: over the budget
    vi.advanceTimersByTime(30); // a slow collection waits 8× its cost
    expect(collects).toBe(4);
    vi.advanceTimersByTime(300); // the budget recovers
    await fire('input', document.body);
    expect(collects).toBe(5);
  });

  it('does not send a report equal to the last one', async () => {
    current = [FIELD];
    start();
    quiet();
    await fire('resize');
    vi.advanceTimersByTime(20);
    expect(collects).toBe(2);
    expect(sent).toHaveLength(1);
  });

  it.each([
    ['scroll', () => document],
    ['resize', () => window],
    ['input', () => document.body],
    ['change', () => document.body],
    ['focusin', () => document.body],
    ['focusout', () => document.body],
    ['transitionend', () => document.body],
    ['animationend', () => document.body],
    ['load', () => document.body],
    ['load', () => window],
    ['DOMContentLoaded', () => document],
  ])('looks again after %s', async (type, target) => {
    start();
    quiet();
    current = [FIELD];
    target().dispatchEvent(new Event(type, { bubbles: type === 'DOMContentLoaded' }));
    await endOfTask();
    expect(sent.at(-1)?.rects).toEqual([FIELD]);
  });

  it('looks again after a DOM change, an attribute or a text change', async () => {
    document.body.innerHTML = '<p id="p">hi</p>';
    start();
    for (const change of [
      () => document.body.append(document.createElement('input')),
      () => document.getElementById('p')!.setAttribute('class', 'moved'),
      () => (document.getElementById('p')!.firstChild!.nodeValue = 'a@b.io'),
    ]) {
      await vi.advanceTimersByTimeAsync(150);
      const before = collects;
      change();
      await vi.advanceTimersByTimeAsync(20);
      expect(collects).toBe(before + 1);
    }
  });

  it('watches the shadow roots and documents the collection walked', async () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    const inner = document.implementation.createHTMLDocument('frame');
    reporter = startSensitiveRectReporter(window, (m) => sent.push(m), {
      whenPainted: () => null,
      collect: (_doc, onRoot) => {
        collects++;
        onRoot(shadow);
        onRoot(inner);
        return current;
      },
    });
    await vi.advanceTimersByTimeAsync(150);
    shadow.innerHTML = '<input type="password">';
    await vi.advanceTimersByTimeAsync(20);
    expect(collects).toBe(2);
    await vi.advanceTimersByTimeAsync(150);
    await fire('scroll', inner.body);
    expect(collects).toBe(3);
  });

  it('finds changes no event announced by polling, only while the page is visible', async () => {
    start({ pollMs: 1000 });
    current = [FIELD];
    vi.advanceTimersByTime(1000);
    expect(sent.at(-1)?.rects).toEqual([FIELD]);
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    try {
      const before = collects;
      vi.advanceTimersByTime(3000);
      expect(collects).toBe(before);
    } finally {
      Object.defineProperty(document, 'hidden', { value: false, configurable: true });
    }
  });

  it('sends an unchanged report again now and then, for a background that restarted', async () => {
    start({ pollMs: 1000, resendMs: 5000 });
    vi.advanceTimersByTime(4000);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.rects).toEqual([]);
  });

  it('sends the report again at page milestones, even if unchanged', async () => {
    start();
    await fire('DOMContentLoaded', document);
    await fire('load');
    await fire('pageshow');
    await fire('visibilitychange', document);
    expect(sent).toHaveLength(5);
    // An image loading is no milestone.
    quiet();
    await fire('load', document.body);
    expect(sent).toHaveLength(5);
  });

  it('waits longer between reports when collecting is slow', async () => {
    start({ collect: slowCollect(10) }); // a 10 ms collection
    await fire('scroll', document);
    vi.advanceTimersByTime(50);
    expect(collects).toBe(1);
    vi.advanceTimersByTime(40);
    expect(collects).toBe(2);
  });

  it('paces scrolling by what measuring again costs, not by the slow walk before it', async () => {
    let remeasures = 0;
    start({
      collect: slowCollect(10), // a slow page to walk
      remeasure: () => {
        remeasures++;
        vi.advanceTimersByTime(0.5); // what that walk found, measured again
        return current;
      },
    });
    expect(collects).toBe(1);
    await fire('scroll', document); // right after the walk: paced, the next animation frame
    vi.advanceTimersByTime(20);
    expect(remeasures).toBe(1);
    expect(collects).toBe(1);
  });

  it('paces a report by a walk when the page changes its DOM on scroll after the reporter heard of it', async () => {
    let remeasures = 0;
    start({
      collect: slowCollect(10),
      remeasure: () => {
        remeasures++;
        return current;
      },
    });
    // The page's own handler runs after the reporter's (a sticky header changing on scroll).
    const onScroll = () => document.body.setAttribute('data-scrolled', String(Math.random()));
    document.addEventListener('scroll', onScroll);
    try {
      await fire('scroll', document);
      vi.advanceTimersByTime(20); // an animation frame: a walk is due, not a cheap measure
      expect(collects).toBe(1);
      vi.advanceTimersByTime(80); // 8 times the last walk's cost after it
      expect(collects).toBe(2);
      expect(remeasures).toBe(0);
    } finally {
      document.removeEventListener('scroll', onScroll);
    }
  });

  it('reports nothing until the viewport has a size', async () => {
    const width = Object.getOwnPropertyDescriptor(window, 'innerWidth');
    Object.defineProperty(window, 'innerWidth', { value: 0, configurable: true });
    try {
      start();
      expect(sent).toHaveLength(0);
    } finally {
      if (width) Object.defineProperty(window, 'innerWidth', width);
      else Reflect.deleteProperty(window, 'innerWidth');
    }
    quiet();
    await fire('resize');
    expect(sent).toHaveLength(1);
  });

  it('never throws into the page, and warns once per problem', async () => {
    const warn = vi.fn();
    let fail = true;
    start({
      warn,
      collect: () => {
        if (fail) throw new Error('boom');
        return current;
      },
    });
    quiet();
    await fire('scroll', document); // the page's task goes on: nothing thrown into it
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toContain('boom');
    fail = false;
    quiet();
    await fire('scroll', document);
    expect(sent).toHaveLength(1);
  });

  it('reports at once on refresh, and nothing at all once stopped', async () => {
    const stop = start({ pollMs: 1000 });
    current = [FIELD];
    stop.refresh();
    expect(sent.at(-1)?.rects).toEqual([FIELD]);
    stop();
    const before = collects;
    await fire('scroll', document);
    document.body.append(document.createElement('p'));
    await vi.advanceTimersByTimeAsync(10_000);
    stop.refresh();
    expect(collects).toBe(before);
  });

  describe('answering a sync (a frame asks where the fields are)', () => {
    /** One animation frame of the fake clock. */
    const nextFrame = () => vi.advanceTimersByTime(17);
    const setHidden = (hidden: boolean) => Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
    afterEach(() => setHidden(false));

    it('answers at the second animation frame, with the regions then, unchanged or not, and the reports go on as if it had not', async () => {
      const stop = start({ pollMs: 0 });
      current = [FIELD];
      stop.refresh();
      const before = sent.length;
      const answers: (SensitiveRectsMessage | null)[] = [];
      // Two frames waiting: one measurement answers both.
      stop.sync((r) => answers.push(r));
      stop.sync((r) => answers.push(r));
      nextFrame();
      // The frame already asked for may carry the compositor's scroll from before the question: not yet.
      expect(answers).toEqual([]);
      current = [{ ...FIELD, y: 400 }];
      nextFrame();
      expect(answers.map((r) => r?.rects)).toEqual([[{ ...FIELD, y: 400 }], [{ ...FIELD, y: 400 }]]);
      expect(SensitiveRectsMessageSchema.safeParse(answers[0]).success).toBe(true);
      // Unchanged: answered all the same.
      stop.sync((r) => answers.push(r));
      nextFrame();
      nextFrame();
      expect(answers.at(-1)?.rects).toEqual([{ ...FIELD, y: 400 }]);
      // Not sent on the port; the next report sends the move all the same (the answer may have been lost).
      expect(sent).toHaveLength(before);
      quiet();
      await fire('scroll', document);
      expect(sent.at(-1)?.rects).toEqual([{ ...FIELD, y: 400 }]);
    });

    it('answers a question that came while another waited two animation frames after it, both at once', () => {
      const stop = start({ pollMs: 0 });
      const answers: string[] = [];
      stop.sync(() => answers.push('first'));
      nextFrame();
      stop.sync(() => answers.push('second'));
      nextFrame();
      expect(answers).toEqual([]);
      nextFrame();
      expect(answers).toEqual(['first', 'second']);
    });

    it('answers at once in a hidden document, and when the document is hidden with a question waiting', () => {
      const stop = start({ pollMs: 0 });
      current = [FIELD];
      const answers: (SensitiveRectsMessage | null)[] = [];
      stop.sync((r) => answers.push(r));
      setHidden(true);
      document.dispatchEvent(new Event('visibilitychange'));
      expect(answers.map((r) => r?.rects)).toEqual([[FIELD]]);
      stop.sync((r) => answers.push(r));
      expect(answers).toHaveLength(2);
    });

    it('waits longer to answer when measuring is slow', () => {
      const stop = start({ pollMs: 0, collect: slowCollect(20) });
      const answers: (SensitiveRectsMessage | null)[] = [];
      stop.refresh(); // 20 ms: the next measurement waits 160 ms after it
      stop.sync((r) => answers.push(r));
      nextFrame();
      nextFrame();
      expect(answers).toEqual([]);
      vi.advanceTimersByTime(160);
      expect(answers).toHaveLength(1);
    });

    it('answers null once stopped, and before the document has painted', () => {
      let painted: () => void = () => {};
      const stop = start({
        whenPainted: (onPainted) => {
          painted = onPainted;
          return () => {};
        },
      });
      const answers: (SensitiveRectsMessage | null)[] = [];
      stop.sync((r) => answers.push(r));
      nextFrame();
      nextFrame();
      expect(answers).toEqual([null]);
      painted();
      stop.sync((r) => answers.push(r));
      stop(); // waiting: answered now
      stop.sync((r) => answers.push(r));
      expect(answers).toEqual([null, null, null]);
    });
  });

  describe('measuring again instead of walking the page', () => {
    let remeasures: number;
    /** Remeasures give the current rects, as a walk would; `null` when the collection cannot be measured again. */
    let remeasured: ViewportRect[] | null;
    const startRemeasuring = (opts: RectReporterOptions = {}) => {
      remeasures = 0;
      remeasured = null;
      return start({
        pollMs: 0,
        remeasure: () => {
          remeasures++;
          return remeasured;
        },
        ...opts,
      });
    };
    const canRemeasure = () => {
      remeasured = current;
    };

    it('measures again after a focus change or scrolling with no DOM mutation, and walks again after one', async () => {
      document.body.innerHTML = '<input id="a"><input id="b">';
      startRemeasuring();
      expect(collects).toBe(1);
      current = [FIELD];
      canRemeasure();
      (document.getElementById('a') as HTMLInputElement).focus();
      await endOfTask();
      quiet();
      await fire('scroll', document);
      expect([collects, remeasures]).toEqual([1, 2]);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);

      document.body.append(document.createElement('p'));
      await endOfTask();
      await endOfTask();
      expect([collects, remeasures]).toEqual([2, 2]);
    });

    it('walks again when the DOM changed after the focus in the same task (the mutation not yet delivered)', async () => {
      document.body.innerHTML = '<input id="a">';
      startRemeasuring();
      canRemeasure();
      (document.getElementById('a') as HTMLInputElement).focus();
      document.body.append(document.createElement('p'));
      await endOfTask();
      expect([collects, remeasures]).toEqual([2, 0]);
    });

    it('walks again when the last walk is older than walkMaxAgeMs, or when a remeasure cannot stand in', async () => {
      document.body.innerHTML = '<input id="a"><input id="b">';
      startRemeasuring({ walkMaxAgeMs: 250 });
      vi.advanceTimersByTime(300);
      canRemeasure();
      (document.getElementById('a') as HTMLInputElement).focus();
      await endOfTask();
      expect([collects, remeasures]).toEqual([2, 0]);
      remeasured = null;
      quiet();
      (document.getElementById('b') as HTMLInputElement).focus();
      await endOfTask();
      expect([collects, remeasures]).toEqual([3, 1]);
    });

    it('walks the page once the last walk is walkMaxAgeMs old, after reports measured again (an attached shadow root shows no mutation)', async () => {
      document.body.innerHTML = '<input id="a">';
      startRemeasuring({ walkMaxAgeMs: 250 });
      canRemeasure();
      vi.advanceTimersByTime(100);
      (document.getElementById('a') as HTMLInputElement).focus();
      await endOfTask();
      expect([collects, remeasures]).toEqual([1, 1]);
      vi.advanceTimersByTime(149);
      expect(collects).toBe(1);
      vi.advanceTimersByTime(1);
      expect(collects).toBe(2);
      vi.advanceTimersByTime(1000);
      expect([collects, remeasures]).toEqual([2, 1]);
    });

    it('walks again at page milestones and on refresh', async () => {
      startRemeasuring();
      canRemeasure();
      window.dispatchEvent(new Event('pageshow'));
      expect(collects).toBe(2);
      reporter!.refresh();
      expect([collects, remeasures]).toEqual([3, 0]);
    });
  });

  describe('a report with fewer regions waits', () => {
    const OTHER: ViewportRect = { x: 10, y: 60, width: 100, height: 30 };
    /** The regions become `rects`, and an event of `type` tells it after a quiet spell. */
    const becomes = async (rects: ViewportRect[], type: string) => {
      current = rects;
      quiet();
      await fire(type, document);
    };

    it('sends fewer regions only after fewerDelayMs, the frames meanwhile masked over more than needed', async () => {
      start({ fewerDelayMs: 300, pollMs: 0 });
      await becomes([FIELD, OTHER], 'focusin');
      await becomes([OTHER], 'focusout');
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER]]);
      vi.advanceTimersByTime(299);
      expect(sent).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [OTHER]]);
    });

    it('sends at once a report that adds or moves a region, with the regions dropped meanwhile', async () => {
      start({ fewerDelayMs: 300, pollMs: 0 });
      await becomes([FIELD, OTHER], 'focusin');
      await becomes([OTHER], 'focusout');
      await becomes([{ ...OTHER, y: 61 }], 'scroll');
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [{ ...OTHER, y: 61 }]]);
      vi.advanceTimersByTime(1000);
      expect(sent).toHaveLength(3);
    });

    it('sends nothing when the regions are back before the wait ends', async () => {
      start({ fewerDelayMs: 300, pollMs: 0 });
      await becomes([FIELD], 'focusin');
      await becomes([], 'focusout');
      await becomes([FIELD], 'focusin');
      vi.advanceTimersByTime(1000);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    });

    it('does not wait when the viewport changed, nor on a forced refresh', async () => {
      const stop = start({ fewerDelayMs: 300, pollMs: 0 });
      await becomes([FIELD], 'focusin');
      current = [];
      stop.refresh(true);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
      await becomes([FIELD], 'focusin');
      current = [];
      const own = Object.getOwnPropertyDescriptor(window, 'innerWidth');
      Object.defineProperty(window, 'innerWidth', { value: window.innerWidth + 10, configurable: true });
      try {
        quiet();
        await fire('resize');
        expect(sent.map((m) => m.rects)).toEqual([[], [FIELD], [], [FIELD], []]);
      } finally {
        if (own) Object.defineProperty(window, 'innerWidth', own);
        else delete (window as { innerWidth?: number }).innerWidth;
      }
    });

    it('waits on a plain refresh (the rules changed) as on any other change', async () => {
      const stop = start({ fewerDelayMs: 300, pollMs: 0 });
      current = [FIELD];
      stop.refresh();
      current = [];
      stop.refresh();
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
      vi.advanceTimersByTime(300);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
    });

    it('sends an unchanged report again at once, and the same regions in another order at once', async () => {
      start({ fewerDelayMs: 300, pollMs: 1000, resendMs: 5000 });
      await becomes([FIELD, OTHER], 'focusin');
      vi.advanceTimersByTime(5800); // the poll at 6000 ms, the first one 5000 ms after the report
      expect(sent).toHaveLength(2);
      vi.advanceTimersByTime(100);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [FIELD, OTHER]]);
      await becomes([OTHER, FIELD], 'scroll');
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD, OTHER], [FIELD, OTHER], [OTHER, FIELD]]);
    });

    it('does not send a waiting report from a page being left', async () => {
      start({ fewerDelayMs: 300, pollMs: 0 });
      await becomes([FIELD], 'focusin');
      await becomes([], 'focusout');
      window.dispatchEvent(new Event('pagehide'));
      vi.advanceTimersByTime(1000);
      expect(sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    });
  });
});
