import { describe, expect, it, vi } from 'vitest';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { JPEG_BASE64, report, setup, TAB, useFakeTimersEachTest } from '../../test/fakes/frame-sources';

useFakeTimersEachTest();

/** The page's report of a viewport of `width`×`height` CSS px at `dpr`, with nothing sensitive on it. */
function viewportReport(width: number, height: number, dpr: number, extra: Partial<SensitiveRectsMessage> = {}): SensitiveRectsMessage {
  return { ...report([]), viewport: { width, height }, device_pixel_ratio: dpr, ...extra };
}

describe('each stored frame says the viewport it shows', () => {
  it('a captureVisibleTab frame at device pixel ratio 2: the page\u2019s viewport, two image px per CSS px', async () => {
    const { sources, ring, capturer, current } = setup({ captureSource: 'visibleTab' }, true, 0, undefined, () => 1);
    // The tab is 32×18 DIPs; the picture is twice that.
    capturer.capture.mockImplementation(async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), width: 64, height: 36, shown: { width: 32, height: 18 } }));
    await sources.apply(current, false);
    sources.updateRegions(TAB, viewportReport(32, 18, 2));
    await vi.advanceTimersByTimeAsync(2_000);
    sources.loop.stop();
    const frames = await ring.frames();
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.map((f) => f.viewport)).toEqual(frames.map(() => ({ width: 32, height: 18, device_pixel_ratio: 2, image_scale: 2 })));
  });

  it('a captureVisibleTab frame after the window was resized: the new viewport, none of the old window\u2019s frames mislabelled', async () => {
    const { sources, ring, capturer, current } = setup({ captureSource: 'visibleTab' }, true, 0, undefined, () => 1);
    const window = { width: 64, height: 36 };
    capturer.capture.mockImplementation(async () => ({ jpeg: new Uint8Array([0xff, 0xd8, window.width, 0xff, 0xd9]), ...window, shown: { ...window } }));
    await sources.apply(current, false);
    sources.updateRegions(TAB, viewportReport(64, 36, 1));
    await vi.advanceTimersByTimeAsync(2_000);
    // The window shrinks: its frames are dropped until the page reports the new viewport.
    window.width = 48;
    window.height = 27;
    await vi.advanceTimersByTimeAsync(2_000);
    sources.updateRegions(TAB, viewportReport(48, 27, 1));
    await vi.advanceTimersByTimeAsync(2_000);
    sources.loop.stop();
    const frames = await ring.frames();
    const sizes = frames.map((f) => [f.width, f.viewport?.width, f.viewport?.height, f.viewport?.image_scale]);
    expect(sizes).toContainEqual([64, 64, 36, 1]);
    expect(sizes).toContainEqual([48, 48, 27, 1]);
    expect(sizes.every(([image, css]) => image === css)).toBe(true);
  });

  it('a screencast frame: its metadata\u2019s surface, page scale and scroll (DIPs made CSS px by the zoom)', async () => {
    const { sources, ring, current } = setup({}, true, 0, undefined, () => 2);
    await sources.apply(current, false);
    const metadata = { deviceWidth: 64, deviceHeight: 36, pageScaleFactor: 1, scrollOffsetX: 0, scrollOffsetY: 240 };
    // The first frame says the surface; the page reports for it (a report from before is not trusted).
    sources.handleScreencastFrame(TAB, { sessionId: 1, data: JPEG_BASE64, metadata });
    await vi.advanceTimersByTimeAsync(500);
    // Zoomed to 200 %: the 64×36 DIP window shows 32×18 CSS px.
    sources.updateRegions(TAB, viewportReport(32, 18, 2));
    sources.handleScreencastFrame(TAB, { sessionId: 2, data: JPEG_BASE64, metadata });
    await vi.advanceTimersByTimeAsync(1_000);
    sources.loop.stop();
    const frames = await ring.frames();
    expect(frames.map((f) => [f.source, f.viewport])).toEqual([
      ['screencast', { width: 32, height: 18, device_pixel_ratio: 2, image_scale: 2, scroll: { x: 0, y: 120 } }],
      // Then a still page: a CDP screenshot, which says no surface of its own (the tab's last), nor a scroll.
      ['screenshot', { width: 32, height: 18, device_pixel_ratio: 2, image_scale: 2 }],
    ]);
  });

  it('a CDP screenshot: the tab\u2019s last surface and its report', async () => {
    const { sources, ring, screencast, current } = setup({}, true, 0, undefined, () => 1);
    await sources.apply(current, false);
    sources.updateRegions(TAB, viewportReport(64, 36, 1));
    await vi.advanceTimersByTimeAsync(3_000); // a still page: its screencast sends nothing, a screenshot is taken
    sources.loop.stop();
    expect(screencast.screenshot).toHaveBeenCalled();
    const frames = await ring.frames();
    expect(frames.map((f) => [f.source, f.viewport?.width, f.viewport?.height, f.viewport?.device_pixel_ratio])).toEqual([['screenshot', 64, 36, 1]]);
  });
});
