import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SensitiveRectsMessage } from '../../schemas/messages';
import { MaskGate, REPORT_WAIT_MS, SYNC_WAIT_MS, type MaskGatePorts } from './mask-gate';
import { report as regionsReport } from '../../test/fakes/frame-sources';

const TAB = 6;
const JPEG = new Uint8Array([0xff, 0xd8, 0x01, 0xff, 0xd9]);
const MASKED = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const IMAGE = { jpeg: JPEG, width: 64, height: 36 };
const FIELD = { x: 4, y: 4, width: 20, height: 10 };
/** The viewport the fake page reports: the frame's own size at 1 image px per CSS px. */
const VIEWPORT = { width: 64, height: 36, device_pixel_ratio: 1 };

const report = (rects: SensitiveRectsMessage['rects'] = [FIELD]): SensitiveRectsMessage => regionsReport(rects);

/** A gate with a fake painter; `ports` adds or replaces the page's ports. */
function gate(ports: Partial<MaskGatePorts> = {}) {
  const state = { capturing: true, recordsFrames: true };
  const page = { maskFrame: vi.fn(async () => MASKED), requestRegions: vi.fn(), reportWaitMs: 0, ...ports };
  const context = {
    clock: { now: () => Date.now() },
    log: vi.fn(),
    capturing: () => state.capturing,
    recordsFrames: () => state.recordsFrames,
    jpegQuality: () => 70,
    reported: vi.fn((tabId: number, r: SensitiveRectsMessage) => void masks.update(tabId, r)),
  };
  const masks = new MaskGate(page, context);
  return { masks, state, ...page, ...context };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('MaskGate', () => {
  it('drops a frame of a tab whose regions are not known, and masks one once they are', async () => {
    const { masks, maskFrame } = gate();
    expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
    expect(masks.update(TAB, report())).toEqual({ first: true, awaited: false });
    expect(masks.update(TAB, report())).toEqual({ first: false, awaited: false });
    expect(await masks.prepare(TAB, IMAGE, Date.now())).toEqual({ ...IMAGE, jpeg: MASKED, masked: 1, viewport: VIEWPORT });
    expect(maskFrame).toHaveBeenCalledExactlyOnceWith(JPEG, [expect.objectContaining({ x: 0, y: 0 })], 70);
  });

  it('stores a frame with nothing to mask as it is, and one unmasked where nothing can paint', async () => {
    const { masks, maskFrame } = gate();
    masks.update(TAB, report([]));
    expect(await masks.prepare(TAB, IMAGE, Date.now())).toEqual({ ...IMAGE, masked: 0, viewport: VIEWPORT });
    expect(maskFrame).not.toHaveBeenCalled();
    const unpainted = gate({ maskFrame: undefined });
    expect(await unpainted.masks.prepare(TAB, IMAGE, Date.now())).toBe(IMAGE);
  });

  it('notes when the latest frame to be stored was taken (the latest of any source), not a dropped one', async () => {
    const { masks } = gate();
    const at = Date.now();
    await masks.prepare(TAB, IMAGE, at);
    expect(masks.latestFrameAt(TAB)).toBeUndefined();
    masks.update(TAB, report());
    await masks.prepare(TAB, IMAGE, at);
    await masks.prepare(TAB, IMAGE, at - 500);
    expect(masks.latestFrameAt(TAB)).toBe(at);
  });

  it(`without a page to ask, masks a frame ${REPORT_WAIT_MS} ms after it was taken: a capture, or a drawn frame by its own time`, async () => {
    const { masks } = gate({ reportWaitMs: undefined });
    masks.update(TAB, report());
    const capture = masks.prepare(TAB, IMAGE, Date.now());
    const drawn = masks.prepare(TAB, IMAGE, Date.now() - 100, { width: 64, height: 36 });
    let done = 0;
    void capture.then(() => done++);
    void drawn.then(() => done++);
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MS - 100);
    expect(done).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(2);
  });

  it('drops a frame waiting for its masks when recording stopped meanwhile, though it started again', async () => {
    const { masks, state } = gate({ reportWaitMs: REPORT_WAIT_MS });
    masks.update(TAB, report());
    const frame = masks.prepare(TAB, IMAGE, Date.now());
    masks.recordingStopped();
    await vi.advanceTimersByTimeAsync(REPORT_WAIT_MS);
    expect(await frame).toBeNull();
    state.capturing = false;
    expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
  });

  describe('asking the page', () => {
    function asking() {
      const asked: ((answer: SensitiveRectsMessage | null) => void)[] = [];
      const syncRegions = vi.fn(() => new Promise<SensitiveRectsMessage | null>((resolve) => asked.push(resolve)));
      const ctx = gate({ syncRegions });
      ctx.masks.update(TAB, report());
      return { ...ctx, asked, syncRegions };
    }

    it('masks a frame once the page answered, the answer taken as its report', async () => {
      const { masks, asked, reported } = asking();
      const frame = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(SYNC_WAIT_MS - 10);
      asked.shift()!(report());
      expect((await frame)?.masked).toBe(1);
      expect(reported).toHaveBeenCalledTimes(1);
    });

    it('drops a frame (stale-report) when the answer was measured before its picture was taken: its masks may miss what changed since', async () => {
      const { masks, asked } = asking();
      const takenAt = Date.now();
      const frame = masks.prepare(TAB, IMAGE, takenAt);
      await vi.advanceTimersByTimeAsync(20);
      asked.shift()!({ ...report(), ts: takenAt - 5 });
      expect(await frame).toBeNull();
      expect(masks.droppedByReason()['stale-report']).toBe(1);
      const next = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(20);
      asked.shift()!({ ...report(), ts: Date.now() });
      expect((await next)?.masked).toBe(1);
    });

    it('shares one request among the frames that came while one was in flight', async () => {
      const { masks, asked, syncRegions } = asking();
      const first = masks.prepare(TAB, IMAGE, Date.now());
      const second = masks.prepare(TAB, IMAGE, Date.now());
      const third = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(10);
      asked.shift()!(report());
      await vi.advanceTimersByTimeAsync(10);
      expect(syncRegions).toHaveBeenCalledTimes(2);
      asked.shift()!(report());
      expect((await Promise.all([first, second, third])).map((f) => f?.masked)).toEqual([1, 1, 1]);
    });

    it(`drops a frame of a page that does not answer within ${SYNC_WAIT_MS} ms, logged once, and the next ones at once until it reports`, async () => {
      const { masks, asked, syncRegions, log } = asking();
      const frame = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(SYNC_WAIT_MS);
      expect(await frame).toBeNull();
      expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
      expect(syncRegions).toHaveBeenCalledTimes(1);
      expect(log).toHaveBeenCalledExactlyOnceWith(expect.stringContaining(`[afr] frame of tab ${TAB} dropped:`));
      asked.shift()!(report()); // late: a report like any
      await vi.advanceTimersByTimeAsync(0);
      const next = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(0);
      asked.shift()!(report());
      expect((await next)?.masked).toBe(1);
    });

    it.each([
      { label: 'it has no regions to give', answer: (a: (r: SensitiveRectsMessage | null) => void) => a(null), navigate: false },
      { label: 'the answer is of a document the tab has since left', answer: (a: (r: SensitiveRectsMessage | null) => void) => a(report()), navigate: true },
    ])('drops a frame when $label', async ({ answer, navigate }) => {
      const { masks, asked, reported } = asking();
      const frame = masks.prepare(TAB, IMAGE, Date.now());
      await vi.advanceTimersByTimeAsync(0);
      if (navigate) masks.navigated(TAB);
      answer(asked.shift()!);
      expect(await frame).toBeNull();
      expect(reported).not.toHaveBeenCalled();
    });

    it('logs a request that failed, and drops the frame', async () => {
      const { masks, syncRegions, log } = asking();
      syncRegions.mockRejectedValueOnce(new Error('port closed'));
      expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
      expect(log).toHaveBeenCalledWith(`[afr] the regions of tab ${TAB}: Error: port closed`);
    });
  });

  it('has a dropped frame taken again now when it predates a report that came meanwhile, else when the page reports', async () => {
    const { masks } = gate();
    const before = Date.now();
    await vi.advanceTimersByTimeAsync(10);
    masks.update(TAB, report());
    expect(masks.noteDropped(TAB, before)).toBe(true);
    masks.navigated(TAB);
    expect(masks.noteDropped(TAB, Date.now())).toBe(false);
    expect(masks.update(TAB, report())).toEqual({ first: true, awaited: true });
    expect(masks.update(TAB, report())).toEqual({ first: false, awaited: false });
  });

  it('asks the page again when the window a screencast frame shows changed, and not when it is the same', () => {
    const { masks, requestRegions } = gate();
    masks.update(TAB, report());
    masks.noteShown(TAB, { width: 64, height: 36 }); // the first: nothing to compare with
    expect(requestRegions).toHaveBeenCalledTimes(1);
    masks.update(TAB, report());
    masks.noteShown(TAB, { width: 64, height: 36 });
    expect(requestRegions).toHaveBeenCalledTimes(1);
    masks.noteShown(TAB, { width: 64, height: 30 });
    expect(requestRegions).toHaveBeenCalledTimes(2);
    masks.update(TAB, report());
    masks.forgetShown(TAB); // a new debugger session: its first frame is a first frame again
    masks.noteShown(TAB, { width: 64, height: 30 });
    expect(requestRegions).toHaveBeenCalledTimes(3);
  });

  it('forgets every report when the capture level crosses frames, asking the pages again only when it rises', async () => {
    const { masks, requestRegions } = gate();
    masks.update(TAB, report());
    masks.forgetAllReports(false);
    expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
    expect(requestRegions).not.toHaveBeenCalled();
    masks.update(TAB, report());
    masks.forgetAllReports(true);
    expect(requestRegions).toHaveBeenCalledExactlyOnceWith(TAB);
  });

  describe('documents loaded in frames inside the page', () => {
    it('a new one makes the regions unknown and asks the top document; one seen before, or connecting again, does not', async () => {
      const { masks, requestRegions } = gate();
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, 'doc-1', false);
      expect(requestRegions).toHaveBeenCalledTimes(1);
      expect(await masks.prepare(TAB, IMAGE, Date.now())).toBeNull();
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, 'doc-1', false);
      masks.subframeLoaded(TAB, 'doc-2', true);
      masks.subframeLoaded(TAB, 'doc-2', false); // seen (when it connected again)
      expect(requestRegions).toHaveBeenCalledTimes(1);
      expect((await masks.prepare(TAB, IMAGE, Date.now()))?.masked).toBe(1);
    });

    it('one without an id always counts as new; nothing is asked below capture level screenshots, nor while unknown', () => {
      const { masks, requestRegions, state } = gate();
      masks.subframeLoaded(TAB, null, false); // unknown already
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, null, false);
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, null, false);
      expect(requestRegions).toHaveBeenCalledTimes(2);
      masks.update(TAB, report());
      state.recordsFrames = false;
      masks.subframeLoaded(TAB, 'doc-3', false);
      expect(requestRegions).toHaveBeenCalledTimes(2);
    });

    it('forgets the documents seen at a navigation and past 256 of them: each counts as new once more', () => {
      const { masks, requestRegions } = gate();
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, 'doc-0', false);
      masks.navigated(TAB);
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, 'doc-0', false);
      expect(requestRegions).toHaveBeenCalledTimes(2);
      for (let i = 1; i < 256; i++) masks.subframeLoaded(TAB, `doc-${i}`, true);
      masks.subframeLoaded(TAB, 'doc-256', true); // the 257th: the ones before are forgotten
      masks.update(TAB, report());
      masks.subframeLoaded(TAB, 'doc-0', false);
      expect(requestRegions).toHaveBeenCalledTimes(3);
    });
  });

  it('forgets a tab: its reports and when its latest frame was taken', async () => {
    const { masks } = gate();
    masks.update(TAB, report());
    await masks.prepare(TAB, IMAGE, Date.now());
    masks.forget(TAB);
    expect(masks.latestFrameAt(TAB)).toBeUndefined();
    expect(masks.update(TAB, report()).first).toBe(true);
  });
  it('labels a frame with the viewport of the report in force when it was taken, not of one that came while it waited', async () => {
    const { masks } = gate({ maskFrame: undefined });
    masks.update(TAB, regionsReport([]));
    const takenAt = Date.now();
    await vi.advanceTimersByTimeAsync(200);
    // The page zoomed to 200 % after the picture was taken: its later report describes later frames.
    masks.update(TAB, { ...regionsReport([]), viewport: { width: 32, height: 18 }, device_pixel_ratio: 2 });
    expect((await masks.prepare(TAB, IMAGE, takenAt))?.viewport).toEqual(VIEWPORT);
    expect((await masks.prepare(TAB, IMAGE, Date.now()))?.viewport).toEqual({ width: 32, height: 18, device_pixel_ratio: 2 });
  });
});
