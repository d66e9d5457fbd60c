import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BURST_FRAME_SPACING_MS, BURST_SHOT_SPACING_MS, BURST_TIMES, BurstHold } from './burst-hold';

const TAB = 3;
const { quietMs: QUIET_MS } = BURST_TIMES;

/** A hold whose context records what it is asked; `visible`: whether TAB is a window's visible tab. */
function hold(visible = true) {
  const context = {
    clock: { now: () => Date.now() },
    latestFrameAt: vi.fn((): number | undefined => undefined),
    ended: vi.fn(),
    released: vi.fn(),
    isVisible: vi.fn(() => visible),
    stopScreencast: vi.fn(),
    requestCapture: vi.fn(),
    screenshot: vi.fn(),
  };
  return { bursts: new BurstHold(context), ...context };
}

/** Steps of TAB 120 ms apart until it is in a burst: the third (the second is part of the first's action). */
function startBurst(bursts: BurstHold): void {
  expect(bursts.noteAction(TAB, Date.now())).toBe(false);
  vi.advanceTimersByTime(120);
  expect(bursts.noteAction(TAB, Date.now())).toBe(false);
  vi.advanceTimersByTime(120);
  expect(bursts.noteAction(TAB, Date.now())).toBe(true);
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('BurstHold', () => {
  it('holds a tab from its burst until the burst has been quiet long enough, then releases it', () => {
    const { bursts, stopScreencast, released, ended } = hold();
    startBurst(bursts);
    bursts.duringBurst(TAB, true);
    expect(bursts.isHeld(TAB)).toBe(true);
    expect(bursts.heldTabs()).toEqual([TAB]);
    expect(stopScreencast).toHaveBeenCalledExactlyOnceWith(TAB);
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(released).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(released).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(ended).toHaveBeenCalledWith(TAB);
    expect(bursts.isHeld(TAB)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps holding while the actions go on, and stops the screencast once', () => {
    const { bursts, stopScreencast, released } = hold();
    startBurst(bursts);
    bursts.duringBurst(TAB, true);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(QUIET_MS / 2);
      bursts.noteAction(TAB, Date.now());
      bursts.duringBurst(TAB, true);
    }
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(released).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(released).toHaveBeenCalledTimes(1);
    expect(stopScreencast).toHaveBeenCalledTimes(1);
  });

  it('does not hold a tab that is not visible when no frame follows its actions (it would get none)', () => {
    const { bursts, stopScreencast, screenshot } = hold(false);
    startBurst(bursts);
    bursts.duringBurst(TAB, false);
    expect(bursts.isHeld(TAB)).toBe(false);
    expect(stopScreencast).not.toHaveBeenCalled();
    expect(screenshot).not.toHaveBeenCalled();
  });

  it('holds a visible tab without frames after actions (captureVisibleTab goes on), asking for none', () => {
    const { bursts, requestCapture } = hold(true);
    startBurst(bursts);
    bursts.duringBurst(TAB, false);
    expect(bursts.isHeld(TAB)).toBe(true);
    expect(requestCapture).not.toHaveBeenCalled();
  });

  it.each([
    { label: 'no frame of it yet', latest: undefined, due: true },
    { label: 'its latest frame a second ago', latest: -BURST_FRAME_SPACING_MS, due: true },
    { label: 'its latest frame less than a second ago', latest: -BURST_FRAME_SPACING_MS + 1, due: false },
  ])('a visible tab gets a captureVisibleTab frame after its action when it is due: $label', ({ latest, due }) => {
    const { bursts, requestCapture, screenshot, latestFrameAt } = hold(true);
    startBurst(bursts);
    latestFrameAt.mockReturnValue(latest === undefined ? undefined : Date.now() + latest);
    bursts.duringBurst(TAB, true);
    expect(bursts.frameDue(TAB)).toBe(due);
    expect(requestCapture).toHaveBeenCalledTimes(due ? 1 : 0);
    expect(screenshot).not.toHaveBeenCalled();
  });

  it('a tab that is not visible gets screenshots after its actions, spaced for a burst', () => {
    const { bursts, screenshot, requestCapture } = hold(false);
    startBurst(bursts);
    bursts.duringBurst(TAB, true);
    bursts.duringBurst(TAB, true);
    expect(screenshot.mock.calls).toEqual([
      [TAB, BURST_SHOT_SPACING_MS],
      [TAB, BURST_SHOT_SPACING_MS],
    ]);
    expect(requestCapture).not.toHaveBeenCalled();
  });

  it('ends a hold at once (a failure bundled): released now, no timer left', () => {
    const { bursts, released } = hold();
    startBurst(bursts);
    bursts.duringBurst(TAB, true);
    bursts.release(TAB);
    expect(released).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(vi.getTimerCount()).toBe(0);
    // The burst is over: the next action alone starts none.
    expect(bursts.noteAction(TAB, Date.now() + QUIET_MS)).toBe(false);
  });

  it.each([
    { label: 'end (the caller starts or stops the screencast)', stop: (b: BurstHold) => b.end(TAB) },
    { label: 'forget (the tab is closed)', stop: (b: BurstHold) => b.forget(TAB) },
  ])('$label: no timer left, nothing released, the due screenshot cancelled', ({ stop }) => {
    const { bursts, released, ended } = hold();
    startBurst(bursts);
    bursts.duringBurst(TAB, true);
    stop(bursts);
    expect(bursts.isHeld(TAB)).toBe(false);
    expect(ended).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(QUIET_MS * 2);
    expect(released).not.toHaveBeenCalled();
  });

  it('forgets the actions of a forgotten tab: its next action starts no burst', () => {
    const { bursts } = hold();
    bursts.noteAction(TAB, Date.now());
    vi.advanceTimersByTime(120);
    bursts.noteAction(TAB, Date.now());
    bursts.forget(TAB);
    vi.advanceTimersByTime(120);
    expect(bursts.noteAction(TAB, Date.now())).toBe(false);
  });
});
