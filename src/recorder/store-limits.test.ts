import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { RING_SPARE_MS, ringLimits, stepLogLimits } from './store-limits';

describe('store limits', () => {
  it('the ring keeps the window, the after-failure tail and some to spare, within the byte budget', () => {
    expect(ringLimits({ ...DEFAULT_SETTINGS, bufferSeconds: 15, postFailureSeconds: 2, maxBufferBytes: 1 << 20 })).toEqual({ maxAgeMs: 17_000 + RING_SPARE_MS, maxBytes: 1 << 20 });
  });

  it.each([
    [15, 60_000],
    [60, 120_000],
  ])('with a %i s window, the step log keeps %i ms (twice the window, a minute at least)', (bufferSeconds, maxAgeMs) => {
    expect(stepLogLimits({ ...DEFAULT_SETTINGS, bufferSeconds })).toEqual({ maxSteps: 2_000, maxStepsPerTab: 1_000, maxAgeMs });
  });
});
