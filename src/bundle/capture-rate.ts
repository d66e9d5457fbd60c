/**
 * Frames captured per second over a bundle's window: the captures in it (identical ones stored once
 * still count) over the seconds from the first one to the window's end (`diagnostics.capture.window_start`
 * to `window_end`), to two decimals; 0 without frames or time between them.
 * @example captureRate([1000, 1700, 2400], 7250) // 0.48
 */
export function captureRate(frameTimes: readonly number[], windowEnd: number): number {
  const first = frameTimes[0];
  if (first === undefined || !(windowEnd > first)) return 0;
  return Math.round((frameTimes.length / ((windowEnd - first) / 1000)) * 100) / 100;
}
