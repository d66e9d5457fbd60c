import type { FrameMeta } from './ports';

export interface RingLimits {
  /** Frames older than `now - maxAgeMs` are evicted, but for each tab's newest such frame (below). */
  maxAgeMs: number;
  /** The ring's total JPEG bytes stay at or below this. */
  maxBytes: number;
}

/**
 * Keys of the frames to evict so the ring keeps only frames no older than `maxAgeMs` and at most
 * `maxBytes` in total, oldest first. Each tab keeps its newest frame from before the cutoff (its
 * "anchor"): a screencast sends no frame while the page does not repaint, and that frame is what the
 * screen showed when the window starts. A frame taken before `goneBefore` says its tab was gone
 * (closed, or the id given to another tab since) is no anchor. `frames` are in storage order, which is nearly time order (a
 * frame masked slower may be stored after a later one).
 */
export function selectEvictions(frames: readonly FrameMeta[], now: number, limits: RingLimits, goneBefore: ReadonlyMap<number, number> = new Map()): number[] {
  const cutoff = now - limits.maxAgeMs;
  const anchors = new Map<number, FrameMeta>();
  for (const f of frames) {
    const anchor = anchors.get(f.tabId);
    // A closed tab's screen shows nothing any more (and its id may be given to another tab later).
    if (f.ts < cutoff && !(f.ts < (goneBefore.get(f.tabId) ?? -Infinity)) && (!anchor || f.ts >= anchor.ts)) anchors.set(f.tabId, f);
  }
  const isAnchor = (f: FrameMeta) => anchors.get(f.tabId) === f;
  let total = 0;
  for (const f of frames) total += f.size;
  const evict: number[] = [];
  for (const f of frames) {
    if (total <= limits.maxBytes && (f.ts >= cutoff || isAnchor(f))) continue;
    evict.push(f.key);
    total -= f.size;
  }
  return evict;
}

/**
 * Frames of `tabId` for a window `[from, to]`, in time order: those captured in it, preceded by the
 * tab's last frame from before `from` (what the screen showed when the window started). Frames are
 * stored once masked, which takes longer for some: a frame may be stored after a later one.
 */
export function framesInWindow(frames: readonly FrameMeta[], tabId: number, from: number, to: number): FrameMeta[] {
  const tab = frames.filter((f) => f.tabId === tabId && f.ts <= to).sort((a, b) => a.ts - b.ts || a.key - b.key);
  const inside = tab.filter((f) => f.ts >= from);
  const before = tab.filter((f) => f.ts < from).at(-1);
  return before ? [before, ...inside] : inside;
}
