import { describe, expect, it } from 'vitest';
import { captureRate } from './capture-rate';

describe('captureRate', () => {
  it.each([
    ['9 frames over 6.25 s', Array.from({ length: 9 }, (_, i) => 1000 + i * 700), 7250, 1.44],
    ['one frame a second for 10 s', Array.from({ length: 10 }, (_, i) => i * 1000), 10_000, 1],
    ['no frames', [], 5000, 0],
    ['a window ending at its only frame', [5000], 5000, 0],
  ])('%s → %s frames/s', (_what, times, end, expected) => {
    expect(captureRate(times, end)).toBe(expected);
  });
});
