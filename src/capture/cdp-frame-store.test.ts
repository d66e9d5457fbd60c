import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';
import type { CaptureStats } from './capture-loop';
import { CdpFrameStore } from './cdp-frame-store';
import type { CapturedImage } from './ports';

const JPEG = new Uint8Array(readFileSync(new URL('../../test/fixtures/clip/baseline-64x36.jpeg', import.meta.url)));
const JPEG_BASE64 = Buffer.from(JPEG).toString('base64');
const MASKED = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const TAB = 2;
const NOW = Date.UTC(2026, 10, 22, 12);

/** A store over a real ring; `prepare` stands for the mask gate: what it returns for each frame. */
function store(prepare: (image: CapturedImage) => CapturedImage | null, predatesReports = false) {
  const ring = new FrameRing(new MemoryFrameStore(), { now: () => NOW }, { maxAgeMs: 15_000, maxBytes: 1 << 24 });
  const gate = { prepare: vi.fn(async (_tabId: number, image: CapturedImage) => prepare(image)), noteDropped: vi.fn(() => predatesReports) };
  const context = { ring, gate, tabUrl: () => 'https://shop.test/', log: vi.fn(), forgetPicture: vi.fn(), retake: vi.fn() };
  return { cdp: new CdpFrameStore(context), ...context };
}

const ZERO: CaptureStats = { capturesOk: 0, captureErrors: 0, quotaErrors: 0, dropped: 0, maskedRegions: 0, lastError: null, fps: 0 };

describe('CdpFrameStore', () => {
  it('stores a frame through the gate, at its arrival, with its source and masks, and counts it', async () => {
    const { cdp, ring, gate } = store((image) => ({ ...image, jpeg: MASKED, masked: 2 }));
    await cdp.store(TAB, NOW, { data: JPEG_BASE64, takenAt: NOW - 50, shown: { width: 64, height: 36 } }, 'screencast');
    expect(gate.prepare).toHaveBeenCalledExactlyOnceWith(TAB, { jpeg: JPEG, width: 64, height: 36 }, NOW - 50, { width: 64, height: 36 });
    const frames = await ring.frames();
    expect(frames.map((f) => [f.tabId, f.ts, f.source, f.masked, f.url, f.width, f.height])).toEqual([[TAB, NOW, 'screencast', 2, 'https://shop.test/', 64, 36]]);
    expect(await ring.readJpeg(frames[0]!.key)).toEqual(MASKED);
    expect(cdp.addStats({ ...ZERO, capturesOk: 3, maskedRegions: 1 })).toMatchObject({ capturesOk: 4, maskedRegions: 3, dropped: 0, captureErrors: 0 });
  });

  it('takes a frame without its own time as taken at its arrival', async () => {
    const { cdp, gate } = store((image) => image);
    await cdp.store(TAB, NOW, { data: JPEG_BASE64 }, 'screenshot');
    expect(gate.prepare).toHaveBeenCalledWith(TAB, expect.anything(), NOW, undefined);
  });

  it.each([
    { label: 'taken before a report that came meanwhile: taken again now', predates: true, retakes: 1 },
    { label: 'else: again once the page reports', predates: false, retakes: 0 },
  ])('drops a frame the gate drops, its picture forgotten; $label', async ({ predates, retakes }) => {
    const { cdp, ring, gate, forgetPicture, retake } = store(() => null, predates);
    await cdp.store(TAB, NOW, { data: JPEG_BASE64, takenAt: NOW - 10 }, 'screenshot');
    expect(await ring.frames()).toEqual([]);
    expect(forgetPicture).toHaveBeenCalledExactlyOnceWith(TAB);
    expect(gate.noteDropped).toHaveBeenCalledExactlyOnceWith(TAB, NOW - 10);
    expect(retake).toHaveBeenCalledTimes(retakes);
    expect(cdp.addStats(ZERO).dropped).toBe(1);
  });

  it('counts and logs a frame that is not a readable JPEG, never offered to the gate', async () => {
    const { cdp, gate, log } = store((image) => image);
    await cdp.store(TAB, NOW, { data: 'bm90IGEgSlBFRw==' }, 'screencast');
    expect(gate.prepare).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledExactlyOnceWith(`[afr] screencast frame of tab ${TAB} not stored: not a readable JPEG`);
    expect(cdp.addStats(ZERO).captureErrors).toBe(1);
  });
});
