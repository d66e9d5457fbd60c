import { describe, expect, it, vi } from 'vitest';
import { FIRST_REPORT_SILENCE_MS } from './frame-sources';
import { CAST_SILENCE_MS } from './screenshot-scheduler';
import { ACTION, JPEG, MASKED, OTHER_JPEG_BASE64, report, setup, TAB, useFakeTimersEachTest } from '../../test/fakes/frame-sources';

useFakeTimersEachTest();

describe('FrameSources', () => {
  it('records a tab with a debugger session from the screencast, masked, and leaves it out of captureVisibleTab', async () => {
    const { sources, ring, capturer, screencast, maskFrame, current, frame } = setup();
    await sources.apply(current, false);
    expect(screencast.start).toHaveBeenCalledWith(TAB, { quality: 70, maxWidth: 1280, maxHeight: 720, fps: 8 });
    expect(sources.sourceOf(TAB)).toBe('screencast');
    sources.updateRegions(TAB, report([{ x: 4, y: 4, width: 20, height: 10 }]));
    frame(1);
    await vi.advanceTimersByTimeAsync(3_000);
    sources.loop.stop();
    expect(screencast.ack).toHaveBeenCalledWith(TAB, 1);
    expect(capturer.capture).not.toHaveBeenCalled();
    const frames = await ring.frames();
    expect(frames.map((f) => [f.source, f.masked])).toEqual([['screencast', 1]]);
    expect(await ring.readJpeg(frames[0]!.key)).toEqual(MASKED);
    expect(maskFrame).toHaveBeenCalledWith(JPEG, [expect.objectContaining({ x: 0, y: 0 })], 70);
  });

  it('stores a screencast frame that differs from the last one in a single byte, and an identical one once', async () => {
    const { sources, ring, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    // A large picture whose one byte in the middle changes (a digit of a message): as long as before.
    const big = Buffer.concat([Buffer.from(JPEG), Buffer.alloc(60_000, 0x41)]);
    const changed = Buffer.from(big);
    changed[JPEG.length + 30_001] = 0x42;
    frame(1, big.toString('base64'));
    await vi.advanceTimersByTimeAsync(500);
    frame(2, changed.toString('base64'));
    await vi.advanceTimersByTimeAsync(500);
    frame(3, changed.toString('base64'));
    await vi.advanceTimersByTimeAsync(500);
    sources.loop.stop();
    const frames = await ring.frames();
    expect(frames).toHaveLength(2);
    expect(Buffer.from((await ring.readJpeg(frames[1]!.key))!)).toEqual(changed);
  });

  it('drops a screencast frame whose sensitive regions are not known, and takes it again once they are', async () => {
    const { sources, ring, current, frame, screencast } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    sources.handleNavigation(TAB); // a new document: its regions are unknown until it reports
    frame(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(await ring.frames()).toEqual([]);
    expect(sources.stats().dropped).toBe(1);
    // The page does not repaint (no new screencast frame): its report brings a screenshot.
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(10);
    sources.updateRegions(TAB, report([])); // once
    await vi.advanceTimersByTimeAsync(10);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screenshot']);
  });

  it('takes a screenshot of a still page: its screencast sent nothing once started, or after its new page reported', async () => {
    const { sources, ring, screencast, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    // A new page that painted its only frame before it reported (that frame dropped, or never sent).
    sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(1_000);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    // A new page that repaints after it reported: its screenshot all the same (its first paint's
    // frame, drawn before the report, cannot be stored), then its screencast frame.
    sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(100);
    sources.updateRegions(TAB, report([]));
    frame(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(3);
    expect((await ring.frames()).map((f) => f.source).sort()).toEqual(['screencast', 'screenshot', 'screenshot', 'screenshot']);
  });

  it("gets a screenshot of a screencasting tab's new page at its first report, not spaced from the page before's", async () => {
    const { sources, ring, screencast, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await sources.frameNow(TAB); // a screenshot of the page before (a failure's): the next one is not spaced from it
    await vi.advanceTimersByTimeAsync(10);
    sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(200);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    sources.updateRegions(TAB, report([]));
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screencast', 'screenshot', 'screenshot']);
  });

  it("gets the new page's screenshot after a navigating click whose check is pending, though the old page sent a frame after the click", async () => {
    const { sources, ring, screencast, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1);
    await vi.advanceTimersByTimeAsync(1_000);
    sources.handleAction(TAB, Date.now(), ACTION); // the click: its check is due in CAST_SILENCE_MS
    await vi.advanceTimersByTimeAsync(50);
    sources.handleScreencastFrame(TAB, { sessionId: 2, data: OTHER_JPEG_BASE64 }); // the old page shows the press
    await vi.advanceTimersByTimeAsync(50);
    sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(100);
    sources.updateRegions(TAB, report([])); // the new page painted (its frame never sent) and reported
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    expect((await ring.frames()).map((f) => f.source).at(-1)).toBe('screenshot');
  });

  it(`gets a screenshot ${FIRST_REPORT_SILENCE_MS} ms after a page reported afresh (a frame loaded inside it) and sent nothing, though a click's check is pending and the page sent a frame after the click`, async () => {
    const { sources, screencast, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1);
    await vi.advanceTimersByTimeAsync(1_000);
    sources.handleAction(TAB, Date.now(), ACTION); // its check is due in CAST_SILENCE_MS
    await vi.advanceTimersByTimeAsync(50);
    sources.handleScreencastFrame(TAB, { sessionId: 2, data: OTHER_JPEG_BASE64 }); // it meets the click's check
    await vi.advanceTimersByTimeAsync(50);
    sources.handleSubframeLoad(TAB, 'inner-document'); // the page's regions are unknown until it reports again
    await vi.advanceTimersByTimeAsync(100);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(FIRST_REPORT_SILENCE_MS - 1);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  it('takes the frame a new tab owes when its screencast starts after its page reported (its debugger session opened late), else waits for the screencast', async () => {
    const late = setup({}, false);
    late.attached.clear();
    await late.sources.apply(late.current, false);
    late.sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(100);
    late.sources.updateRegions(TAB, report([])); // not visible, no session: no frame yet
    await vi.advanceTimersByTimeAsync(100);
    late.attached.add(TAB);
    await late.sources.handleDebuggerAttached();
    expect(late.screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    late.sources.loop.stop();
    expect(late.screencast.screenshot).toHaveBeenCalledTimes(1);
    expect((await late.ring.frames()).map((f) => f.source)).toEqual(['screenshot']);

    // A session that opens before the page reported: its report brings the screenshot (see above), not the start.
    const early = setup({}, false);
    early.attached.clear();
    await early.sources.apply(early.current, false);
    early.sources.handleNavigation(TAB);
    early.attached.add(TAB);
    await early.sources.handleDebuggerAttached();
    expect(early.screencast.screenshot).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    early.sources.updateRegions(TAB, report([]));
    expect(early.screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    early.sources.loop.stop();
    expect(early.screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  it('takes no second screenshot of a still tab when one was taken meanwhile (the failure frame)', async () => {
    const { sources, screencast, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1); // the screencast runs: no screenshot for its start
    await vi.advanceTimersByTimeAsync(1_000);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    sources.handleAction(TAB, Date.now(), ACTION); // no frame follows it: a still page
    await vi.advanceTimersByTimeAsync(100);
    await sources.frameNow(TAB);
    await vi.advanceTimersByTimeAsync(2_000);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
  });

  // A new tab records through captureVisibleTab until its debugger session is ready: its page's first
  // report used to wait for the loop's next periodic turn (550 ms or more, shared by every window).
  it('captures a tab without a debugger session as soon as the quota allows once its new page first reported, not at the next periodic turn', async () => {
    const { sources, ring, capturer, attached, current } = setup({ captureSource: 'visibleTab', captureIntervalMs: 2_000 });
    attached.clear();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(1_000); // the loop's first turn (regions known: stored)
    expect(capturer.capture).toHaveBeenCalledTimes(1);
    sources.handleNavigation(TAB);
    await vi.advanceTimersByTimeAsync(100);
    sources.updateRegions(TAB, report([])); // the new page painted and reported
    await vi.advanceTimersByTimeAsync(10);
    sources.loop.stop();
    expect(capturer.capture).toHaveBeenCalledTimes(2);
    const frames = await ring.frames();
    expect(frames).toHaveLength(2);
    expect(frames[1]!.ts).toBeGreaterThan(Date.now() - 20);
  });

  it('takes a captureVisibleTab frame dropped for want of regions again at the page\'s first report, not a CDP screenshot', async () => {
    const { sources, ring, capturer, attached, current, screencast } = setup({ captureSource: 'visibleTab', captureIntervalMs: 2_000 });
    attached.clear();
    await sources.apply(current, false);
    await vi.advanceTimersByTimeAsync(10); // the loop's first turn: no report yet, dropped
    expect(sources.stats().droppedByReason?.['no-report']).toBe(1);
    await vi.advanceTimersByTimeAsync(600);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(10);
    sources.loop.stop();
    expect(capturer.capture).toHaveBeenCalledTimes(2);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    expect(await ring.frames()).toHaveLength(1);
  });

  it('goes back to captureVisibleTab for a tab whose debugger session ends', async () => {
    const { sources, ring, capturer, attached, current, frame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(capturer.capture).not.toHaveBeenCalled();
    attached.delete(TAB);
    sources.handleDebuggerDetached(TAB);
    expect(sources.sourceOf(TAB)).toBe('visibleTab');
    frame(2); // a late screencast frame of the ended session is not stored
    await vi.advanceTimersByTimeAsync(3_000);
    sources.loop.stop();
    expect(capturer.capture.mock.calls.length).toBeGreaterThanOrEqual(4); // every 550 ms
    // The still page's screenshot (its screencast sent nothing), then captureVisibleTab.
    const sources_ = (await ring.frames()).map((f) => f.source ?? 'visibleTab');
    expect(sources_[0]).toBe('screenshot');
    expect(new Set(sources_.slice(1))).toEqual(new Set(['visibleTab']));
  });

  it('stops the screencast when captureSource is visibleTab, or when paused', async () => {
    const { sources, screencast, current } = setup();
    await sources.apply(current, false);
    await sources.apply({ ...current, captureSource: 'visibleTab' }, false);
    expect(screencast.stop).toHaveBeenCalledWith(TAB);
    expect(sources.sourceOf(TAB)).toBe('visibleTab');
    await sources.apply(current, false);
    expect(sources.sourceOf(TAB)).toBe('screencast');
    await sources.apply(current, true);
    expect(sources.sourceOf(TAB)).toBe('visibleTab');
    expect(sources.recording).toBe(false);
  });

  it('falls back to captureVisibleTab when the screencast is refused', async () => {
    const { sources, screencast, current, log } = setup();
    screencast.start.mockRejectedValueOnce(new Error('Page.startScreencast failed'));
    await sources.apply(current, false);
    sources.loop.stop();
    expect(sources.sourceOf(TAB)).toBe('visibleTab');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('using captureVisibleTab'));
  });

  it('takes a screenshot after an action in a screencasting tab that sends no frame (not being painted)', async () => {
    // captureSource screencast: in auto mode, actions back to back are a burst (the screencast holds).
    const { sources, ring, screencast, current, frame } = setup({ captureSource: 'screencast' });
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    frame(1); // the page paints as it first reports (else a screenshot stands in after FIRST_REPORT_SILENCE_MS)
    await vi.advanceTimersByTimeAsync(FIRST_REPORT_SILENCE_MS);
    // Painted: the action's frame comes from the screencast (the same picture: stored once).
    sources.handleAction(TAB, Date.now(), ACTION);
    await vi.advanceTimersByTimeAsync(100);
    frame(2);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    // Silent: one screenshot, however many actions.
    sources.handleAction(TAB, Date.now(), ACTION);
    sources.handleAction(TAB, Date.now(), ACTION);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS + 10);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screencast', 'screenshot']);
  });

  it('takes a CDP screenshot after an action in a tab that is not visible, at most every 500 ms, the last action always', async () => {
    const { sources, ring, screencast, current } = setup({ captureSource: 'visibleTab' });
    await sources.apply(current, false);
    await vi.advanceTimersByTimeAsync(100); // the loop saw the visible tab
    const hidden = 9;
    sources.updateRegions(hidden, report([]));
    screencast.screenshot.mockClear();
    sources.handleAction(hidden, Date.now(), ACTION);
    sources.handleAction(hidden, Date.now(), ACTION); // too soon: one screenshot for both
    await vi.advanceTimersByTimeAsync(10);
    expect(screencast.screenshot).not.toHaveBeenCalled(); // tab 9 has no debugger session
    const withDebugger = setup({ captureSource: 'visibleTab' });
    withDebugger.attached.add(hidden);
    await withDebugger.sources.apply(withDebugger.current, false);
    await vi.advanceTimersByTimeAsync(100);
    withDebugger.sources.updateRegions(hidden, report([]));
    withDebugger.sources.handleAction(hidden, Date.now(), ACTION);
    withDebugger.sources.handleAction(hidden, Date.now(), ACTION); // too soon: its screenshot waits
    withDebugger.sources.handleAction(hidden, Date.now(), ACTION); // …and shows this one too
    await vi.advanceTimersByTimeAsync(10);
    expect(withDebugger.screencast.screenshot).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(withDebugger.screencast.screenshot).toHaveBeenCalledTimes(2);
    withDebugger.sources.handleAction(hidden, Date.now(), ACTION);
    await vi.advanceTimersByTimeAsync(10);
    expect(withDebugger.screencast.screenshot).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(500);
    sources.loop.stop();
    withDebugger.sources.loop.stop();
    expect(withDebugger.screencast.screenshot).toHaveBeenCalledTimes(3);
    const shots = (await withDebugger.ring.frames()).filter((f) => f.tabId === hidden);
    expect(shots.map((f) => f.source)).toEqual(['screenshot', 'screenshot', 'screenshot']);
    expect(await ring.frames()).not.toContainEqual(expect.objectContaining({ tabId: hidden }));
  });
});

describe('FrameSources.frameNow: a frame of the page as it is, for a failure bundle', () => {
  it('takes a CDP screenshot of a screencasting tab, stored masked like any frame', async () => {
    const { sources, ring, screencast, current, maskFrame } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([{ x: 4, y: 4, width: 20, height: 10 }]));
    await sources.frameNow(TAB);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(1);
    const frames = await ring.frames();
    expect(frames.map((f) => [f.tabId, f.source, f.masked])).toEqual([[TAB, 'screenshot', 1]]);
    expect(maskFrame).toHaveBeenCalledTimes(1);
  });

  it('takes one of a hidden tab without a screencast (it has frames only after its actions), not of the visible one the loop records', async () => {
    const { sources, ring, screencast, current, attached } = setup({ captureSource: 'visibleTab' });
    const hidden = 9;
    attached.add(hidden);
    await sources.apply(current, false);
    await vi.advanceTimersByTimeAsync(100); // the loop saw the visible tab
    sources.updateRegions(hidden, report([]));
    sources.updateRegions(TAB, report([]));
    await sources.frameNow(TAB);
    expect(screencast.screenshot).not.toHaveBeenCalled();
    await sources.frameNow(hidden);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledExactlyOnceWith(hidden, 70);
    expect((await ring.frames()).filter((f) => f.tabId === hidden).map((f) => f.source)).toEqual(['screenshot']);
  });

  it('gives up on a page that does not answer after the wait, logged, and takes nothing while paused', async () => {
    const { sources, screencast, current, log } = setup();
    await sources.apply(current, false);
    screencast.screenshot.mockImplementationOnce(() => new Promise(() => {}));
    const waited = sources.frameNow(TAB, 1_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await waited;
    expect(log).toHaveBeenCalledWith(expect.stringContaining(`the screenshot of tab ${TAB} for its bundle`));
    await sources.apply(current, true);
    screencast.screenshot.mockClear();
    await sources.frameNow(TAB);
    sources.loop.stop();
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });
});
