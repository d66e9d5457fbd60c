import { describe, expect, it } from 'vitest';
import { framesInWindow, selectEvictions } from './ring-policy';
import type { FrameMeta } from './ports';

const frame = (key: number, ts: number, size: number, tabId = 1): FrameMeta => ({
  key,
  ts,
  size,
  tabId,
  windowId: 1,
  url: null,
  width: 1280,
  height: 720,
});

describe('selectEvictions', () => {
  it.each([
    { name: 'nothing to evict', frames: [frame(1, 9_000, 10), frame(2, 9_500, 10)], now: 10_000, maxAgeMs: 15_000, maxBytes: 100, want: [] },
    { name: 'evicts by age, keeping the newest expired frame as the tab’s anchor', frames: [frame(1, 1_000, 10), frame(2, 4_000, 10), frame(3, 9_000, 10)], now: 20_000, maxAgeMs: 15_000, want: [1] },
    { name: 'each tab keeps its own anchor', frames: [frame(1, 1_000, 10, 1), frame(2, 2_000, 10, 2), frame(3, 3_000, 10, 1), frame(4, 9_000, 10, 1)], now: 20_000, maxAgeMs: 15_000, want: [1] },
    { name: 'keeps a frame exactly at the cutoff', frames: [frame(1, 5_000, 10), frame(2, 6_000, 10)], now: 20_000, maxAgeMs: 15_000, want: [] },
    { name: 'evicts oldest by bytes', frames: [frame(1, 9_000, 40), frame(2, 9_100, 40), frame(3, 9_200, 40)], now: 10_000, maxAgeMs: 15_000, maxBytes: 80, want: [1] },
    { name: 'evicts by age and then by bytes', frames: [frame(1, 0, 10), frame(2, 9_000, 60), frame(3, 9_100, 60)], now: 16_000, maxAgeMs: 15_000, maxBytes: 100, want: [1, 2] },
    { name: 'evicts everything expired but the anchor', frames: [frame(1, 0, 10), frame(2, 1, 10)], now: 100_000, maxAgeMs: 15_000, want: [1] },
    { name: 'the byte cap evicts anchors too', frames: [frame(1, 0, 60), frame(2, 19_000, 60)], now: 20_000, maxAgeMs: 15_000, maxBytes: 100, want: [1] },
    { name: 'empty ring', frames: [], now: 0, maxAgeMs: 15_000, want: [] },
  ])('$name', ({ frames, now, maxAgeMs, maxBytes, want }) => {
    expect(selectEvictions(frames, now, { maxAgeMs, maxBytes: maxBytes ?? Number.MAX_SAFE_INTEGER })).toEqual(want);
  });
});

it('keeps as the anchor the newest frame before the cutoff, even if it was stored before an older one', () => {
  // Frame 2 (ts 150) was masked slower than frame 3 (ts 160) and stored after it.
  const frames = [frame(1, 100, 1), frame(3, 160, 1), frame(2, 150, 1), frame(4, 300, 1)];
  expect(selectEvictions(frames, 1_200, { maxAgeMs: 1_000, maxBytes: 100 })).toEqual([1, 2]);
});

it('keeps no anchor of a tab gone since the frame was taken, and keeps those of its frames taken after', () => {
  // Tab 1 was closed at 5_000 (or its id belonged to an earlier browser session): from then, a new tab 1.
  const frames = [frame(1, 1_000, 1, 1), frame(2, 2_000, 1, 2), frame(3, 6_000, 1, 1), frame(4, 19_000, 1, 1)];
  expect(selectEvictions(frames, 20_000, { maxAgeMs: 15_000, maxBytes: 100 }, new Map([[1, 5_000]]))).toEqual([1]);
  expect(selectEvictions(frames, 23_000, { maxAgeMs: 15_000, maxBytes: 100 }, new Map([[1, 5_000]]))).toEqual([1]);
  expect(selectEvictions(frames, 23_000, { maxAgeMs: 15_000, maxBytes: 100 }, new Map([[1, 7_000]]))).toEqual([1, 3]);
  expect(selectEvictions(frames, 23_000, { maxAgeMs: 15_000, maxBytes: 100 }, new Map([[2, 7_000]]))).toEqual([1, 2]);
});

describe('framesInWindow', () => {
  it('keeps the frames of one tab within the window, in order, after the last one before it', () => {
    const frames = [frame(1, 100, 1, 1), frame(2, 120, 1, 1), frame(3, 200, 1, 2), frame(4, 300, 1, 1), frame(5, 400, 1, 1), frame(6, 500, 1, 1)];
    expect(framesInWindow(frames, 1, 150, 400).map((f) => f.key)).toEqual([2, 4, 5]);
    expect(framesInWindow(frames, 2, 150, 400).map((f) => f.key)).toEqual([3]);
  });

  it('puts frames stored out of time order (one masked slower than the next) in time order', () => {
    const frames = [frame(1, 100, 1), frame(2, 260, 1), frame(3, 250, 1), frame(4, 90, 1), frame(5, 300, 1), frame(6, 300, 1)];
    expect(framesInWindow(frames, 1, 95, 400).map((f) => f.key)).toEqual([4, 1, 3, 2, 5, 6]);
    expect(framesInWindow(frames, 1, 255, 400).map((f) => f.key)).toEqual([3, 2, 5, 6]);
  });
});
