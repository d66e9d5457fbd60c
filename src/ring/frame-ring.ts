import type { Clock, FrameMeta, FrameStore, NewFrame } from './ports';
import { selectEvictions, type RingLimits } from './ring-policy';

/**
 * The rolling buffer of frames: the last `maxAgeMs` of capture, bounded in bytes, persisted through
 * a `FrameStore`. It keeps an in-memory index of metadata (reloaded from the store after a service
 * worker restart) so eviction and bundle selection never read pixels.
 */
export class FrameRing {
  private index: FrameMeta[] = [];
  private loaded: Promise<void> | null = null;
  private evictedCount = 0;
  private readonly pins = new Map<number, Set<number>>();
  private nextPin = 1;
  private quotaErrors = 0;
  private lastStorageError: string | null = null;

  constructor(
    private readonly store: FrameStore,
    private readonly clock: Clock,
    private limits: RingLimits,
  ) {}

  /** Loads the index of frames that survived a restart; evicts what has expired meanwhile. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const stored = await this.store.listMeta();
      this.index = stored.sort((a, b) => a.key - b.key);
      await this.evict();
    })();
    return this.loaded;
  }

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
    let meta: FrameMeta;
    try {
      meta = await this.store.add(frame, jpeg);
    } catch (error) {
      if (!isQuotaExceeded(error)) throw error;
      // The disk is fuller than the byte cap allows for: free the older half of the ring and try once more.
      this.quotaErrors++;
      this.lastStorageError = error instanceof Error ? error.message : String(error);
      await this.evictOldest(Math.ceil(this.index.length / 2));
      meta = await this.store.add(frame, jpeg);
    }
    this.index.push(meta);
    await this.evict();
    return meta;
  }

  private async evictOldest(count: number): Promise<void> {
    const keys = this.index.filter((f) => ![...this.pins.values()].some((p) => p.has(f.key))).slice(0, count).map((f) => f.key);
    const gone = new Set(keys);
    this.index = this.index.filter((f) => !gone.has(f.key));
    this.evictedCount += keys.length;
    await this.store.delete(keys);
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

  /** Removes expired or over-budget frames; returns how many were removed. */
  async evict(): Promise<number> {
    const pinned = (f: FrameMeta) => [...this.pins.values()].some((keys) => keys.has(f.key));
    const candidates = this.pins.size === 0 ? this.index : this.index.filter((f) => !pinned(f));
    const keys = selectEvictions(candidates, this.clock.now(), this.limits);
    if (keys.length === 0) return 0;
    const gone = new Set(keys);
    this.index = this.index.filter((f) => !gone.has(f.key));
    this.evictedCount += keys.length;
    await this.store.delete(keys);
    return keys.length;
  }

  async frames(): Promise<readonly FrameMeta[]> {
    await this.load();
    return this.index;
  }

  readJpeg(key: number): Promise<Uint8Array | undefined> {
    return this.store.readJpeg(key);
  }

  stats(): { frames: number; bytes: number; evicted: number; oldestTs: number | null; quotaErrors: number; lastStorageError: string | null } {
    let bytes = 0;
    for (const f of this.index) bytes += f.size;
    return {
      frames: this.index.length,
      bytes,
      evicted: this.evictedCount,
      oldestTs: this.index[0]?.ts ?? null,
      quotaErrors: this.quotaErrors,
      lastStorageError: this.lastStorageError,
    };
  }
}

/** IndexedDB's "the origin is out of storage" (a DOMException named QuotaExceededError). */
export function isQuotaExceeded(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'QuotaExceededError';
}
