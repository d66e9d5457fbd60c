/**
 * Keeps at most `fps` screencast frames a second per tab and never the same picture twice in a row.
 * A frame that arrives too soon is held, not lost: if nothing newer comes before its slot, it is
 * stored then (trailing edge), so the last state of an animation that stopped is always kept.
 */
export class FrameThrottle<T> {
  private readonly tabs = new Map<number, { lastAt: number; lastKey: string | null; pending: { ts: number; key: string; frame: T } | null; timer: ReturnType<typeof setTimeout> | null }>();

  constructor(
    private fps: number,
    private readonly store: (tabId: number, ts: number, frame: T) => void,
  ) {}

  setFps(fps: number): void {
    this.fps = fps;
  }

  private get interval(): number {
    return 1000 / this.fps;
  }

  /** A new frame of `tabId` at `ts`; `key` identifies its picture (equal keys: identical frames). */
  offer(tabId: number, ts: number, key: string, frame: T): void {
    let tab = this.tabs.get(tabId);
    if (!tab) {
      tab = { lastAt: Number.NEGATIVE_INFINITY, lastKey: null, pending: null, timer: null };
      this.tabs.set(tabId, tab);
    }
    if (key === tab.lastKey && !tab.pending) return;
    // A small tolerance: frames paced by the renderer arrive a few ms early or late.
    if (ts - tab.lastAt >= this.interval * 0.9) {
      this.flush(tabId, { ts, key, frame }, ts);
      return;
    }
    tab.pending = { ts, key, frame };
    if (tab.timer === null) {
      const slot = tab.lastAt + this.interval;
      tab.timer = setTimeout(() => {
        const t = this.tabs.get(tabId);
        if (!t) return;
        t.timer = null;
        if (t.pending) this.flush(tabId, t.pending, slot);
      }, Math.max(0, slot - ts));
    }
  }

  /** Stores a frame (with its own time) in the slot starting at `slotAt`, which paces the next one. */
  private flush(tabId: number, f: { ts: number; key: string; frame: T }, slotAt: number): void {
    const tab = this.tabs.get(tabId)!;
    tab.pending = null;
    if (f.key === tab.lastKey) return;
    tab.lastAt = Math.max(f.ts, slotAt);
    tab.lastKey = f.key;
    this.store(tabId, f.ts, f.frame);
  }

  /** The last picture of a tab was not kept after all (e.g. dropped unmasked): the same picture may come again. */
  forgetPicture(tabId: number): void {
    const tab = this.tabs.get(tabId);
    if (tab) tab.lastKey = null;
  }

  forget(tabId: number): void {
    const tab = this.tabs.get(tabId);
    if (tab?.timer) clearTimeout(tab.timer);
    this.tabs.delete(tabId);
  }
}
