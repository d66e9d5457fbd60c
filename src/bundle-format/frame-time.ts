/*
 * Frames by time: `manifest.frames` lists the frames in capture order, each with its capture time (`ts`)
 * and how long `failure.mp4` shows it (`duration_ms`). These functions answer "which frame at this time"
 * both ways, by capture time and by clip time.
 */

/** What these functions need of a `manifest.frames` entry (a tolerant reading has it too). */
export interface FrameInfo {
  ts: number;
  duration_ms: number;
  /** The last of the identical captures the entry stands for (`manifest.frames[].last_ts`); absent: `ts`. */
  last_ts?: number;
}

/** Capture time of the last capture an entry stands for. */
const lastCapture = (frame: FrameInfo): number => Math.max(frame.ts, frame.last_ts ?? frame.ts);

/**
 * Start of each frame in the clip, in seconds: `failure.mp4` shows every frame for its `duration_ms`,
 * one after another, so frame i starts at the sum of the durations before it.
 */
export function frameStarts(frames: readonly FrameInfo[]): number[] {
  const starts: number[] = [];
  let t = 0;
  for (const frame of frames) {
    starts.push(t);
    t += frame.duration_ms / 1000;
  }
  return starts;
}

/** Total clip length in seconds according to the frames' durations. */
export function totalSeconds(frames: readonly FrameInfo[]): number {
  return frames.reduce((sum, f) => sum + f.duration_ms, 0) / 1000;
}

/** Index of the frame on screen at clip time `seconds` (clamped to the first and last frame). */
export function frameAtClipTime(starts: readonly number[], seconds: number): number {
  if (starts.length === 0) return -1;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (starts[mid]! <= seconds) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Clip time to seek to so that frame `index` shows: a little past its start, because a seek that
 * lands exactly on a boundary may decode the previous frame after rounding.
 */
export function clipTimeOfFrame(frames: readonly FrameInfo[], starts: readonly number[], index: number): number {
  const frame = frames[index];
  if (!frame) return 0;
  return starts[index]! + Math.min(0.05, frame.duration_ms / 2000);
}

/**
 * Index of the frame whose capture time is nearest to `ts` (ties go to the earlier frame); -1 when there
 * are none. An entry standing for several identical captures is at distance 0 from `ts` to `last_ts`,
 * so a moment between them finds it, as it found one of those captures before they were merged.
 */
export function nearestFrame(frames: readonly FrameInfo[], ts: number): number {
  if (frames.length === 0) return -1;
  const distance = (frame: FrameInfo) => (ts < frame.ts ? frame.ts - ts : Math.max(0, ts - lastCapture(frame)));
  let lo = 0;
  let hi = frames.length - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (lastCapture(frames[mid]!) < ts) lo = mid + 1;
    else hi = mid;
  }
  // lo is the first frame whose captures reach ts (or the last frame); the one before it may be nearer.
  if (lo > 0 && distance(frames[lo - 1]!) <= distance(frames[lo]!)) return lo - 1;
  return lo;
}

/**
 * Seconds from the first frame's capture to the end of the last frame's time on screen; 0 without frames.
 * @example frameSpanSeconds([{ ts: 1000, duration_ms: 500 }, { ts: 2000, duration_ms: 1000 }]) // 2
 */
export function frameSpanSeconds(frames: readonly FrameInfo[]): number {
  const first = frames[0];
  const last = frames.at(-1);
  return first && last ? (last.ts + last.duration_ms - first.ts) / 1000 : 0;
}
