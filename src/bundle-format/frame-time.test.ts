import { describe, expect, it } from 'vitest';
import { clipTimeOfFrame, frameAtClipTime, frameSpanSeconds, frameStarts, nearestFrame, totalSeconds } from './frame-time';
import type { Manifest } from '../../schemas/manifest';

const frame = (ts: number, duration_ms: number): Manifest['frames'][number] => ({
  name: `frames/frame_${ts}.jpeg`,
  captured_at: new Date(ts).toISOString(),
  ts,
  duration_ms,
  width: 1280,
  height: 720,
  source: 'visibleTab' as const,
});
const frames = [frame(1000, 600), frame(1600, 550), frame(2150, 1850)];

describe('frame time', () => {
  it('lays frames end to end in the clip', () => {
    expect(frameStarts(frames)).toEqual([0, 0.6, 1.15]);
    expect(totalSeconds(frames)).toBe(3);
  });

  it.each([
    [0, 0],
    [0.59, 0],
    [0.6, 1],
    [1.2, 2],
    [99, 2],
    [-1, 0],
  ])('clip time %s s shows frame %i', (seconds, index) => {
    expect(frameAtClipTime(frameStarts(frames), seconds)).toBe(index);
  });

  it('seeks a little past the start of a frame, and that time maps back to the same frame', () => {
    const starts = frameStarts(frames);
    for (let i = 0; i < frames.length; i++) expect(frameAtClipTime(starts, clipTimeOfFrame(frames, starts, i))).toBe(i);
    expect(clipTimeOfFrame(frames, starts, 1)).toBeCloseTo(0.65);
  });

  it.each([
    [0, 0],
    [1290, 0],
    [1310, 1],
    [1600, 1],
    [1875, 1],
    [1876, 2],
    [9999, 2],
  ])('a step at %i ms is nearest to frame %i', (ts, index) => {
    expect(nearestFrame(frames, ts)).toBe(index);
  });

  it('finds the same pictures once two identical captures are one entry covering both moments', () => {
    // Frames 0 and 1 above were identical: merged, one entry of their summed duration.
    const merged = [{ ...frame(1000, 1150), captures: 2, last_ts: 1600 }, frame(2150, 1850)];
    const picture = [0, 0, 1];
    for (const ts of [0, 1290, 1310, 1600, 1875, 1876, 2150, 9999]) expect(nearestFrame(merged, ts)).toBe(picture[nearestFrame(frames, ts)]);
    expect(totalSeconds(merged)).toBe(totalSeconds(frames));
    expect(frameSpanSeconds(merged)).toBe(frameSpanSeconds(frames));
    expect(frameStarts(merged)).toEqual([0, 1.15]);
  });

  it('has no frame to show in a bundle without frames', () => {
    expect(nearestFrame([], 5)).toBe(-1);
    expect(frameAtClipTime([], 5)).toBe(-1);
    expect(frameSpanSeconds([])).toBe(0);
  });

  it('spans from the first capture to the end of the last frame on screen', () => {
    expect(frameSpanSeconds(frames)).toBe(3);
    expect(frameSpanSeconds([frame(1000, 250)])).toBe(0.25);
  });
});
