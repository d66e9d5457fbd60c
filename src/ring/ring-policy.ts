import type { FrameMeta } from './ports';

export interface RingLimits {
  /** Frames older than `now - maxAgeMs` are evicted. */
  maxAgeMs: number;
  /** The ring's total JPEG bytes stay at or below this. */
  maxBytes: number;
}

/**
 * Keys of the frames to evict so the ring keeps only frames no older than `maxAgeMs` and at most
 * `maxBytes` in total, oldest first. `frames` must be in capture order (oldest first).
 */
export function selectEvictions(frames: readonly FrameMeta[], now: number, limits: RingLimits): number[] {
  const cutoff = now - limits.maxAgeMs;
  let total = 0;
  for (const f of frames) total += f.size;
  const evict: number[] = [];
  for (const f of frames) {
    if (f.ts >= cutoff && total <= limits.maxBytes) break;
    evict.push(f.key);
    total -= f.size;
  }
  return evict;
}

/** Frames of `tabId` captured within `[from, to]`, in capture order. */
export function framesInWindow(frames: readonly FrameMeta[], tabId: number, from: number, to: number): FrameMeta[] {
  return frames.filter((f) => f.tabId === tabId && f.ts >= from && f.ts <= to);
}
