import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { FrameRing, MEMORY_MAX_BYTES, STORE_RETRY_MS } from './frame-ring';
import { MemoryFrameStore } from './memory-frame-store';
import { IdbFrameStore } from '../platform/idb-frame-store';
import type { NewFrame } from './ports';

function fakeClock(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

const newFrame = (ts: number, size: number, tabId = 7): NewFrame => ({
  ts,
  size,
  tabId,
  windowId: 1,
  url: 'https://shop.test/',
  width: 4,
  height: 4,
});

describe('FrameRing', () => {
  it('keeps only the last bufferSeconds of frames as time passes', async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    for (let i = 0; i < 40; i++) {
      clock.t += 600;
      await ring.add(newFrame(clock.t, 100), new Uint8Array(100));
    }
    const frames = await ring.frames();
    // 15 s / 600 ms, plus the frame exactly at the cutoff, plus the anchor from before it.
    expect(frames.length).toBe(27);
    expect(frames[1]!.ts).toBeGreaterThanOrEqual(clock.t - 15_000);
    expect(frames[0]!.ts).toBeLessThan(clock.t - 15_000);
    expect(ring.stats().evicted).toBe(13);
  });

  it('keeps no anchor of a closed tab, nor of tabs not open when the worker starts', async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    for (const tabId of [7, 8, 9]) await ring.add(newFrame(clock.t, 100, tabId), new Uint8Array(100));
    clock.t += 20_000;
    // Past the window, each tab's last frame is its anchor: what its still page shows.
    expect(await ring.evict()).toBe(0);
    ring.forgetTab(7);
    expect(await ring.keepTabs([7, 8, 9], clock.t)).toBe(1);
    expect(await ring.keepTabs([8], clock.t)).toBe(1);
    expect((await ring.frames()).map((f) => f.tabId)).toEqual([8]);
    // A frame of an open tab taken after the start is kept, whatever was said of its id before.
    await ring.add(newFrame(clock.t + 1, 100, 9), new Uint8Array(100));
    clock.t += 20_000;
    expect(await ring.evict()).toBe(0);
    expect((await ring.frames()).map((f) => f.tabId)).toEqual([8, 9]);
  });

  it("keeps a failure's window from its signal until released: the frames stored later and the last one before", async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    const t0 = clock.t;
    for (const ts of [t0 - 20_000, t0 - 16_000, t0 - 10_000]) await ring.add(newFrame(ts, 100), new Uint8Array(100));
    await ring.add(newFrame(t0 - 10_000, 100, 8), new Uint8Array(100));
    const release = ring.pinWindow(7, t0 - 15_000);
    // Stored after the signal (the tail, a frame still being masked).
    await ring.add(newFrame(t0 + 1_000, 100), new Uint8Array(100));
    await ring.add(newFrame(t0 + 2_000, 100), new Uint8Array(100));
    clock.t += 60_000;
    await ring.add(newFrame(clock.t, 100), new Uint8Array(100));
    // Tab 7's window and the frame before it stay; the frame before that goes.
    expect((await ring.frames()).filter((f) => f.tabId === 7).map((f) => f.ts - t0)).toEqual([-16_000, -10_000, 1_000, 2_000, 60_000]);
    release();
    await ring.evict();
    expect((await ring.frames()).filter((f) => f.tabId === 7).map((f) => f.ts - t0)).toEqual([2_000, 60_000]);
  });

  it('never holds more than the byte cap, evicting the oldest', async () => {
    const clock = fakeClock();
    const store = new MemoryFrameStore();
    const ring = new FrameRing(store, clock, { maxAgeMs: 60_000, maxBytes: 1_000 });
    for (let i = 0; i < 20; i++) {
      clock.t += 10;
      await ring.add(newFrame(clock.t, 300), new Uint8Array(300));
      expect(ring.stats().bytes).toBeLessThanOrEqual(1_000);
    }
    expect(ring.stats().frames).toBe(3);
    expect(store.jpegs.size).toBe(3);
    expect((await ring.frames()).map((f) => f.ts)).toEqual([clock.t - 20, clock.t - 10, clock.t]);
  });

  it('rejects a single frame larger than the cap and keeps recording', async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 60_000, maxBytes: 1_000 });
    await expect(ring.add(newFrame(clock.t, 2_000), new Uint8Array(2_000))).rejects.toThrow(/exceeds the ring cap/);
    await ring.add(newFrame(clock.t, 10), new Uint8Array(10));
    expect(ring.stats().frames).toBe(1);
  });

  it('shrinks at once when the limits are lowered', async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 60_000, maxBytes: 10_000 });
    for (let i = 0; i < 10; i++) await ring.add(newFrame(clock.t + i, 100), new Uint8Array(100));
    expect(await ring.setLimits({ maxAgeMs: 60_000, maxBytes: 250 })).toBe(8);
  });

  it('keeps pinned frames through eviction until released', async () => {
    const clock = fakeClock();
    const ring = new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 1_000, maxBytes: 1 << 20 });
    const a = await ring.add(newFrame(clock.t, 10), new Uint8Array(10));
    const release = ring.pin([a.key]);
    clock.t += 5_000;
    await ring.add(newFrame(clock.t, 10), new Uint8Array(10));
    clock.t += 5_000;
    await ring.add(newFrame(clock.t, 10), new Uint8Array(10)); // now the second frame is the anchor
    expect((await ring.frames()).map((f) => f.key)).toContain(a.key);
    release();
    await ring.evict();
    expect((await ring.frames()).map((f) => f.key)).not.toContain(a.key);
  });

  it('evicts harder and keeps recording when storage runs out of quota', async () => {
    const clock = fakeClock();
    const store = new MemoryFrameStore();
    const add = store.add.bind(store);
    // A disk that holds 10 frames whatever the ring's byte cap says.
    store.add = async (frame, jpeg) => {
      if (store.meta.size >= 10) throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
      return add(frame, jpeg);
    };
    const ring = new FrameRing(store, clock, { maxAgeMs: 60_000, maxBytes: 1 << 20 });
    for (let i = 0; i < 25; i++) {
      clock.t += 100;
      await ring.add(newFrame(clock.t, 10), new Uint8Array(10));
    }
    const stats = ring.stats();
    expect(stats.quotaErrors).toBeGreaterThanOrEqual(2);
    expect(stats.lastStorageError).toMatch(/quota/);
    expect(stats.frames).toBeLessThanOrEqual(10);
    expect((await ring.frames()).at(-1)!.ts).toBe(clock.t);
  });

  it('keeps frames in memory while the store stays full after deleting (IndexedDB frees space later), then stores again', async () => {
    const clock = fakeClock();
    const store = new MemoryFrameStore();
    const add = store.add.bind(store);
    let full = true;
    let attempts = 0;
    // A disk that is full and stays full whatever is deleted, until `full` is cleared.
    store.add = async (frame, jpeg) => {
      attempts++;
      if (full) throw Object.assign(new Error(''), { name: 'QuotaExceededError' });
      return add(frame, jpeg);
    };
    await store.add(newFrame(clock.t, 10), new Uint8Array(10)).catch(() => undefined);
    full = false;
    const ring = new FrameRing(store, clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    for (let i = 0; i < 4; i++) {
      clock.t += 125;
      await ring.add(newFrame(clock.t, 10), new Uint8Array(10).fill(i));
    }
    full = true;
    attempts = 0;
    // 20 s at 8 frames a second: every frame is kept; the store is tried again every STORE_RETRY_MS,
    // and the older half of its frames deleted only the first time (deleting frees no room yet).
    for (let i = 0; i < 160; i++) {
      clock.t += 125;
      await ring.add(newFrame(clock.t, 10), new Uint8Array(10).fill(i % 200));
      if (i === 0) expect(store.meta.size).toBe(2);
      if (i === 100) expect(store.meta.size).toBe(2); // tried again at 10 s, nothing more deleted
    }
    const stats = ring.stats();
    expect(attempts).toBe(2 + Math.floor((160 * 125 - 1) / STORE_RETRY_MS));
    expect(stats.quotaErrors).toBe(attempts);
    expect(stats.lastStorageError).toBe('QuotaExceededError');
    // The window is whole (15 s at 8 fps), from memory; the stored frames were deleted to make room.
    const frames = await ring.frames();
    expect(frames[0]!.ts).toBeLessThanOrEqual(clock.t - 15_000);
    expect(frames.at(-1)!.ts).toBe(clock.t);
    expect(stats.framesInMemory).toBe(frames.length);
    expect(store.meta.size).toBe(0);
    expect(await ring.readJpeg(frames.at(-1)!.key)).toEqual(new Uint8Array(10).fill(159));
    expect(ring.isInMemory(frames.at(-1)!.key)).toBe(true);
    // Space again: once STORE_RETRY_MS is up, frames go to the store; memory empties as its frames age out.
    full = false;
    for (let i = 0; i < 160; i++) {
      clock.t += 125;
      await ring.add(newFrame(clock.t, 10), new Uint8Array(10));
    }
    expect(ring.stats().framesInMemory).toBe(0);
    expect(store.meta.size).toBe((await ring.frames()).length);
    expect((await ring.frames()).every((f) => !ring.isInMemory(f.key))).toBe(true);
  });

  it('keeps at most MEMORY_MAX_BYTES of frames in memory, oldest out first', async () => {
    const clock = fakeClock();
    const store = new MemoryFrameStore();
    store.add = () => Promise.reject(Object.assign(new Error(''), { name: 'QuotaExceededError' }));
    const ring = new FrameRing(store, clock, { maxAgeMs: 60_000, maxBytes: 1 << 30 });
    const size = 4 * 1024 * 1024;
    for (let i = 0; i < 20; i++) {
      clock.t += 125;
      await ring.add(newFrame(clock.t, size), new Uint8Array(size));
    }
    const frames = await ring.frames();
    expect(frames).toHaveLength(MEMORY_MAX_BYTES / size);
    expect(frames.at(-1)!.ts).toBe(clock.t);
    expect(ring.stats().bytes).toBe(MEMORY_MAX_BYTES);
  });

  it('survives a restart: a new ring over the same IndexedDB sees earlier frames and their pixels', async () => {
    const clock = fakeClock();
    const first = new FrameRing(new IdbFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    const a = await first.add(newFrame(clock.t, 3), new Uint8Array([1, 2, 3]));
    clock.t += 500;
    await first.add(newFrame(clock.t, 2), new Uint8Array([4, 5]));

    const second = new FrameRing(new IdbFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    const frames = await second.frames();
    expect(frames.map((f) => f.size)).toEqual([3, 2]);
    expect([...((await second.readJpeg(a.key)) ?? [])]).toEqual([1, 2, 3]);

    clock.t += 20_000;
    const third = new FrameRing(new IdbFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    // Only the tab's anchor (its last frame) is left.
    expect((await third.frames()).map((f) => f.size)).toEqual([2]);
    expect(await new IdbFrameStore().readJpeg(a.key)).toBeUndefined();
  });
});
