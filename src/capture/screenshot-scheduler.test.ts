import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CdpFrame } from './cdp-frame-store';
import { CAST_SILENCE_MS, RETAKE_SPACING_MS, SCREENSHOT_SPACING_MS, ScreenshotScheduler } from './screenshot-scheduler';

const TAB = 5;

/** A scheduler over a fake debugger session; `casts`: whether TAB's frames come from its screencast. */
function scheduler({ attached = true, casts = true } = {}) {
  const stored: [number, number, CdpFrame][] = [];
  const screencast = { screenshot: vi.fn(async () => 'AAAA') };
  const context = {
    clock: { now: () => Date.now() },
    screencast,
    debuggerState: () => ({ attached }),
    log: vi.fn(),
    capturing: vi.fn(() => true),
    jpegQuality: () => 70,
    casts: vi.fn(() => casts),
    store: vi.fn(async (tabId: number, ts: number, frame: CdpFrame) => void stored.push([tabId, ts, frame])),
  };
  return { shots: new ScreenshotScheduler(context), stored, ...context };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ScreenshotScheduler', () => {
  it('takes a screenshot, stored with when it was asked for and when it came', async () => {
    const { shots, screencast, stored } = scheduler();
    const askedAt = Date.now();
    await shots.take(TAB);
    expect(screencast.screenshot).toHaveBeenCalledExactlyOnceWith(TAB, 70);
    expect(stored).toEqual([[TAB, askedAt, { data: 'AAAA', takenAt: askedAt }]]);
  });

  it('takes none of a tab without a debugger session', async () => {
    const { shots, screencast } = scheduler({ attached: false });
    await shots.take(TAB);
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });

  it('logs a screenshot that failed, and resolves', async () => {
    const { shots, screencast, log, stored } = scheduler();
    screencast.screenshot.mockRejectedValueOnce(new Error('Target closed'));
    await shots.take(TAB);
    expect(stored).toEqual([]);
    expect(log).toHaveBeenCalledWith(`[afr] screenshot of tab ${TAB} failed: Error: Target closed`);
  });

  it(`spaces screenshots after actions ${SCREENSHOT_SPACING_MS} ms apart: one asked for sooner waits, and shows every action since`, async () => {
    const { shots, screencast } = scheduler();
    shots.spaced(TAB);
    shots.spaced(TAB);
    shots.spaced(TAB);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SCREENSHOT_SPACING_MS - 1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SCREENSHOT_SPACING_MS * 2);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
  });

  it('spaces by the spacing asked for', async () => {
    const { shots, screencast } = scheduler();
    shots.spaced(TAB, 100);
    shots.spaced(TAB, 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
  });

  it('takes no due screenshot once recording stopped, nor one cancelled', async () => {
    const stopped = scheduler();
    stopped.shots.spaced(TAB);
    stopped.shots.spaced(TAB);
    stopped.capturing.mockReturnValue(false);
    await vi.advanceTimersByTimeAsync(SCREENSHOT_SPACING_MS);
    expect(stopped.screencast.screenshot).toHaveBeenCalledTimes(1);

    const cancelled = scheduler();
    cancelled.shots.spaced(TAB);
    cancelled.shots.spaced(TAB);
    cancelled.shots.cancelDue(TAB);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(SCREENSHOT_SPACING_MS);
    expect(cancelled.screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  it(`takes a screenshot of a screencasting tab that sent no frame within ${CAST_SILENCE_MS} ms (not being painted), one per silence`, async () => {
    const { shots, screencast } = scheduler();
    shots.expectCastFrame(TAB);
    shots.expectCastFrame(TAB); // the check pending covers it
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS - 1);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  it.each([
    { label: 'a screencast frame came', meanwhile: (s: ScreenshotScheduler) => s.noteCastFrame(TAB, Date.now()) },
    { label: 'a screenshot was taken (the failure frame)', meanwhile: (s: ScreenshotScheduler) => void s.take(TAB) },
    { label: 'the check was cancelled (the screencast stops for a burst)', meanwhile: (s: ScreenshotScheduler) => s.cancelSilenceCheck(TAB) },
    { label: 'the tab was forgotten', meanwhile: (s: ScreenshotScheduler) => s.forget(TAB) },
  ])('takes no screenshot after the silence when $label', async ({ meanwhile }) => {
    const { shots, screencast } = scheduler();
    shots.expectCastFrame(TAB);
    await vi.advanceTimersByTimeAsync(100);
    meanwhile(shots);
    screencast.screenshot.mockClear();
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });

  it('takes none after the silence of a tab that no longer casts (held for a burst, or its session ended)', async () => {
    const { shots, screencast } = scheduler({ casts: false });
    shots.expectCastFrame(TAB);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });

  it("checks a new page's frame at its own, sooner time though a navigating click's check is pending", async () => {
    const { shots, screencast } = scheduler();
    shots.expectCastFrame(TAB); // the click
    await vi.advanceTimersByTimeAsync(50);
    shots.noteCastFrame(TAB, Date.now()); // the old page's frame, after the click
    await vi.advanceTimersByTimeAsync(100);
    shots.expectFreshFrame(TAB, 100, 0); // the new page's first report
    await vi.advanceTimersByTimeAsync(99);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1); // it showed the click as well
  });

  it("checks a new page's frame due after a pending check once that one is over, when a frame of the page before met it", async () => {
    const { shots, screencast } = scheduler();
    shots.expectCastFrame(TAB); // the click
    await vi.advanceTimersByTimeAsync(50);
    shots.noteCastFrame(TAB, Date.now()); // the old page's frame
    await vi.advanceTimersByTimeAsync(300);
    shots.expectFreshFrame(TAB, 100, 0); // the new page reports late
    await vi.advanceTimersByTimeAsync(99);
    expect(screencast.screenshot).not.toHaveBeenCalled(); // the click's check, met
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  it('takes no screenshot for a new page whose screencast sent a frame after it reported', async () => {
    const { shots, screencast } = scheduler();
    shots.expectCastFrame(TAB);
    await vi.advanceTimersByTimeAsync(350);
    shots.expectFreshFrame(TAB, 100, 0);
    await vi.advanceTimersByTimeAsync(20);
    shots.noteCastFrame(TAB, Date.now());
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes a screenshot asked for sooner than the one due (a new page after actions spaced)', async () => {
    const { shots, screencast } = scheduler();
    shots.spaced(TAB);
    shots.spaced(TAB); // due in SCREENSHOT_SPACING_MS
    await vi.advanceTimersByTimeAsync(100);
    shots.spaced(TAB, 0); // at once: it shows the actions too
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SCREENSHOT_SPACING_MS);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
  });

  it(`takes a dropped frame again at once, and ${RETAKE_SPACING_MS} ms after the last while they keep being dropped; at once again after a stored frame or a navigation`, async () => {
    const { shots, screencast } = scheduler();
    shots.spaced(TAB); // a screenshot of the page before: a retake is not spaced from it
    shots.retake(TAB, undefined);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(30);
    shots.retake(TAB, undefined); // dropped again: nothing stored since
    shots.retake(TAB, undefined); // the one due shows it
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(RETAKE_SPACING_MS - 31);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10);
    shots.retake(TAB, Date.now() - 5); // a frame was stored since the last retake
    expect(screencast.screenshot).toHaveBeenCalledTimes(4);
    shots.newDocument(TAB);
    shots.retake(TAB, undefined);
    expect(screencast.screenshot).toHaveBeenCalledTimes(5);
  });

  it('forgets a tab: no timer left, and its next screenshot is not spaced from the last', async () => {
    const { shots, screencast } = scheduler();
    shots.spaced(TAB);
    shots.spaced(TAB);
    shots.expectCastFrame(TAB);
    shots.forget(TAB);
    expect(vi.getTimerCount()).toBe(0);
    shots.spaced(TAB);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
  });
});
