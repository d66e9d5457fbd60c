/** Shortest time a frame is shown; keeps zero-length frames (same millisecond) encodable. */
export const MIN_FRAME_MS = 10;
/** How long the last frame is shown when the failure came before or right at it. */
export const LAST_FRAME_MIN_MS = 500;

/**
 * How long each frame was on screen: until the next frame, and the last one until the failure.
 * The clip then plays in real time however irregular the capture was.
 */
export function frameDurations(timestamps: readonly number[], endTs: number): number[] {
  return timestamps.map((ts, i) => {
    const next = timestamps[i + 1];
    if (next !== undefined) return Math.max(MIN_FRAME_MS, next - ts);
    return Math.max(LAST_FRAME_MIN_MS, endTs - ts);
  });
}
