import { describe, expect, it, vi } from 'vitest';
import { REPORT_WAIT_MS, SYNC_WAIT_MS } from './mask-gate';
import { ACTION, JPEG, JPEG_BASE64, OTHER_JPEG_BASE64, report, setup, TAB, useFakeTimersEachTest } from '../../test/fakes/frame-sources';
import { FRAME_LATENCY_MS } from './mask-plan';
import { FIRST_REPORT_SILENCE_MS } from './frame-sources';
import type { Settings } from '../../schemas/settings';
import type { SensitiveRectsMessage } from '../../schemas/messages';

useFakeTimersEachTest();

describe('FrameSources', () => {
  it('places a downscaled screencast frame by what it says it shows, and drops it when it cannot', async () => {
    const { sources, ring, current, maskFrame } = setup();
    await sources.apply(current, false);
    // A 128×90 viewport whose window shows its top 128×72, screencast at half size: 64×36.
    sources.updateRegions(TAB, { ...report([{ x: 10, y: 60, width: 40, height: 20 }]), viewport: { width: 128, height: 90 } });
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64 });
    await vi.advanceTimersByTimeAsync(200);
    expect(await ring.frames()).toEqual([]); // without the metadata the shape is ambiguous: dropped
    sources.handleScreencastFrame(TAB, { sessionId: 2, data: JPEG_BASE64, metadata: { deviceWidth: 128, deviceHeight: 72 } });
    await vi.advanceTimersByTimeAsync(200);
    expect(await ring.frames()).toEqual([]); // the first frame with metadata: a report from before it is not trusted
    sources.updateRegions(TAB, { ...report([{ x: 10, y: 60, width: 40, height: 20 }]), viewport: { width: 128, height: 90 } });
    sources.handleScreencastFrame(TAB, { sessionId: 3, data: JPEG_BASE64, metadata: { deviceWidth: 128, deviceHeight: 72 } });
    await vi.advanceTimersByTimeAsync(200);
    sources.loop.stop();
    expect((await ring.frames()).map((f) => f.masked)).toEqual([1]);
    expect(maskFrame).toHaveBeenLastCalledWith(JPEG, [{ x: 3, y: 28, width: 24, height: 8 }], 70);
  });

  it('places the rects by the scroll a screencast frame says it shows (the compositor scrolled ahead of the page)', async () => {
    const { sources, ring, current, maskFrame } = setup();
    await sources.apply(current, false);
    const metadata = (scrollOffsetY: number) => ({ deviceWidth: 64, deviceHeight: 36, scrollOffsetX: 0, scrollOffsetY });
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata: metadata(0) }); // the first: nothing to compare with
    await vi.advanceTimersByTimeAsync(200);
    sources.updateRegions(TAB, { ...report([{ x: 4, y: 20, width: 20, height: 10 }]), scroll: { x: 0, y: 0 } });
    sources.handleScreencastFrame(TAB, { sessionId: 2, data: JPEG_BASE64, metadata: metadata(10) });
    await vi.advanceTimersByTimeAsync(200);
    sources.loop.stop();
    // The screencast frame, masked twice, and the screenshot the first (dropped) frame's retake brought.
    expect((await ring.frames()).map((f) => [f.source, f.masked])).toEqual([['screencast', 2], ['screenshot', 1]]);
    expect(maskFrame).toHaveBeenCalledWith(JPEG, [{ x: 0, y: 16, width: 28, height: 18 }, { x: 0, y: 6, width: 28, height: 18 }], 70);
  });

  it('masks a frame REPORT_WAIT_MS after it was drawn, with the reports that came meanwhile (an inner scroller the compositor moved)', async () => {
    const { sources, ring, current, maskFrame } = setup({}, true, REPORT_WAIT_MS);
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([{ x: 4, y: 20, width: 20, height: 10 }]));
    // The page paints soon after its first report (within FIRST_REPORT_SILENCE_MS: no screenshot stands in).
    await vi.advanceTimersByTimeAsync(FIRST_REPORT_SILENCE_MS / 2);
    const drawn = Date.now() / 1000;
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata: { timestamp: drawn } });
    await vi.advanceTimersByTimeAsync(50);
    expect(maskFrame).not.toHaveBeenCalled();
    // The page reports where the compositor had already moved the field to in that frame.
    sources.updateRegions(TAB, report([{ x: 4, y: 2, width: 20, height: 10 }]));
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MS);
    // Too late for it: reported after the wait.
    sources.updateRegions(TAB, report([{ x: 40, y: 2, width: 20, height: 10 }]));
    await vi.advanceTimersByTimeAsync(100);
    sources.loop.stop();
    expect((await ring.frames()).map((f) => f.masked)).toEqual([2]);
    expect(maskFrame).toHaveBeenCalledExactlyOnceWith(JPEG, [{ x: 0, y: 16, width: 28, height: 18 }, { x: 0, y: 0, width: 28, height: 16 }], 70);
  });

  describe('asking the page where its fields are for each frame', () => {
    /** A page that answers `redaction/sync` when the test says: each request waits in `asked`. */
    function page() {
      const asked: ((answer: SensitiveRectsMessage | null) => void)[] = [];
      const syncRegions = vi.fn(() => new Promise<SensitiveRectsMessage | null>((resolve) => asked.push(resolve)));
      return { asked, syncRegions };
    }
    const at = (y: number, ts = Date.now()) => ({ ...report([{ x: 4, y, width: 20, height: 10, id: 1 }]), ts });
    /** Recording, with a page that answers when the test says and has reported a field at y 20. */
    async function asking(settings: Partial<Settings> = {}) {
      const answering = page();
      const ctx = setup(settings, true, 0, answering.syncRegions);
      await ctx.sources.apply(ctx.current, false);
      ctx.sources.updateRegions(TAB, at(20));
      return { ...ctx, ...answering };
    }

    it('masks a frame once the page answered, where the field was, went, and everywhere between', async () => {
      const { asked, syncRegions, sources, ring, maskFrame } = await asking();
      await vi.advanceTimersByTimeAsync(FRAME_LATENCY_MS + 10);
      sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata: { timestamp: Date.now() / 1000 } });
      await vi.advanceTimersByTimeAsync(500);
      expect(syncRegions).toHaveBeenCalledExactlyOnceWith(TAB);
      expect(maskFrame).not.toHaveBeenCalled(); // however long the page takes
      // The inner scroller had moved the field up when the frame was drawn; the page saw it at its next animation frame.
      asked.shift()!(at(2));
      await vi.advanceTimersByTimeAsync(10);
      sources.loop.stop();
      expect((await ring.frames()).map((f) => f.masked)).toEqual([3]);
      expect(maskFrame).toHaveBeenCalledExactlyOnceWith(
        JPEG,
        [{ x: 0, y: 16, width: 28, height: 18 }, { x: 0, y: 0, width: 28, height: 16 }, { x: 0, y: 0, width: 28, height: 34 }],
        70,
      );
    });

    it('asks once more for the frames that came while a request was in flight, and once for all of them', async () => {
      const { asked, syncRegions, sources, ring } = await asking();
      sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(130);
      sources.handleScreencastFrame(TAB, { sessionId: 2, data: OTHER_JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(130);
      sources.handleScreencastFrame(TAB, { sessionId: 3, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(130);
      // The answer to the first request was measured before the later frames came: not enough for them.
      expect(syncRegions).toHaveBeenCalledTimes(1);
      asked.shift()!(at(20));
      await vi.advanceTimersByTimeAsync(10);
      expect(syncRegions).toHaveBeenCalledTimes(2);
      expect(await ring.frames()).toHaveLength(1);
      asked.shift()!(at(20));
      await vi.advanceTimersByTimeAsync(10);
      sources.loop.stop();
      expect(syncRegions).toHaveBeenCalledTimes(2);
      expect((await ring.frames()).map((f) => f.source)).toEqual(['screencast', 'screencast', 'screencast']);
    });

    it(`drops a frame whose page does not answer within ${SYNC_WAIT_MS} ms (a hung page), and the next ones at once until it answers`, async () => {
      const { asked, syncRegions, sources, ring, log, screencast } = await asking();
      sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(SYNC_WAIT_MS + 10);
      expect(await ring.frames()).toEqual([]);
      expect(log.mock.calls.filter(([m]) => String(m).includes('timed out'))).toHaveLength(1);
      sources.handleScreencastFrame(TAB, { sessionId: 2, data: OTHER_JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(10);
      expect(sources.stats().dropped).toBe(2);
      expect(syncRegions).toHaveBeenCalledTimes(1); // not asked again
      // The page answers at last: a report like any, and the dropped frame is taken again.
      asked.shift()!(at(20));
      await vi.advanceTimersByTimeAsync(10);
      expect(screencast.screenshot).toHaveBeenCalledTimes(1);
      asked.shift()!(at(20));
      await vi.advanceTimersByTimeAsync(10);
      sources.handleScreencastFrame(TAB, { sessionId: 3, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(150); // the throttle's spacing after frame 2
      asked.shift()!(at(20));
      await vi.advanceTimersByTimeAsync(10);
      sources.loop.stop();
      expect((await ring.frames()).map((f) => f.source)).toEqual(['screenshot', 'screencast']);
      expect(log.mock.calls.filter(([m]) => String(m).includes('timed out'))).toHaveLength(1);
    });

    it('holds a captureVisibleTab frame for the answer too, and a page that does not answer holds the loop at most that long', async () => {
      const { asked, syncRegions } = page();
      const { sources, ring, current, capturer, maskFrame } = setup({ captureSource: 'visibleTab' }, true, 0, syncRegions);
      sources.updateRegions(TAB, at(20));
      await sources.apply(current, false);
      await vi.advanceTimersByTimeAsync(100);
      expect(capturer.capture).toHaveBeenCalledTimes(1);
      expect(syncRegions).toHaveBeenCalledTimes(1);
      expect(maskFrame).not.toHaveBeenCalled();
      asked.shift()!(at(2));
      await vi.advanceTimersByTimeAsync(10);
      expect((await ring.frames()).map((f) => f.masked)).toEqual([3]);
      // The next capture's question is never answered: dropped after SYNC_WAIT_MS, and the loop goes on.
      await vi.advanceTimersByTimeAsync(SYNC_WAIT_MS + 1_000);
      const captures = capturer.capture.mock.calls.length;
      await vi.advanceTimersByTimeAsync(2_000);
      sources.loop.stop();
      expect(capturer.capture.mock.calls.length).toBeGreaterThan(captures);
      expect(await ring.frames()).toHaveLength(1);
    });

    it('drops a frame when the answer comes from a document the tab has since left', async () => {
      const { asked, syncRegions, sources, ring } = await asking();
      sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(10);
      sources.handleNavigation(TAB);
      asked.shift()!(at(20)); // the old page's answer
      await vi.advanceTimersByTimeAsync(10);
      // It does not stand for the new page, whose frames are dropped until it reports.
      sources.handleScreencastFrame(TAB, { sessionId: 2, data: OTHER_JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(200);
      sources.loop.stop();
      expect(await ring.frames()).toEqual([]);
      expect(sources.stats().dropped).toBe(2);
      expect(syncRegions).toHaveBeenCalledTimes(1);
    });

    it('drops a frame whose page has no regions to give (it has not painted)', async () => {
      const { asked, sources, ring } = await asking();
      sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64 });
      await vi.advanceTimersByTimeAsync(10);
      asked.shift()!(null);
      await vi.advanceTimersByTimeAsync(10);
      sources.loop.stop();
      expect((await ring.frames()).filter((f) => f.source === 'screencast')).toEqual([]);
    });
  });

  it('drops a frame waiting for its masks when recording is paused meanwhile, though it resumes before the wait ends', async () => {
    const { sources, ring, current } = setup({}, true, REPORT_WAIT_MS);
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata: { timestamp: Date.now() / 1000 } });
    await vi.advanceTimersByTimeAsync(20);
    await sources.apply(current, true);
    await sources.apply(current, false);
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MS + 100);
    sources.loop.stop();
    expect((await ring.frames()).filter((f) => f.source === 'screencast')).toEqual([]);
  });

  it('drops frames once the window changed since the report, asks the page for a new one, and takes a frame when it comes', async () => {
    const { sources, ring, current, screencast, requestRegions } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    const frameShowing = (sessionId: number, deviceHeight: number, data: string) =>
      sources.handleScreencastFrame(TAB, { sessionId, data, metadata: { deviceWidth: 64, deviceHeight } });
    // The first frame: the report came before it, maybe from before the window changed.
    frameShowing(1, 36, JPEG_BASE64);
    await vi.advanceTimersByTimeAsync(200);
    expect(requestRegions).toHaveBeenCalledTimes(1);
    expect(sources.stats().dropped).toBe(1);
    sources.updateRegions(TAB, report([])); // the page's new report brings a screenshot
    await vi.advanceTimersByTimeAsync(600);
    frameShowing(2, 36, OTHER_JPEG_BASE64); // the same window: stored
    await vi.advanceTimersByTimeAsync(200);
    expect(requestRegions).toHaveBeenCalledTimes(1);
    frameShowing(3, 30, JPEG_BASE64); // the window got shorter
    await vi.advanceTimersByTimeAsync(200);
    expect(requestRegions).toHaveBeenCalledTimes(2);
    expect(sources.stats().dropped).toBe(2);
    sources.updateRegions(TAB, report([])); // the page's new report (its viewport, as the screenshot shows it)
    await vi.advanceTimersByTimeAsync(10);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screenshot', 'screencast', 'screenshot']);
  });

  it('forgets every report when the capture level falls below frames and when it rises again (pages do not report below it)', async () => {
    const { sources, ring, current, frame, requestRegions, capturer } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([]));
    await sources.apply({ ...current, captureLevel: 'metadata' }, false);
    sources.updateRegions(TAB, report([])); // a page still reporting, before it heard of the change
    await sources.apply(current, false);
    expect(requestRegions).toHaveBeenCalledWith(TAB); // asked for a fresh report
    frame(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(capturer.capture).not.toHaveBeenCalled();
    expect(await ring.frames()).toEqual([]);
    expect(sources.stats().dropped).toBe(1);
    sources.updateRegions(TAB, report([])); // the page's reporter, started again, reports
    await vi.advanceTimersByTimeAsync(10);
    sources.loop.stop();
    expect((await ring.frames()).length).toBe(1);
  });
});

describe('FrameSources: the first frame of a new debugger session', () => {
  it('does not trust a report made before it, also after the session was ended and opened again', async () => {
    const { sources, current, attached, requestRegions } = setup();
    await sources.apply(current, false);
    const frameShowing = (sessionId: number) => sources.handleScreencastFrame(TAB, { sessionId, data: JPEG_BASE64, metadata: { deviceWidth: 64, deviceHeight: 36 } });
    sources.updateRegions(TAB, report([]));
    frameShowing(1);
    expect(requestRegions).toHaveBeenCalledTimes(1);
    attached.delete(TAB);
    sources.handleDebuggerDetached(TAB); // e.g. a chrome:// page; the next web page gets a new session
    sources.updateRegions(TAB, report([]));
    attached.add(TAB);
    await sources.handleDebuggerAttached();
    frameShowing(2); // the "started debugging" bar came back: the report may be of the window before it
    await vi.advanceTimersByTimeAsync(200);
    sources.loop.stop();
    expect(requestRegions).toHaveBeenCalledTimes(2);
    expect(sources.stats().dropped).toBe(2);
  });

  it('a screenshot taken before the page reported is dropped, and taken again when the report came meanwhile', async () => {
    const { sources, screencast, ring, current } = setup({ captureSource: 'visibleTab' }, false);
    await sources.apply(current, false);
    let answer: (data: string) => void = () => {};
    screencast.screenshot.mockImplementationOnce(() => new Promise<string>((resolve) => (answer = resolve)));
    sources.handleAction(TAB, Date.now(), ACTION); // a tab not visible: a CDP screenshot
    await vi.advanceTimersByTimeAsync(10);
    sources.updateRegions(TAB, report([])); // the page's first report, while the screenshot is on its way
    answer(JPEG_BASE64);
    await vi.advanceTimersByTimeAsync(600);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    expect(sources.stats().dropped).toBe(1);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screenshot']);
  });

  it('masks a screencast frame by when it was drawn: with the report in force then, though a newer one came before it arrived', async () => {
    const { sources, maskFrame, current } = setup();
    await sources.apply(current, false);
    sources.updateRegions(TAB, report([{ x: 4, y: 4, width: 20, height: 10 }]));
    await vi.advanceTimersByTimeAsync(1_000);
    const drawnAt = Date.now();
    await vi.advanceTimersByTimeAsync(400);
    sources.updateRegions(TAB, report([{ x: 30, y: 20, width: 20, height: 10 }])); // scrolled
    await vi.advanceTimersByTimeAsync(300); // the frame drawn before it is slow to arrive
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata: { timestamp: drawnAt / 1000 } });
    await vi.advanceTimersByTimeAsync(200);
    sources.loop.stop();
    expect(maskFrame).toHaveBeenCalledWith(JPEG, [expect.objectContaining({ x: 0, y: 0 }), expect.objectContaining({ x: 26, y: 16 })], 70);
  });
});
