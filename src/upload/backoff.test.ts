import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff';

const policy = { baseMs: 1_000, capMs: 60_000, floorMs: 100 };

describe('retryDelayMs', () => {
  it('doubles the ceiling with each failure, up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 1, policy))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(40, () => 1, policy)).toBe(60_000);
  });

  it('waits a random part of the ceiling, never less than the floor', () => {
    expect(retryDelayMs(3, () => 0.5, policy)).toBe(2_000);
    expect(retryDelayMs(3, () => 0, policy)).toBe(100);
  });
});
