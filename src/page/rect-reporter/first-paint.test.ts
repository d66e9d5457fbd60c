import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFirstPaint, FIRST_PAINT_WAIT_MS, whenFirstPainted } from './first-paint';
import { createGuard } from './guard';

/** A window with paint timing: `entries` are its paint entries, `observers` the callbacks of its PerformanceObservers. */
function fakeWindow({ hidden = false, entries = [] as unknown[], observeThrows = false, timing = true } = {}) {
  const observers: (() => void)[] = [];
  const disconnect = vi.fn();
  class FakeObserver {
    constructor(private readonly callback: () => void) {}
    observe() {
      if (observeThrows) throw new Error('paint entries not supported');
      observers.push(this.callback);
    }
    disconnect = disconnect;
  }
  const win = {
    document: { hidden },
    performance: { getEntriesByType: (type: string) => (type === 'paint' ? entries : []) },
    PerformanceObserver: timing ? FakeObserver : undefined,
  } as unknown as Window;
  return { win, observers, disconnect };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('whenFirstPainted', () => {
  it.each([
    ['a hidden document', { hidden: true }],
    ['a document that painted already', { entries: [{ name: 'first-paint' }] }],
    ['a browser without paint timing', { timing: false }],
    ['a browser that cannot observe paint entries', { observeThrows: true }],
  ])('counts %s as painted (null)', (_name, setup) => {
    const onPainted = vi.fn();
    expect(whenFirstPainted(fakeWindow(setup).win, onPainted)).toBeNull();
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(onPainted).not.toHaveBeenCalled();
  });

  it('calls back once, at the first paint entry', () => {
    const { win, observers, disconnect } = fakeWindow();
    const onPainted = vi.fn();
    expect(whenFirstPainted(win, onPainted)).toBeTypeOf('function');
    observers[0]!();
    observers[0]!();
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(onPainted).toHaveBeenCalledOnce();
    expect(disconnect).toHaveBeenCalledOnce();
  });

  it('calls back FIRST_PAINT_WAIT_MS later when no paint entry comes', () => {
    const onPainted = vi.fn();
    whenFirstPainted(fakeWindow().win, onPainted);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(onPainted).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onPainted).toHaveBeenCalledOnce();
  });

  it('never calls back once stopped', () => {
    const { win, observers, disconnect } = fakeWindow();
    const onPainted = vi.fn();
    whenFirstPainted(win, onPainted)!();
    observers[0]!();
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(onPainted).not.toHaveBeenCalled();
    expect(disconnect).toHaveBeenCalledOnce();
  });
});

describe('createFirstPaint', () => {
  it('is painted until told it is not, and again once the paint came', () => {
    const firstPaint = createFirstPaint(createGuard(vi.fn()));
    expect(firstPaint.isPainted()).toBe(true);
    let painted: () => void = () => {};
    const onPainted = vi.fn(() => expect(firstPaint.isPainted()).toBe(true));
    firstPaint.wait((done) => {
      painted = done;
      return () => {};
    }, onPainted);
    expect(firstPaint.isPainted()).toBe(false);
    painted();
    expect(onPainted).toHaveBeenCalledOnce();
  });

  it('is painted when `whenPainted` says so (null), or throws', () => {
    const warn = vi.fn();
    const painted = createFirstPaint(createGuard(warn));
    painted.wait(() => null, vi.fn());
    expect(painted.isPainted()).toBe(true);
    const broken = createFirstPaint(createGuard(warn));
    broken.wait(() => {
      throw new Error('no paint timing');
    }, vi.fn());
    expect(broken.isPainted()).toBe(true);
    expect(warn).toHaveBeenCalledWith('waiting for the first paint failed: no paint timing');
  });

  it('stops waiting on stop, and never throws from the paint callback', () => {
    const warn = vi.fn();
    const stopWaiting = vi.fn();
    let painted: () => void = () => {};
    const firstPaint = createFirstPaint(createGuard(warn));
    firstPaint.wait(
      (done) => {
        painted = done;
        return stopWaiting;
      },
      () => {
        throw new Error('boom');
      },
    );
    expect(() => painted()).not.toThrow();
    expect(warn).toHaveBeenCalledWith('reporting sensitive regions failed: boom');
    firstPaint.stop();
    expect(stopWaiting).toHaveBeenCalledOnce();
  });
});
