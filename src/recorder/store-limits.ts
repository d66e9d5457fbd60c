import type { Settings } from '../../schemas/settings';

/**
 * Steps are kept a while longer than frames so a bundle shows what led into its window. Each tab has
 * a cap of its own besides the total, so that one tab's flood cannot evict another tab's steps.
 */
export const stepLogLimits = (s: Settings) => ({ maxSteps: 2_000, maxStepsPerTab: 1_000, maxAgeMs: Math.max(60_000, s.bufferSeconds * 1000 * 2) });

/**
 * Beyond the window, how long the ring keeps frames for a bundle being made: the after-failure tail,
 * the failure's own frame (`FRAME_NOW_WAIT_MS`), the steps in flight, with room to spare.
 */
export const RING_SPARE_MS = 5_000;

/** A bundle's window starts `bufferSeconds` before its signal, and its frames are read after the tail: they must last that long. */
export const ringLimits = (s: Settings) => ({ maxAgeMs: (s.bufferSeconds + s.postFailureSeconds) * 1000 + RING_SPARE_MS, maxBytes: s.maxBufferBytes });
