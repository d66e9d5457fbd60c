import { describe, expect, it } from 'vitest';
import { frameDurations } from './frame-durations';
import { makeBundleId, BUNDLE_ID_PATTERN } from './bundle-id';

describe('frameDurations', () => {
  it.each([
    { ts: [0, 600, 1_200], end: 1_800, want: [600, 600, 600] },
    { ts: [0, 600, 1_900], end: 2_000, want: [600, 1_300, 500] },
    { ts: [0, 0, 550], end: 2_000, want: [10, 550, 1_450] },
    { ts: [1_000], end: 900, want: [500] },
    { ts: [], end: 0, want: [] },
  ])('$ts until $end', ({ ts, end, want }) => {
    expect(frameDurations(ts, end)).toEqual(want);
  });
});

describe('makeBundleId', () => {
  it('is sortable by time and matches the accepted pattern', () => {
    const a = makeBundleId(Date.UTC(2026, 10, 22, 14, 32, 5), () => 0.5);
    expect(a).toBe('afr-20261122T143205Z-ssssss');
    expect(a).toMatch(BUNDLE_ID_PATTERN);
    expect(makeBundleId(Date.UTC(2026, 10, 22, 14, 32, 6)) > a).toBe(true);
  });
});
