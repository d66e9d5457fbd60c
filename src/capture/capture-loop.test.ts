import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaptureLoop } from './capture-loop';
import { QUOTA_ERROR_MARKER, type CaptureTarget, type Capturer } from './ports';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';

const clock = { now: () => Date.now() };

/** A capturer that enforces Chrome's quota the way Chrome does: at most 2 calls in any 1 s. */
class QuotaCapturer implements Capturer {
  calls: { tabId: number; at: number }[] = [];
  constructor(public targets: CaptureTarget[]) {}
  async listTargets() {
    return this.targets;
  }
  async capture(target: CaptureTarget) {
    const now = Date.now();
    const lastSecond = this.calls.filter((c) => c.at > now - 1_000);
    this.calls.push({ tabId: target.tabId, at: now });
    if (lastSecond.length >= 2) throw new Error(`This request exceeds the ${QUOTA_ERROR_MARKER} quota.`);
    return { jpeg: new Uint8Array(1_000), width: 1280, height: 720 };
  }
}

const tab = (tabId: number, windowId = 1): CaptureTarget => ({ tabId, windowId, url: `https://shop.test/${tabId}` });

function makeLoop(capturer: Capturer, intervalMs = 600) {
  const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 64 << 20 });
  const log = vi.fn();
  return { loop: new CaptureLoop(capturer, ring, clock, { intervalMs, jpegQuality: 70 }, log), ring, log };
}

describe('CaptureLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('captures at the quota-paced rate for 30 s without a single quota error', async () => {
    const capturer = new QuotaCapturer([tab(1)]);
    const { loop } = makeLoop(capturer);
    loop.start();
    await vi.advanceTimersByTimeAsync(30_000);
    loop.stop();
    const stats = loop.stats();
    expect(stats.quotaErrors).toBe(0);
    expect(stats.capturesOk).toBeGreaterThanOrEqual(49); // 30 s / 600 ms
    expect(stats.fps).toBeGreaterThanOrEqual(1.6);
  });

  it('keeps the rate when each capture takes time: the interval runs from call to call', async () => {
    const capturer = new QuotaCapturer([tab(1)]);
    const slow: Capturer = {
      listTargets: () => capturer.listTargets(),
      capture: async (target) => {
        const image = await capturer.capture(target);
        await new Promise((r) => setTimeout(r, 150));
        return image;
      },
    };
    const { loop } = makeLoop(slow);
    loop.start();
    await vi.advanceTimersByTimeAsync(30_000);
    loop.stop();
    expect(loop.stats().quotaErrors).toBe(0);
    expect(loop.stats().capturesOk).toBeGreaterThanOrEqual(49);
  });

  it('looks for tabs once per interval, not in a busy loop, when there is nothing to capture', async () => {
    for (const listTargets of [async () => [], async () => [tab(1)], async () => Promise.reject(new Error('no windows'))]) {
      const capturer = { listTargets: vi.fn(listTargets), capture: vi.fn(async () => ({ jpeg: new Uint8Array(10), width: 1, height: 1 })) };
      const { loop } = makeLoop(capturer);
      loop.setTargetFilter(() => false); // e.g. every tab is recorded by the screencast
      loop.start();
      await vi.advanceTimersByTimeAsync(6_000);
      loop.stop();
      expect(capturer.capture).not.toHaveBeenCalled();
      expect(capturer.listTargets.mock.calls.length).toBeGreaterThanOrEqual(9); // 6 s / 600 ms
      expect(capturer.listTargets.mock.calls.length).toBeLessThanOrEqual(11);
    }
  });

  it('keeps the ring to the buffer window while it runs', async () => {
    const { loop, ring } = makeLoop(new QuotaCapturer([tab(1)]));
    loop.start();
    await vi.advanceTimersByTimeAsync(60_000);
    loop.stop();
    const frames = await ring.frames();
    // The first is the anchor from before the window; the rest are inside it.
    expect(frames[1]!.ts).toBeGreaterThanOrEqual(Date.now() - 15_000);
    expect(frames.length).toBeLessThanOrEqual(29);
  });

  it('takes turns between the active tabs of several windows', async () => {
    const capturer = new QuotaCapturer([tab(1, 1), tab(2, 2)]);
    const { loop } = makeLoop(capturer);
    loop.start();
    await vi.advanceTimersByTimeAsync(6_000);
    loop.stop();
    const perTab = (id: number) => capturer.calls.filter((c) => c.tabId === id).length;
    expect(Math.abs(perTab(1) - perTab(2))).toBeLessThanOrEqual(1);
  });

  it('captures the acting tab soon after an action, within the quota', async () => {
    const capturer = new QuotaCapturer([tab(1)]);
    const { loop } = makeLoop(capturer, 5_000);
    loop.start();
    await vi.advanceTimersByTimeAsync(1_000); // first capture at t=0, next periodic one at t=5 s
    expect(capturer.calls).toHaveLength(1);
    loop.requestCapture(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(capturer.calls).toHaveLength(2);
    // A burst of actions never exceeds the quota.
    for (let i = 0; i < 20; i++) {
      loop.requestCapture(1);
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(loop.stats().quotaErrors).toBe(0);
  });

  it('backs off after a quota error instead of burning calls on it', async () => {
    const capturer = new QuotaCapturer([tab(1)]);
    // Someone else used the quota: two calls just happened.
    capturer.calls.push({ tabId: 0, at: Date.now() }, { tabId: 0, at: Date.now() });
    const { loop, log } = makeLoop(capturer);
    loop.start();
    await vi.advanceTimersByTimeAsync(3_000);
    loop.stop();
    expect(loop.stats().quotaErrors).toBe(1);
    expect(loop.stats().capturesOk).toBeGreaterThanOrEqual(3);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('stores what the frame filter returns and counts what it drops', async () => {
    const { loop, ring } = makeLoop(new QuotaCapturer([tab(1)]));
    let n = 0;
    loop.setFrameFilter(async (_target, image) => (n++ % 2 === 0 ? { ...image, jpeg: new Uint8Array([9, 9]) } : null));
    loop.start();
    await vi.advanceTimersByTimeAsync(5_000);
    loop.stop();
    const frames = await ring.frames();
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.every((f) => f.size === 2)).toBe(true);
    expect(loop.stats().dropped).toBeGreaterThanOrEqual(frames.length - 1);
  });

  it('keeps running when a tab cannot be captured, logging the error once', async () => {
    const capturer: Capturer = {
      listTargets: async () => [tab(1)],
      capture: async () => {
        throw new Error('Cannot access contents of the page');
      },
    };
    const { loop, log } = makeLoop(capturer);
    loop.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(loop.isRunning).toBe(true);
    expect(loop.stats().captureErrors).toBeGreaterThan(5);
    expect(log).toHaveBeenCalledTimes(1);
    loop.stop();
  });
});
