import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameThrottle } from './frame-throttle';

describe('FrameThrottle', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  const run = (fps: number, frames: [number, string][], tabId = 1) => {
    const stored: [number, string][] = [];
    const throttle = new FrameThrottle<string>(fps, (_tab, ts, frame) => stored.push([ts, frame]));
    let now = 0;
    for (const [ts, frame] of frames) {
      vi.advanceTimersByTime(ts - now); // held frames whose slot has come are stored first
      now = ts;
      throttle.offer(tabId, ts, frame, frame);
    }
    vi.advanceTimersByTime(10_000);
    return stored;
  };

  it('keeps at most fps frames a second from a 60 fps screencast', () => {
    const frames = Array.from({ length: 60 }, (_, i) => [Math.round(i * 16.7), `f${i}`] as [number, string]);
    const stored = run(8, frames);
    expect(stored.length).toBeGreaterThanOrEqual(8);
    expect(stored.length).toBeLessThanOrEqual(10);
    const gaps = stored.slice(1).map(([ts], i) => ts - stored[i]![0]);
    // Stored frames keep their own time: paced about 1/fps apart, except the burst's final frame,
    // which is kept whenever it came (the trailing edge).
    expect(Math.min(...gaps.slice(0, -1))).toBeGreaterThanOrEqual(100);
    expect(stored.at(-1)![1]).toBe('f59');
  });

  it('does not store the same picture twice in a row', () => {
    expect(run(8, [[0, 'a'], [200, 'a'], [400, 'a'], [600, 'b'], [800, 'a']]).map(([, f]) => f)).toEqual(['a', 'b', 'a']);
  });

  it('stores the last frame of a burst after its slot (trailing edge)', () => {
    const stored = run(2, [[0, 'a'], [100, 'b'], [200, 'c']]);
    expect(stored).toEqual([[0, 'a'], [200, 'c']]);
  });

  it('throttles each tab on its own', () => {
    const stored: number[] = [];
    const throttle = new FrameThrottle<string>(1, (tab) => stored.push(tab));
    throttle.offer(1, 0, 'a', 'a');
    throttle.offer(2, 10, 'a', 'a');
    expect(stored).toEqual([1, 2]);
  });
});
