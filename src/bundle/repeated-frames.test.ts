import { describe, expect, it } from 'vitest';
import { mergeRepeatedFrames, sameBytes } from './repeated-frames';

const jpeg = (...bytes: number[]) => new Uint8Array([0xff, 0xd8, ...bytes]);
const frame = (bytes: Uint8Array, ts: number, durationMs = 100, source = 'visibleTab', masked = 0) => ({ jpeg: bytes, ts, durationMs, masked, source, key: ts });

describe('sameBytes', () => {
  it.each([
    ['equal bytes in different arrays', jpeg(1, 2, 3), jpeg(1, 2, 3), true],
    ['a different length', jpeg(1, 2, 3), jpeg(1, 2), false],
    ['one byte different at the end', jpeg(1, 2, 3, 4, 5, 6, 7, 8, 9), jpeg(1, 2, 3, 4, 5, 6, 7, 8, 10), false],
    ['one byte different in a word', jpeg(1, 2, 3, 4, 5, 6, 7, 8, 9), jpeg(1, 2, 3, 9, 5, 6, 7, 8, 9), false],
    ['empty', new Uint8Array(0), new Uint8Array(0), true],
  ])('%s', (_, a, b, same) => {
    expect(sameBytes(a, b)).toBe(same);
  });

  it('compares views at any offset', () => {
    const buffer = new Uint8Array([9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // An unaligned view against an aligned copy of the same bytes.
    expect(sameBytes(buffer.subarray(1, 10), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBe(true);
    expect(sameBytes(buffer.subarray(1, 5), new Uint8Array([1, 2, 3, 5]))).toBe(false);
  });
});

describe('mergeRepeatedFrames', () => {
  it('makes a run of identical frames one entry covering their whole time, and keeps the rest', () => {
    const a = jpeg(1);
    const merged = mergeRepeatedFrames([frame(a, 0, 125), frame(jpeg(1), 125, 125), frame(jpeg(1), 250, 300), frame(jpeg(2), 550, 500), frame(jpeg(1), 1050, 500)]);
    expect(merged.map((f) => [f.ts, f.durationMs, f.captures, f.lastTs])).toEqual([
      [0, 550, 3, 250],
      [550, 500, 1, 550],
      // Back to the first picture: a new entry, so the timeline stays in order.
      [1050, 500, 1, 1050],
    ]);
    expect(merged[0]!.jpeg).toBe(a);
    expect(merged[0]!.key).toBe(0);
  });

  it('keeps the total time and the masked regions of the frames', () => {
    const frames = [frame(jpeg(7), 0, 200, 'visibleTab', 2), frame(jpeg(7), 200, 300, 'visibleTab', 2), frame(jpeg(8), 500, 500)];
    const merged = mergeRepeatedFrames(frames);
    expect(merged.reduce((s, f) => s + f.durationMs, 0)).toBe(1000);
    expect(merged.reduce((s, f) => s + f.masked, 0)).toBe(4);
  });

  it('merges a screenshot identical to the screencast frame before it, under the source of the stored file', () => {
    const merged = mergeRepeatedFrames([frame(jpeg(1), 0, 100, 'screencast'), frame(jpeg(1), 100, 500, 'screenshot'), frame(jpeg(2), 600, 500, 'screenshot')]);
    expect(merged.map((f) => [f.source, f.durationMs, f.captures])).toEqual([['screencast', 600, 2], ['screenshot', 500, 1]]);
  });

  it('does not change the frames it is given', () => {
    const frames = [frame(jpeg(1), 0), frame(jpeg(1), 100)];
    mergeRepeatedFrames(frames);
    expect(frames.map((f) => f.durationMs)).toEqual([100, 100]);
    expect(mergeRepeatedFrames([])).toEqual([]);
  });
});
