import { describe, expect, it, vi } from 'vitest';
import { BURST_FRAME_SPACING_MS, BURST_SHOT_SPACING_MS, BURST_TIMES } from './burst-hold';
import type { FrameSources } from './frame-sources';
import { CAST_SILENCE_MS } from './screenshot-scheduler';
import { ACTION, JPEG, report, setup, TAB, useFakeTimersEachTest } from '../../test/fakes/frame-sources';

const { gapMs: BURST_GAP_MS, quietMs: BURST_QUIET_MS } = BURST_TIMES;

useFakeTimersEachTest();

describe('FrameSources in auto mode, when the agent acts in a burst', () => {
  /** Actions of a script acting back to back: each a new action (past the coalescing), inside the gap. */
  const BACK_TO_BACK_MS = 120;

  /** `count` actions `every` ms apart (`step` says what each is). */
  async function act(sources: FrameSources, count: number, every: number, step = ACTION, tabId = TAB): Promise<void> {
    for (let i = 0; i < count; i++) {
      sources.handleAction(tabId, Date.now(), step);
      await vi.advanceTimersByTimeAsync(every);
    }
  }

  it('holds the screencast of a visible tab, records it with captureVisibleTab meanwhile, and starts it again once quiet', async () => {
    const { sources, ring, screencast, capturer, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(capturer.capture).not.toHaveBeenCalled(); // the screencast's tab
    expect(screencast.screenshot).toHaveBeenCalledTimes(1); // its screencast sent nothing: a still page
    screencast.start.mockClear();
    screencast.screenshot.mockClear();
    await act(sources, 10, BACK_TO_BACK_MS); // the second one starts the burst
    expect(screencast.stop).toHaveBeenCalledTimes(1);
    expect(sources.sourceOf(TAB)).toBe('visibleTab');
    const during = capturer.capture.mock.calls.length;
    expect(during).toBe(1); // about a second of burst: one frame a second (BURST_FRAME_SPACING_MS)
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS);
    expect(screencast.start).toHaveBeenCalledTimes(1);
    expect(sources.sourceOf(TAB)).toBe('screencast');
    await vi.advanceTimersByTimeAsync(3_000);
    sources.loop.stop();
    expect(capturer.capture.mock.calls.length).toBeLessThanOrEqual(during + 1); // one may have been on its way
    // The screencast started again sent nothing: the burst's last state comes from a screenshot.
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    const kinds = (await ring.frames()).map((f) => f.source ?? 'visibleTab');
    expect([kinds[0], kinds.at(-1)]).toEqual(['screenshot', 'screenshot']); // before the burst (still page), and its last state
    expect(new Set(kinds.slice(1, -1))).toEqual(new Set(['visibleTab']));
  });

  it('takes the visible tab about once a second during a long burst, and from the screencast again after it', async () => {
    const { sources, ring, screencast, capturer, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    const calls: number[] = [];
    capturer.capture.mockImplementation(async () => {
      calls.push(Date.now());
      return { jpeg: JPEG, width: 64, height: 36 };
    });
    await act(sources, 50, BACK_TO_BACK_MS); // 6 s of actions, each asking for a frame
    const gaps = calls.slice(1).map((t, i) => t - calls[i]!);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expect(calls.length).toBeLessThanOrEqual(6);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(BURST_FRAME_SPACING_MS);
    screencast.start.mockClear();
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS);
    sources.loop.stop();
    expect(screencast.start).toHaveBeenCalledTimes(1); // the burst's last state comes from the screencast
    // Every capture stored, and the page's first frame: its screencast sent nothing within
    // FIRST_REPORT_SILENCE_MS of its first report (before the burst began), so a screenshot.
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    expect((await ring.frames()).map((f) => f.source ?? 'visibleTab')).toEqual(['screenshot', ...calls.map(() => 'visibleTab')]);
  });

  it('takes no captureVisibleTab frame at the start of a burst when the screencast sent one less than a second before', async () => {
    const { sources, capturer, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1);
    const castAt = Date.now();
    const calls: number[] = [];
    capturer.capture.mockImplementation(async () => {
      calls.push(Date.now());
      return { jpeg: JPEG, width: 64, height: 36 };
    });
    await act(sources, 12, BACK_TO_BACK_MS);
    sources.loop.stop();
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls[0]! - castAt).toBeGreaterThanOrEqual(BURST_FRAME_SPACING_MS);
  });

  it('holds the screencast of a tab that is not visible, takes spaced screenshots after its actions (the last one always), and starts it again once quiet', async () => {
    const { sources, ring, screencast, current } = setup({}, false);
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    screencast.start.mockClear();
    await act(sources, 1, 1_000); // one action alone: no burst
    expect(screencast.stop).not.toHaveBeenCalled();
    screencast.screenshot.mockClear(); // its screenshot: no screencast frame came after it (CAST_SILENCE_MS)
    await act(sources, 9, BACK_TO_BACK_MS);
    const lastActionAt = Date.now() - BACK_TO_BACK_MS;
    expect(screencast.stop).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BURST_SHOT_SPACING_MS); // the due screenshot of the last action
    // The burst runs from the third action (the first two are one: 120 ms apart) to the ninth (720 ms):
    // a shot at once, 400 ms later, and 800 ms later (the last action's, due 400 ms after the one before).
    const shots = screencast.screenshot.mock.calls.length;
    expect(shots).toBe(3);
    expect(screencast.start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS);
    expect(screencast.start).toHaveBeenCalledTimes(1);
    expect(screencast.start).toHaveBeenCalledWith(TAB, { quality: 70, maxWidth: 1280, maxHeight: 720, fps: 8 });
    // One more, once the screencast started again has sent nothing (a tab not visible is not painted).
    expect(screencast.screenshot).toHaveBeenCalledTimes(shots + 1);
    sources.loop.stop();
    const frames = await ring.frames();
    expect(frames.map((f) => f.source)).toEqual(Array(shots + 2).fill('screenshot')); // and the lone action's
    expect(frames.at(-1)!.ts).toBeGreaterThanOrEqual(lastActionAt);
  });

  it('ends the burst at once when a failure of the tab is bundled: the after-failure tail comes from the screencast', async () => {
    const { sources, screencast, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await act(sources, 4, BACK_TO_BACK_MS);
    screencast.start.mockClear();
    sources.handleFailure(TAB);
    expect(screencast.start).toHaveBeenCalledTimes(1);
    expect(sources.sourceOf(TAB)).toBe('screencast');
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 2);
    sources.handleFailure(TAB); // not held: nothing to do
    sources.loop.stop();
    expect(screencast.start).toHaveBeenCalledTimes(1);
  });

  it('keeps holding while the actions go on, however long', async () => {
    const { sources, screencast, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    screencast.start.mockClear();
    await act(sources, 2, BACK_TO_BACK_MS);
    await act(sources, 40, BURST_QUIET_MS / 3); // slower than the gap that starts a burst, but never quiet for long
    sources.handleAction(TAB, Date.now(), ACTION);
    expect(screencast.start).not.toHaveBeenCalled();
    expect(screencast.stop).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS + 1);
    sources.loop.stop();
    expect(screencast.start).toHaveBeenCalledTimes(1);
  });

  it.each([
    { label: 'captureSource screencast never holds it', captureSource: 'screencast' as const, every: BACK_TO_BACK_MS },
    { label: 'a model thinking between actions', every: BURST_GAP_MS + 200 },
    { label: 'navigations (each frame of a page reports its own)', every: 20, step: { capture: true, action: false } },
  ])('$label: the screencast runs on', async ({ captureSource, every, step }) => {
    const { sources, screencast, current } = setup(captureSource ? { captureSource } : {});
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await act(sources, 10, every, step);
    sources.loop.stop();
    expect(screencast.stop).not.toHaveBeenCalled();
  });

  it('takes the several steps of one action for one action: a click, the submit it causes, and the agent reporting it', async () => {
    const { sources, screencast, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    for (let i = 0; i < 5; i++) {
      const at = Date.now();
      sources.handleAction(TAB, at, ACTION); // click
      sources.handleAction(TAB, at + 1, ACTION); // submit
      await vi.advanceTimersByTimeAsync(60);
      sources.handleAction(TAB, Date.now(), ACTION); // afr.step from the agent
      await vi.advanceTimersByTimeAsync(2_000);
    }
    sources.loop.stop();
    expect(screencast.stop).not.toHaveBeenCalled();
  });

  it('with captureOnAction off, holds a visible tab (captureVisibleTab goes on) but not a hidden one (it would get no frame)', async () => {
    const visible = setup({ captureOnAction: false });
    await visible.sources.apply(visible.current, false);
    await act(visible.sources, 6, BACK_TO_BACK_MS, { capture: false, action: true });
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS);
    visible.sources.loop.stop();
    expect(visible.screencast.stop).toHaveBeenCalledTimes(1);
    expect(visible.screencast.start).toHaveBeenCalledTimes(2); // at first, and after the burst

    const hidden = setup({ captureOnAction: false }, false);
    await hidden.sources.apply(hidden.current, false);
    hidden.sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS); // its screencast sent nothing: a screenshot
    expect(hidden.screencast.screenshot).toHaveBeenCalledTimes(1);
    hidden.screencast.screenshot.mockClear();
    await act(hidden.sources, 6, BACK_TO_BACK_MS, { capture: false, action: true });
    hidden.sources.loop.stop();
    expect(hidden.screencast.stop).not.toHaveBeenCalled();
    expect(hidden.screencast.screenshot).not.toHaveBeenCalled();
  });

  it('follows the settings during a burst: visibleTab ends it for good, screencast starts the screencast at once', async () => {
    const toVisibleTab = setup();
    await toVisibleTab.sources.apply(toVisibleTab.current, false);
    await act(toVisibleTab.sources, 5, BACK_TO_BACK_MS);
    await toVisibleTab.sources.apply({ ...toVisibleTab.current, captureSource: 'visibleTab' }, false);
    toVisibleTab.screencast.start.mockClear();
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 2);
    toVisibleTab.sources.loop.stop();
    expect(toVisibleTab.screencast.start).not.toHaveBeenCalled();
    expect(toVisibleTab.sources.sourceOf(TAB)).toBe('visibleTab');

    const toScreencast = setup();
    await toScreencast.sources.apply(toScreencast.current, false);
    await act(toScreencast.sources, 5, BACK_TO_BACK_MS);
    toScreencast.screencast.start.mockClear();
    await toScreencast.sources.apply({ ...toScreencast.current, captureSource: 'screencast' }, false);
    expect(toScreencast.screencast.start).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 2);
    toScreencast.sources.loop.stop();
    expect(toScreencast.screencast.start).toHaveBeenCalledTimes(1);
  });

  it.each([
    { label: 'its debugger session ends', end: (s: ReturnType<typeof setup>) => s.sources.handleDebuggerDetached(TAB) },
    { label: 'the tab is closed', end: (s: ReturnType<typeof setup>) => s.sources.forgetTab(TAB) },
    { label: 'the operator pauses', end: (s: ReturnType<typeof setup>) => s.sources.apply(s.current, true) },
  ])('leaves no timer behind, takes no screenshot and starts nothing when $label mid-burst', async ({ end }) => {
    const s = setup({}, false);
    await s.sources.apply(s.current, false);
    s.sources.updateRegions(TAB, report([]));
    await act(s.sources, 5, BACK_TO_BACK_MS / 2); // the burst starts at the fourth; the fifth makes a screenshot due
    s.screencast.screenshot.mockClear();
    s.screencast.start.mockClear();
    s.attached.delete(TAB);
    await end(s);
    s.sources.loop.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(BURST_QUIET_MS * 2);
    expect(s.screencast.screenshot).not.toHaveBeenCalled();
    expect(s.screencast.start).not.toHaveBeenCalled();
  });
});
