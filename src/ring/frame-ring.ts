import { MemoryFrameStore } from './memory-frame-store';
import type { FrameMeta, FrameStore, NewFrame } from './ports';
import type { Clock } from '../shared/clock';
import { framesInWindow, selectEvictions, type RingLimits } from './ring-policy';
import { onceUntilFailure } from '../shared/once-until-failure';

/**
 * After the store refused a frame for lack of quota, with the older half of its frames deleted
 * first, frames are kept in memory this long before the store is tried again. IndexedDB may not give
 * the space of deleted records back at once (its files shrink when they are compacted).
 */
export const STORE_RETRY_MS = 10_000;
/** At most this many bytes of frames are kept in memory (a worker using too much memory is stopped). */
export const MEMORY_MAX_BYTES = 64 * 1024 * 1024;
/** Keys of the frames kept in memory: above any key IndexedDB's key generator gives (2^53 at most). */
const MEMORY_FIRST_KEY = 2 ** 53 - 2 ** 40;

/**
 * The rolling buffer of frames: the last `maxAgeMs` of capture, bounded in bytes, persisted through
 * a `FrameStore`. It keeps an in-memory index of metadata (reloaded from the store after a service
 * worker restart) so eviction and bundle selection never read pixels. When the store runs out of
 * quota, the ring deletes the older half of the frames it holds and tries again; if the store still
 * refuses, frames are kept in memory (`memory`) for `STORE_RETRY_MS`: recording goes on, within the
 * same limits and at most `MEMORY_MAX_BYTES` in memory, and only those frames would be lost if the
 * service worker stopped meanwhile.
 */
export class FrameRing {
  private index: FrameMeta[] = [];
  private isLoaded = false;
  private evictedCount = 0;
  private readonly pins = new Map<number, Set<number>>();
  /** Failures' windows kept (see `pinWindow`): a tab's frames from a time on, and the key of its last frame before. */
  private readonly windowPins = new Map<number, { tabId: number; from: number; before: number | null }>();
  private nextPin = 1;
  private quotaErrors = 0;
  private lastStorageError: string | null = null;
  /** Keys of the frames kept in `memory` (the store refused them). */
  private readonly inMemory = new Set<number>();
  /** Until then frames go to `memory` without trying the store. */
  private storeAgainAt = -Infinity;
  /** The store refused a frame for quota and has not taken one since. */
  private outOfRoom = false;
  /** Tabs that are gone, and since when: their frames from before go once past the window, none kept as an anchor. */
  private readonly goneBefore = new Map<number, number>();

  constructor(
    private readonly store: FrameStore,
    private readonly clock: Clock,
    private limits: RingLimits,
    private readonly memory: FrameStore = new MemoryFrameStore(MEMORY_FIRST_KEY),
  ) {}

  /** Loads the index of frames that survived a restart; evicts what has expired meanwhile. */
  load(): Promise<void> {
    return this.loadOnce();
  }

  // Not loaded after a failure: the next call tries again (a store that failed once may answer now).
  private readonly loadOnce = onceUntilFailure(async () => {
    const stored = await this.store.listMeta();
    this.index = stored.sort((a, b) => a.key - b.key);
    this.isLoaded = true;
    await this.evict();
  });

  setLimits(limits: RingLimits): Promise<number> {
    this.limits = limits;
    return this.evict();
  }

  /** Stores a frame, then evicts whatever the limits no longer allow. */
  async add(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta> {
    await this.load();
    if (jpeg.byteLength > this.limits.maxBytes) {
      throw new Error(`frame of ${jpeg.byteLength} bytes exceeds the ring cap of ${this.limits.maxBytes} bytes`);
    }
    const meta = await this.persist(frame, jpeg);
    this.index.push(meta);
    await this.capMemory();
    await this.evict();
    return meta;
  }

  /** Whether the frame is kept in memory only (the store was out of quota when it came). */
  isInMemory(key: number): boolean {
    return this.inMemory.has(key);
  }

  /** The store, or memory while the store is out of quota (see the class comment). */
  private async persist(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta> {
    if (this.clock.now() >= this.storeAgainAt) {
      const stored = await this.tryStore(frame, jpeg);
      if (stored) return stored;
      // Once per spell without room (deleting again would lose frames and free nothing yet): the
      // disk is fuller than the byte cap allows for, so the older half of the stored frames goes.
      if (!this.outOfRoom) {
        this.outOfRoom = true;
        await this.evictOldestStored(Math.ceil((this.index.length - this.inMemory.size) / 2));
        const again = await this.tryStore(frame, jpeg);
        if (again) return again;
      }
      this.storeAgainAt = this.clock.now() + STORE_RETRY_MS;
    }
    const meta = await this.memory.add(frame, jpeg);
    this.inMemory.add(meta.key);
    return meta;
  }

  /** The frame stored, or null when the store is out of quota (counted and remembered for `stats`). */
  private async tryStore(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta | null> {
    try {
      const meta = await this.store.add(frame, jpeg);
      this.outOfRoom = false;
      return meta;
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      this.quotaErrors++;
      this.lastStorageError = describeStorageError(error);
      return null;
    }
  }

  /** Frames kept in memory over `MEMORY_MAX_BYTES` (or the ring's cap, if lower) go, oldest first. */
  private async capMemory(): Promise<void> {
    if (this.inMemory.size === 0) return;
    const cap = Math.min(this.limits.maxBytes, MEMORY_MAX_BYTES);
    const inMemory = this.index.filter((f) => this.inMemory.has(f.key));
    let bytes = inMemory.reduce((sum, f) => sum + f.size, 0);
    const keys: number[] = [];
    for (const f of inMemory) {
      if (bytes <= cap) break;
      if (this.isPinned(f)) continue;
      keys.push(f.key);
      bytes -= f.size;
    }
    await this.drop(keys);
  }

  private async evictOldestStored(count: number): Promise<void> {
    await this.drop(this.index.filter((f) => !this.inMemory.has(f.key) && !this.isPinned(f)).slice(0, count).map((f) => f.key));
  }

  private isPinned(f: FrameMeta): boolean {
    for (const keys of this.pins.values()) if (keys.has(f.key)) return true;
    for (const w of this.windowPins.values()) if (f.tabId === w.tabId && (f.ts >= w.from || f.key === w.before)) return true;
    return false;
  }


  /** Evicts these frames: out of the index, counted, deleted from wherever they are kept. */
  private async drop(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    const gone = new Set(keys);
    this.index = this.index.filter((f) => !gone.has(f.key));
    this.evictedCount += keys.length;
    await this.remove(keys);
  }

  /** Deletes frames from wherever they are kept. */
  private async remove(keys: readonly number[]): Promise<void> {
    const fromMemory = keys.filter((key) => this.inMemory.delete(key));
    const fromStore = fromMemory.length ? keys.filter((key) => !fromMemory.includes(key)) : keys;
    await Promise.all([fromMemory.length ? this.memory.delete(fromMemory) : undefined, this.store.delete(fromStore)]);
  }

  /**
   * Keeps these frames through eviction until the returned release function is called: a bundle
   * being packaged reads them after the window has moved on. Pinned frames may briefly take the
   * ring over its byte cap.
   */
  pin(keys: readonly number[]): () => void {
    const id = this.nextPin++;
    this.pins.set(id, new Set(keys));
    return () => {
      this.pins.delete(id);
    };
  }

  /**
   * Pins the tab's frames from `from` on, those stored later included, and its last one before (see
   * `framesInWindow`): a failure's window, kept from its signal until its bundle is made, however long
   * that waits.
   */
  pinWindow(tabId: number, from: number): () => void {
    const id = this.nextPin++;
    // The frames stored later are the window's too (those still being masked, those of the tail).
    const before = framesInWindow(this.index, tabId, from, from).find((f) => f.ts < from)?.key ?? null;
    this.windowPins.set(id, { tabId, from, before });
    return () => {
      this.windowPins.delete(id);
    };
  }

  /** Removes expired or over-budget frames; returns how many were removed. */
  async evict(): Promise<number> {
    const candidates = this.pins.size === 0 && this.windowPins.size === 0 ? this.index : this.index.filter((f) => !this.isPinned(f));
    const keys = selectEvictions(candidates, this.clock.now(), this.limits, this.goneBefore);
    await this.drop(keys);
    // A gone tab with no frame left from before it went needs no mark (known once the index is loaded).
    if (this.isLoaded) for (const [tabId, since] of this.goneBefore) if (!this.index.some((f) => f.tabId === tabId && f.ts < since)) this.goneBefore.delete(tabId);
    return keys.length;
  }

  /**
   * Every tab but these is gone (closed, or of an earlier browser session, whose tab ids a new one
   * gives again): their frames taken before `since` keep no anchor, and go once past the window.
   * Returns how many frames went now.
   */
  async keepTabs(open: Iterable<number>, since = this.clock.now()): Promise<number> {
    await this.load();
    const kept = new Set(open);
    for (const f of this.index) if (!kept.has(f.tabId) && f.ts < since) this.goneBefore.set(f.tabId, Math.max(since, this.goneBefore.get(f.tabId) ?? -Infinity));
    return this.evict();
  }

  /** The tab was closed now: see `keepTabs`. Its frames go with the next eviction (the next frame stored). */
  forgetTab(tabId: number): void {
    this.goneBefore.set(tabId, this.clock.now());
  }

  async frames(): Promise<readonly FrameMeta[]> {
    await this.load();
    return this.index;
  }

  readJpeg(key: number): Promise<Uint8Array | undefined> {
    return this.inMemory.has(key) ? this.memory.readJpeg(key) : this.store.readJpeg(key);
  }

  stats(): {
    frames: number;
    bytes: number;
    evicted: number;
    oldestTs: number | null;
    quotaErrors: number;
    lastStorageError: string | null;
    /** Frames kept in memory only, the store being out of quota. */
    framesInMemory: number;
  } {
    let bytes = 0;
    for (const f of this.index) bytes += f.size;
    return {
      frames: this.index.length,
      bytes,
      evicted: this.evictedCount,
      oldestTs: this.index[0]?.ts ?? null,
      quotaErrors: this.quotaErrors,
      lastStorageError: this.lastStorageError,
      framesInMemory: this.inMemory.size,
    };
  }
}

/** IndexedDB's "the origin is out of storage" (a DOMException named QuotaExceededError). */
export function isQuotaExceeded(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'QuotaExceededError';
}

/** A storage error as a line for a log or `status()`: IndexedDB's DOMExceptions may carry no message. */
export function describeStorageError(error: unknown): string {
  if (!(error instanceof Error) && typeof (error as { name?: unknown } | null)?.name !== 'string') return String(error);
  const { name, message } = error as { name: string; message?: string };
  return message ? `${name}: ${message}` : name;
}
