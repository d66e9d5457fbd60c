import { z } from './zod-mini';

/**
 * How much the recorder captures, in increasing order: `off` < `metadata` (timeline only) <
 * `trace` (+ snapshot, diagnostics) < `screenshots` (+ frames) < `video` (+ clip) = `full`.
 */
export const CAPTURE_LEVELS = ['off', 'metadata', 'trace', 'screenshots', 'video', 'full'] as const;
export const CaptureLevelSchema = z.enum(CAPTURE_LEVELS);
export type CaptureLevel = z.infer<typeof CaptureLevelSchema>;

const RANK: Record<CaptureLevel, number> = { off: 0, metadata: 1, trace: 2, screenshots: 3, video: 4, full: 4 };

/** Whether `level` includes everything `minimum` does. */
export function captureLevelAtLeast(level: CaptureLevel, minimum: CaptureLevel): boolean {
  return RANK[level] >= RANK[minimum];
}

/** Compares two levels like a sort function: negative when `a` captures less than `b`. */
export function compareCaptureLevels(a: CaptureLevel, b: CaptureLevel): number {
  return RANK[a] - RANK[b];
}
