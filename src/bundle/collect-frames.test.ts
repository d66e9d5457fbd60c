import { describe, expect, it } from 'vitest';
import type { FrameMeta } from '../ring/ports';
import { collectFrames, noFramesWarning } from './collect-frames';

const meta = (key: number, ts: number, over: Partial<FrameMeta> = {}): FrameMeta => ({ key, tabId: 1, windowId: 1, url: null, ts, size: 3, width: 1280, height: 720, ...over });
const jpeg = (n: number) => new Uint8Array([0xff, 0xd8, n]);

describe('collectFrames', () => {
  it('gives each frame its time on screen, the one from before the window counted from the window’s start', () => {
    const { frames, warnings } = collectFrames([meta(1, 500), meta(2, 1_600), meta(3, 2_200)], [jpeg(1), jpeg(2), jpeg(3)], { start: 1_000, end: 3_000 });
    expect(frames.map((f) => [f.key, f.ts, f.durationMs])).toEqual([
      [1, 500, 600],
      [2, 1_600, 600],
      [3, 2_200, 800],
    ]);
    expect(warnings).toEqual([]);
  });

  it('leaves out a frame evicted before it was read, and says so', () => {
    const { frames, warnings } = collectFrames([meta(1, 1_000), meta(2, 1_500), meta(3, 2_000)], [jpeg(1), undefined, jpeg(3)], { start: 1_000, end: 3_000 });
    expect(frames.map((f) => f.key)).toEqual([1, 3]);
    expect(warnings).toEqual(['frame 2 was evicted while the bundle was being packaged']);
  });

  it('stores a run of identical frames once: the entry’s duration and masked regions cover the run', () => {
    const { frames } = collectFrames([meta(1, 1_000, { masked: 1 }), meta(2, 1_500, { masked: 2 }), meta(3, 2_000)], [jpeg(1), jpeg(1), jpeg(3)], { start: 1_000, end: 3_000 });
    expect(frames.map((f) => [f.key, f.durationMs, f.masked, f.captures, f.lastTs])).toEqual([
      [1, 1_000, 3, 2, 1_500],
      [3, 1_000, 0, 1, 2_000],
    ]);
  });

  it.each([
    { name: 'a frame stored before frames said their source and viewport', over: {}, want: { source: 'visibleTab', masked: 0 } },
    { name: 'a screencast frame with its viewport', over: { source: 'screencast', viewport: { width: 1000, height: 600, device_pixel_ratio: 2, image_scale: 2 } }, want: { source: 'screencast', viewport: { width: 1000, height: 600, device_pixel_ratio: 2, image_scale: 2 } } },
  ] as { name: string; over: Partial<FrameMeta>; want: object }[])('keeps what the frame shows: $name', ({ over, want }) => {
    const [frame] = collectFrames([meta(1, 1_000, over)], [jpeg(1)], { start: 1_000, end: 2_000 }).frames;
    expect(frame).toMatchObject({ width: 1280, height: 720, ...want });
    if (!over.viewport) expect(frame).not.toHaveProperty('viewport');
  });
});

describe('noFramesWarning', () => {
  it.each([
    { dropped: 0, droppedByReason: undefined, want: 'no frames of this tab were captured in the buffer window (was it the visible tab?)' },
    { dropped: 4, droppedByReason: undefined, want: 'no frames of this tab were stored in the buffer window; 4 frames were dropped since the recorder started' },
    {
      dropped: 4,
      droppedByReason: { 'no-report': 3, 'stale-report': 0, 'viewport-mismatch': 1, 'page-unresponsive': 0, 'not-recording': 0 },
      want: 'no frames of this tab were stored in the buffer window; 4 frames were dropped since the recorder started: no-report 3, viewport-mismatch 1',
    },
  ])('$dropped dropped: $want', ({ dropped, droppedByReason, want }) => {
    expect(noFramesWarning({ dropped, droppedByReason })).toBe(want);
  });
});
