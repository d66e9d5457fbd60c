import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BURST_FRAME_SPACING_MS, BURST_SHOT_SPACING_MS, BURST_TIMES, CAST_SILENCE_MS, FrameSources, REPORT_WAIT_MS, SYNC_WAIT_MS, type FrameSourcePorts, type ScreencastPort } from './frame-sources';
import { FRAME_LATENCY_MS } from './mask-plan';
import { DEFAULT_SETTINGS, type Settings } from '../../schemas/settings';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';
import type { Capturer } from './ports';

const JPEG = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/baseline-64x36.jpeg', import.meta.url)));
const JPEG_BASE64 = Buffer.from(JPEG).toString('base64');
const OTHER_JPEG_BASE64 = readFileSync(new URL('../../test/fixtures/clip/odd-65x37.jpeg', import.meta.url)).toString('base64');
const MASKED = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const TAB = 7;
/** An observed action, with a frame right after it (`captureOnAction`). */
const ACTION = { capture: true, action: true };
const { gapMs: BURST_GAP_MS, quietMs: BURST_QUIET_MS } = BURST_TIMES;

const report = (rects: SensitiveRectsMessage['rects']): SensitiveRectsMessage => ({
  type: 'redaction/rects',
  ts: Date.now(),
  url: 'https://shop.test/checkout',
  viewport: { width: 64, height: 36 },
  device_pixel_ratio: 1,
  rects,
});

/** `visible`: whether TAB is the visible tab of its window (the captureVisibleTab loop sees it). */
function setup(settings: Partial<Settings> = {}, visible = true, reportWaitMs = 0, syncRegions?: FrameSourcePorts['syncRegions']) {
  const clock = { now: () => Date.now() };
  const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
  const attached = new Set([TAB]);
  const capturer = {
    listTargets: vi.fn(async () => (visible ? [{ tabId: TAB, windowId: 1, url: 'https://shop.test/checkout' }] : [])),
    capture: vi.fn(async () => ({ jpeg: JPEG, width: 64, height: 36 })),
  } satisfies Capturer;
  const screencast = {
    attachedTabs: () => [...attached],
    start: vi.fn(async () => {}),
    stop: vi.fn(async () => {}),
    ack: vi.fn(async () => {}),
    screenshot: vi.fn(async () => JPEG_BASE64),
  } satisfies ScreencastPort;
  const maskFrame = vi.fn(async () => MASKED);
  const requestRegions = vi.fn();
  const current: Settings = { ...DEFAULT_SETTINGS, ...settings };
  const log = vi.fn();
  const sources = new FrameSources({
    clock,
    ring,
    capturer,
    screencast,
    maskFrame,
    requestRegions,
    debuggerState: (tabId) => ({ attached: attached.has(tabId) }),
    tabUrl: () => 'https://shop.test/checkout',
    log,
    // Masked at once but where the wait for later reports is tested.
    reportWaitMs,
    syncRegions,
  }, current);
  const frame = (sessionId: number, data = JPEG_BASE64) => sources.handleScreencastFrame(TAB, { sessionId, data });
  return { sources, ring, capturer, screencast, maskFrame, requestRegions, attached, current, log, frame };
}

// Every test runs on fake timers: the capture loop, bursts and screenshots are timed.
beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
});
afterEach(() => {
  vi.useRealTimers();
});

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
    await vi.advanceTimersByTimeAsync(FRAME_LATENCY_MS + 10);
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
    // A page that repaints after it reported: its screencast frame, no screenshot.
    sources.handleNavigation(TAB);
    sources.updateRegions(TAB, report([]));
    frame(1);
    await vi.advanceTimersByTimeAsync(CAST_SILENCE_MS * 2);
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalledTimes(2);
    expect((await ring.frames()).map((f) => f.source)).toEqual(['screenshot', 'screenshot', 'screencast']);
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
    // Painted: the action's frame comes from the screencast.
    sources.handleAction(TAB, Date.now(), ACTION);
    await vi.advanceTimersByTimeAsync(100);
    frame(1);
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
    expect((await ring.frames()).length).toBe(calls.length);
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
