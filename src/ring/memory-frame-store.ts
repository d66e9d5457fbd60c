import type { FrameMeta, FrameStore, NewFrame } from './ports';

/**
 * In-memory `FrameStore`: for tests and benchmarks, and where the ring keeps frames while IndexedDB is
 * out of quota (keys from `firstKey` up, so they never meet the other store's).
 */
export class MemoryFrameStore implements FrameStore {
  private nextKey: number;
  readonly meta = new Map<number, FrameMeta>();
  readonly jpegs = new Map<number, Uint8Array>();

  constructor(firstKey = 1) {
    this.nextKey = firstKey;
  }

  async add(frame: NewFrame, jpeg: Uint8Array): Promise<FrameMeta> {
    const meta = { ...frame, key: this.nextKey++ };
    this.meta.set(meta.key, meta);
    this.jpegs.set(meta.key, jpeg);
    return meta;
  }

  async listMeta(): Promise<FrameMeta[]> {
    return [...this.meta.values()];
  }

  async readJpeg(key: number): Promise<Uint8Array | undefined> {
    return this.jpegs.get(key);
  }

  async delete(keys: readonly number[]): Promise<void> {
    for (const key of keys) {
      this.meta.delete(key);
      this.jpegs.delete(key);
    }
  }
}
