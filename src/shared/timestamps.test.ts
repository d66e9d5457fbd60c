import { describe, expect, it } from 'vitest';
import { reconcileTimestamp } from './timestamps';

describe('reconcileTimestamp', () => {
  it.each([
    { reported: 1_000, received: 1_200, want: 1_000 },
    { reported: 1_000, received: 6_001, want: 6_001 },
    { reported: 99_000, received: 1_000, want: 1_000 },
    { reported: Number.NaN, received: 1_000, want: 1_000 },
  ])('reported $reported received $received → $want', ({ reported, received, want }) => {
    expect(reconcileTimestamp(reported, received)).toBe(want);
  });

  it('keeps an older report when told it may come late, never one from the future', () => {
    expect(reconcileTimestamp(1_000, 41_000, 60_000)).toBe(1_000);
    expect(reconcileTimestamp(1_000, 61_001, 60_000)).toBe(61_001);
    expect(reconcileTimestamp(9_000, 1_000, 60_000)).toBe(1_000);
  });
});
