// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { classifyChange, watchChanges, type Change, type ChangeWatch, type ChangeWatchHandlers } from './change-events';
import { createGuard } from './guard';

/** An event as a listener sees it: of `type`, at `target`. */
const eventAt = (type: string, target: EventTarget) => ({ type, target, composedPath: () => [target] }) as unknown as Event;

describe('classifyChange', () => {
  const field = document.createElement('input');
  it.each<[string, Change, () => EventTarget, boolean]>([
    ['DOMContentLoaded', 'milestone', () => document, false],
    ['visibilitychange', 'milestone', () => document, false],
    ['load', 'milestone', () => window, false],
    ['pageshow', 'milestone', () => window, false],
    ['load', 'layout', () => document.body, false], // an image loading
    ['input', 'typing', () => field, true],
    ['input', 'content', () => field, false],
    ['change', 'content', () => field, true],
    ['focusin', 'content', () => field, false],
    ['focusout', 'content', () => field, false],
    ['toggle', 'content', () => document.body, false],
    ['scroll', 'layout', () => document, false],
    ['resize', 'layout', () => window, false],
    ['transitionend', 'layout', () => document.body, false],
    ['loadingdone', 'layout', () => document.fonts, false],
  ])('%s is %s', (type, change, target, typing) => {
    expect(classifyChange(eventAt(type, target()), window, () => typing)).toBe(change);
  });

  it('sees no milestone in a hidden document', () => {
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    try {
      expect(classifyChange(eventAt('visibilitychange', document), window, () => false)).toBe('layout');
    } finally {
      Object.defineProperty(document, 'hidden', { value: false, configurable: true });
    }
  });

  it('asks about the field an input event came from, inside a shadow root too', () => {
    const isTyping = vi.fn(() => true);
    const inner = document.createElement('input');
    const event = { type: 'input', target: document.body, composedPath: () => [inner, document.body] } as unknown as Event;
    expect(classifyChange(event, window, isTyping)).toBe('typing');
    expect(isTyping).toHaveBeenCalledWith(inner);
  });
});

describe('watchChanges', () => {
  let changes: Change[];
  let handlers: ChangeWatchHandlers;
  let watch: ChangeWatch;
  let warn: Mock<(message: string) => void>;
  const tick = () => Promise.resolve();

  beforeEach(() => {
    document.body.innerHTML = '';
    changes = [];
    warn = vi.fn();
    handlers = {
      guarded: createGuard(warn),
      onChange: (change) => changes.push(change),
      onMutation: vi.fn(),
      onPageHide: vi.fn(),
      isTyping: () => false,
    };
    watch = watchChanges(window, handlers);
  });
  afterEach(() => watch.stop());

  it('tells of the events of the top document and window, in the capture phase', () => {
    const stopped = (e: Event) => e.stopPropagation();
    document.body.addEventListener('focusin', stopped); // the page's own handlers do not hide them
    try {
      document.dispatchEvent(new Event('scroll'));
      window.dispatchEvent(new Event('resize'));
      document.body.dispatchEvent(new Event('focusin', { bubbles: true }));
      document.body.dispatchEvent(new Event('load')); // does not bubble: heard in the capture phase
    } finally {
      document.body.removeEventListener('focusin', stopped);
    }
    expect(changes).toEqual(['layout', 'layout', 'content', 'layout']);
  });

  it('tells of DOM mutations, or gives them to whoever takes them first', async () => {
    document.body.append(document.createElement('p'));
    await tick();
    expect(handlers.onMutation).toHaveBeenCalledOnce();
    document.body.append(document.createElement('p'));
    expect(watch.takeMutations()).toBe(true);
    expect(watch.takeMutations()).toBe(false);
    await tick();
    expect(handlers.onMutation).toHaveBeenCalledOnce();
  });

  it('watches the roots it is given: mutations of a shadow root, events of an iframe document', async () => {
    document.body.innerHTML = '<div id="host"></div>';
    const shadow = document.getElementById('host')!.attachShadow({ mode: 'open' });
    const inner = document.implementation.createHTMLDocument('frame');
    await tick();
    vi.mocked(handlers.onMutation).mockClear();
    watch.observe(shadow);
    watch.observe(inner);
    watch.observe(inner); // once
    shadow.innerHTML = '<input type="password">';
    await tick();
    expect(handlers.onMutation).toHaveBeenCalledOnce();
    inner.body.dispatchEvent(new Event('scroll'));
    expect(changes).toEqual(['layout']);
  });

  it('tells of the page being left', () => {
    window.dispatchEvent(new Event('pagehide'));
    expect(handlers.onPageHide).toHaveBeenCalledOnce();
  });

  it('never throws into the page: a failing handler is warned about', () => {
    handlers.onChange = () => {
      throw new Error('boom');
    };
    document.dispatchEvent(new Event('scroll'));
    expect(warn).toHaveBeenCalledWith('handling an event failed: boom');
  });

  it('tells of a change of the device pixel ratio without a resize, and of the next one', () => {
    watch.stop();
    /** The media queries asked for, each a target of `change` events. */
    const queries: (EventTarget & { media: string })[] = [];
    let dpr = 1;
    const win = Object.create(window, {
      devicePixelRatio: { get: () => dpr },
      matchMedia: { value: (media: string) => queries[queries.push(Object.assign(new EventTarget(), { media })) - 1] },
    }) as Window;
    watch = watchChanges(win, handlers);
    expect(queries.map((q) => q.media)).toEqual(['(resolution: 1dppx)']);
    dpr = 2;
    queries[0]!.dispatchEvent(new Event('change'));
    expect(changes).toEqual(['layout']);
    expect(queries.map((q) => q.media)).toEqual(['(resolution: 1dppx)', '(resolution: 2dppx)']);
    // The old query no longer listened to; the new one is.
    queries[0]!.dispatchEvent(new Event('change'));
    expect(changes).toEqual(['layout']);
    dpr = 1.5;
    queries[1]!.dispatchEvent(new Event('change'));
    expect(changes).toEqual(['layout', 'layout']);
    watch.stop();
    queries[2]!.dispatchEvent(new Event('change'));
    expect(changes).toEqual(['layout', 'layout']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('hears nothing once stopped', async () => {
    watch.stop();
    document.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('pagehide'));
    document.body.append(document.createElement('p'));
    await tick();
    expect(changes).toEqual([]);
    expect(handlers.onMutation).not.toHaveBeenCalled();
    expect(handlers.onPageHide).not.toHaveBeenCalled();
  });
});
