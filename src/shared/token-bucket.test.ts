import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

const takes = (bucket: TokenBucket, at: number, n: number) => Array.from({ length: n }, () => bucket.take(at)).filter(Boolean).length;

describe('TokenBucket', () => {
  it.each([
    { name: 'a burst up to the capacity', capacity: 5, perSecond: 1, later: 0, want: 0 },
    { name: 'refilled at the rate', capacity: 5, perSecond: 2, later: 1_500, want: 3 },
    { name: 'never past the capacity', capacity: 5, perSecond: 100, later: 60_000, want: 5 },
    { name: 'nothing for a clock set back', capacity: 5, perSecond: 100, later: -60_000, want: 0 },
  ])('$name', ({ capacity, perSecond, later, want }) => {
    const bucket = new TokenBucket(capacity, perSecond, 0);
    expect(takes(bucket, 0, 10)).toBe(capacity);
    expect(takes(bucket, later, 10)).toBe(want);
  });

  it('refills over time up to its capacity', () => {
    const bucket = new TokenBucket(2, 1, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, false]);
    expect([bucket.take(1000), bucket.take(1000)]).toEqual([true, false]);
    expect([bucket.take(60_000), bucket.take(60_000), bucket.take(60_000)]).toEqual([true, true, false]);
  });

  it('takes an amount at once only when that many tokens are there', () => {
    const bucket = new TokenBucket(10, 1, 0);
    expect([bucket.take(0, 7), bucket.take(0, 4), bucket.take(0, 3), bucket.take(0)]).toEqual([true, false, true, false]);
    expect(bucket.take(4_000, 4)).toBe(true);
  });
});
