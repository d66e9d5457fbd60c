// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { SensitiveRectsMessageSchema } from '../../schemas/messages';
import { FIRST_PAINT_WAIT_MS, startSensitiveRectReporter } from './rect-reporter';
import { endOfTask, FIELD, fire, quiet, useReporterHarness } from '../../test/fakes/rect-reporter-harness';
import { BUILT_IN_MASKER } from '../redact/mask-text';

const builtIn = () => BUILT_IN_MASKER;


const h = useReporterHarness();

describe('startSensitiveRectReporter', () => {
  it('reports at start, an empty document with no rects, as a valid message', async () => {
    h.reporter = startSensitiveRectReporter(window, (m) => h.sent.push(m), builtIn, { pollMs: 0, whenPainted: () => null });
    expect(h.sent).toHaveLength(1);
    expect(SensitiveRectsMessageSchema.parse(h.sent[0])).toEqual({
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
    h.start({
      whenPainted: (onPainted) => {
        painted = onPainted;
        return stopWaiting;
      },
    });
    h.current = [FIELD];
    await fire('focusin', document);
    await fire('DOMContentLoaded', document); // a milestone, forced otherwise
    vi.advanceTimersByTime(5_000); // polls, resends
    expect(h.sent).toEqual([]);
    painted();
    expect(h.sent.map((m) => m.rects)).toEqual([[FIELD]]);
    h.reporter!();
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
    h.reporter = startSensitiveRectReporter(win, (m) => h.sent.push(m), builtIn, { pollMs: 0, collect: () => [] });
    expect(h.sent).toHaveLength(0);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(h.sent).toHaveLength(1); // no paint entry came: reported anyway
    h.reporter();
    // A paint entry arriving: reported then.
    h.sent = [];
    h.reporter = startSensitiveRectReporter(win, (m) => h.sent.push(m), builtIn, { pollMs: 0, collect: () => [] });
    expect(h.sent).toHaveLength(0);
    observers.at(-1)!();
    expect(h.sent).toHaveLength(1);
    h.reporter();
    // A document that painted before the reporter started reports at once.
    h.sent = [];
    entries.push({ name: 'first-paint' });
    h.reporter = startSensitiveRectReporter(win, (m) => h.sent.push(m), builtIn, { pollMs: 0, collect: () => [] });
    expect(h.sent).toHaveLength(1);
  });

  it('reports typing, focus and DOM changes at the end of their task, even right after another report', async () => {
    h.start();
    vi.advanceTimersByTime(5);
    h.current = [FIELD];
    await fire('input', document.body);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    vi.advanceTimersByTime(5);
    h.current = [];
    document.body.append(document.createElement('p'));
    await Promise.resolve();
    await Promise.resolve();
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD], []]);
  });

  it('makes one report of the events of one change: a script moving the focus fires change, focusout and focusin', async () => {
    document.body.innerHTML = '<input id="a" type="text"><input id="b" type="text">';
    const a = document.getElementById('a') as HTMLInputElement;
    a.focus();
    h.start();
    quiet();
    const before = h.collects;
    h.current = [FIELD];
    a.dispatchEvent(new Event('change', { bubbles: true }));
    (document.getElementById('b') as HTMLInputElement).focus();
    // Nothing yet within the task; once it ends (before anything is painted), one collection.
    expect(h.collects).toBe(before);
    await endOfTask();
    expect(h.collects).toBe(before + 1);
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('reports a character typed into the focused text field with the next frame, off the typing task', async () => {
    document.body.innerHTML = '<input id="name" type="text"><input id="other" type="text"><div contenteditable="true" id="editor"></div>';
    const name = document.getElementById('name') as HTMLInputElement;
    const other = document.getElementById('other') as HTMLInputElement;
    name.focus();
    h.start();
    vi.advanceTimersByTime(5);
    h.current = [FIELD];
    name.value = 'J';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    // The focused field is a region already (reported when it got the focus): nothing new to hide now.
    expect(h.sent).toHaveLength(1);
    vi.advanceTimersByTime(120); // the next animation frame (or its fallback timer)
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
    // A value set into a field that does not have the focus, or text in an editor: at the end of the task.
    h.current = [];
    other.value = 'jane@example.com';
    other.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(h.sent).toHaveLength(3);
    h.current = [FIELD];
    document.getElementById('editor')!.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(h.sent).toHaveLength(4);
  });

  it('reports typing at once when the focus came after the last report (that report does not hold the field)', async () => {
    document.body.innerHTML = '<input id="name" type="text">';
    const name = document.getElementById('name') as HTMLInputElement;
    let clock = 0;
    h.start({ now: () => clock, pollMs: 0 });
    // Focus without a report of it (as when the focus report waits for a slow collection).
    const quietFocus = (e: Event) => e.stopImmediatePropagation();
    window.addEventListener('focusin', quietFocus, { capture: true });
    name.focus();
    window.removeEventListener('focusin', quietFocus, { capture: true });
    expect(h.sent).toHaveLength(1);
    clock += 1_000;
    h.current = [FIELD];
    name.value = 'j';
    name.dispatchEvent(new Event('input', { bubbles: true }));
    await endOfTask();
    expect(h.sent.map((m) => m.rects)).toEqual([[], [FIELD]]);
  });

  it('does not send a report equal to the last one', async () => {
    h.current = [FIELD];
    h.start();
    quiet();
    await fire('resize');
    vi.advanceTimersByTime(20);
    expect(h.collects).toBe(2);
    expect(h.sent).toHaveLength(1);
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
    h.start();
    quiet();
    h.current = [FIELD];
    target().dispatchEvent(new Event(type, { bubbles: type === 'DOMContentLoaded' }));
    await endOfTask();
    expect(h.sent.at(-1)?.rects).toEqual([FIELD]);
  });

  it('looks again after a DOM change, an attribute or a text change', async () => {
    document.body.innerHTML = '<p id="p">hi</p>';
    h.start();
    for (const change of [
      () => document.body.append(document.createElement('input')),
      () => document.getElementById('p')!.setAttribute('class', 'moved'),
      () => (document.getElementById('p')!.firstChild!.nodeValue = 'a@b.io'),
    ]) {
      await vi.advanceTimersByTimeAsync(150);
      const before = h.collects;
      change();
      await vi.advanceTimersByTimeAsync(20);
      expect(h.collects).toBe(before + 1);
    }
  });

  it('watches the shadow roots and documents the collection walked', async () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    const inner = document.implementation.createHTMLDocument('frame');
    h.reporter = startSensitiveRectReporter(window, (m) => h.sent.push(m), builtIn, {
      whenPainted: () => null,
      collect: (_doc, onRoot) => {
        h.collects++;
        onRoot(shadow);
        onRoot(inner);
        return h.current;
      },
    });
    await vi.advanceTimersByTimeAsync(150);
    shadow.innerHTML = '<input type="password">';
    await vi.advanceTimersByTimeAsync(20);
    expect(h.collects).toBe(2);
    await vi.advanceTimersByTimeAsync(150);
    await fire('scroll', inner.body);
    expect(h.collects).toBe(3);
  });

  it('sends the report again at page milestones, even if unchanged', async () => {
    h.start();
    await fire('DOMContentLoaded', document);
    await fire('load');
    await fire('pageshow');
    await fire('visibilitychange', document);
    expect(h.sent).toHaveLength(5);
    // An image loading is no milestone.
    quiet();
    await fire('load', document.body);
    expect(h.sent).toHaveLength(5);
  });

  it('reports nothing until the viewport has a size', async () => {
    const width = Object.getOwnPropertyDescriptor(window, 'innerWidth');
    Object.defineProperty(window, 'innerWidth', { value: 0, configurable: true });
    try {
      h.start();
      expect(h.sent).toHaveLength(0);
    } finally {
      if (width) Object.defineProperty(window, 'innerWidth', width);
      else Reflect.deleteProperty(window, 'innerWidth');
    }
    quiet();
    await fire('resize');
    expect(h.sent).toHaveLength(1);
  });

  it('never throws into the page, and warns once per problem', async () => {
    const warn = vi.fn();
    let fail = true;
    h.start({
      warn,
      collect: () => {
        if (fail) throw new Error('boom');
        return h.current;
      },
    });
    quiet();
    await fire('scroll', document); // the page's task goes on: nothing thrown into it
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toContain('boom');
    fail = false;
    quiet();
    await fire('scroll', document);
    expect(h.sent).toHaveLength(1);
  });

  it('reports at once on refresh, and nothing at all once stopped', async () => {
    const stop = h.start({ pollMs: 1000 });
    h.current = [FIELD];
    stop.refresh();
    expect(h.sent.at(-1)?.rects).toEqual([FIELD]);
    stop();
    const before = h.collects;
    await fire('scroll', document);
    document.body.append(document.createElement('p'));
    await vi.advanceTimersByTimeAsync(10_000);
    stop.refresh();
    expect(h.collects).toBe(before);
  });
});

// Typed at an agent's speed into a contenteditable, `editable.petra@ex` was readable in frames: the
// report (and each frame's answer) held an editor only once its text was a whole address, and a walk
// found the editor before it had the focus, so measuring again after the focus moved (no mutation) missed it.
describe('startSensitiveRectReporter with the page walked for real: an editor typed into', () => {
  const EDITOR = { x: 40, y: 60, width: 500, height: 46 };
  const unfocused = () => (document.activeElement as HTMLElement | null)?.blur();

  it('reports the editor as soon as it has the focus (no mutation), and answers a question asked right after a key with it', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const [x, y, width, height] = (this.getAttribute('data-box') ?? '0 0 0 0').split(' ').map(Number);
      return { x, y, left: x, top: y, width, height, right: x! + width!, bottom: y! + height! } as DOMRect;
    });
    document.body.innerHTML = `<div id="ed" contenteditable="true" data-box="40 60 500 46"><span id="line">mail me at </span></div><input id="other" data-box="40 200 300 40">`;
    unfocused();
    const sent: SensitiveRectsMessageLike[] = [];
    h.reporter = startSensitiveRectReporter(window, (m) => sent.push(m), builtIn, { pollMs: 0, whenPainted: () => null });
    expect(sent.at(-1)?.rects).toEqual([]);
    // The agent clicks into the editor: a focus change, measured again from the last walk.
    (document.getElementById('ed') as HTMLElement).focus();
    await fire('focusin', document.getElementById('ed')!);
    expect(sent.at(-1)?.rects).toEqual([expect.objectContaining(EDITOR)]);
    // It types into the child span; a frame's question comes before the mutation is delivered.
    document.getElementById('line')!.firstChild!.nodeValue = 'mail me at editable.petra@';
    const answers: (SensitiveRectsMessageLike | null)[] = [];
    h.reporter.sync((report) => answers.push(report));
    vi.advanceTimersByTime(100);
    await endOfTask();
    expect(answers.at(-1)?.rects).toEqual([expect.objectContaining(EDITOR)]);
    // The focus moves on: the editor still holds an address being typed (`…@`), as a text field would.
    (document.getElementById('other') as HTMLElement).focus();
    await fire('focusin', document.getElementById('other')!);
    expect(sent.at(-1)?.rects).toContainEqual(expect.objectContaining(EDITOR));
    // A script empties it: the editor shows nothing being typed any more.
    document.getElementById('line')!.textContent = 'mail me later';
    for (let i = 0; i < 5; i++) await endOfTask();
    // Fewer regions are reported a moment later (`fewerDelayMs`): a mask stays rather than go early.
    vi.advanceTimersByTime(1_000);
    expect(sent.at(-1)?.rects).toEqual([{ x: 40, y: 200, width: 300, height: 40, id: expect.any(Number) }]);
  });
});

type SensitiveRectsMessageLike = { rects: unknown[] };
