/*
 * A still page gives runs of byte-identical JPEGs (a capture every interval of the same pixels), and
 * the failure screenshot often equals the frame before it. A frame identical to the one before it is
 * not written again: the earlier entry covers both moments (its duration summed, the later capture
 * counted). Every reader keeps working, since an entry is still one file shown for its `duration_ms`,
 * and the clip's length is unchanged.
 */

/** What merging needs of a frame; the rest of it rides along unchanged. */
export interface MergeableFrame {
  jpeg: Uint8Array;
  ts: number;
  durationMs: number;
  /** Sensitive regions filled in it: merged entries add theirs up, so the bundle's total stays the same. */
  masked: number;
}

/** A frame entry standing for `captures` identical captures, the last of them taken at `lastTs`. */
export type MergedFrame<F extends MergeableFrame> = F & { captures: number; lastTs: number };

/**
 * Whether two byte arrays hold the same bytes: lengths first (two different JPEGs rarely have the same
 * length), then the bytes, four at a time where both are 4-byte aligned.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  if (a === b) return true;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.byteLength >>> 2;
    const x = new Uint32Array(a.buffer, a.byteOffset, words);
    const y = new Uint32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (x[i] !== y[i]) return false;
    i = words * 4;
  }
  for (; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Merges each run of adjacent frames with the same bytes into its first frame: its duration is the
 * run's, `captures` how many frames the run held and `lastTs` the last one's time. The entry keeps the
 * first frame's `source`, where its file came from: a screenshot identical to the screencast frame
 * before it (the page did not repaint) is the same picture.
 * Frames are in time order; only neighbours are compared, so a page that goes back to an earlier
 * picture still gets a new entry (the timeline stays in order).
 * @example mergeRepeatedFrames([a, copyOfA, b]) // [{ ...a, durationMs: a.durationMs + copyOfA.durationMs, captures: 2 }, { ...b, captures: 1 }]
 */
export function mergeRepeatedFrames<F extends MergeableFrame>(frames: readonly F[]): MergedFrame<F>[] {
  const merged: MergedFrame<F>[] = [];
  for (const frame of frames) {
    const previous = merged.at(-1);
    if (previous && sameBytes(previous.jpeg, frame.jpeg)) {
      previous.durationMs += frame.durationMs;
      previous.masked += frame.masked;
      previous.captures += 1;
      previous.lastTs = frame.ts;
    } else {
      merged.push({ ...frame, captures: 1, lastTs: frame.ts });
    }
  }
  return merged;
}
