import { readJpegSize } from '../shared/jpeg-size';
import type { ClipFrame } from './ports';

/** A frame as read from storage: its bytes may be gone (evicted) or not a JPEG. */
export interface StoredFrame {
  jpeg: Uint8Array | undefined;
  durationMs: number;
}

export interface ClipFramePlan {
  frames: ClipFrame[];
  /** How many frames were missing or unreadable. */
  dropped: number;
}

/**
 * Drops frames whose bytes are missing or carry no JPEG header, giving their time to the frame shown
 * before them (or, at the start, to the first usable frame), so the clip keeps its total duration and
 * every remaining frame still appears when it did.
 */
export function planClipFrames(stored: readonly StoredFrame[]): ClipFramePlan {
  const frames: ClipFrame[] = [];
  let pendingMs = 0;
  let dropped = 0;
  for (const { jpeg, durationMs } of stored) {
    if (!jpeg || !readJpegSize(jpeg)) {
      dropped += 1;
      const previous = frames.at(-1);
      if (previous) previous.durationMs += durationMs;
      else pendingMs += durationMs;
      continue;
    }
    frames.push({ jpeg, durationMs: durationMs + pendingMs });
    pendingMs = 0;
  }
  return { frames, dropped };
}
