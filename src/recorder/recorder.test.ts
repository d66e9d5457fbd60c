import { describe, expect, it, vi } from 'vitest';
import { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';
import { origin, setupRecorder, stepMessage, T0 } from '../../test/fakes/recorder';

describe('Recorder: start-up', () => {
  it('handles the events that woke the worker once the pause and settings are loaded, not with the defaults', async () => {
    const sessionStore = new MemoryKeyValueStore();
    await sessionStore.set('paused', true);
    const { recorder, afr, ports } = setupRecorder({ sessionStore });
    // No start yet: the event that woke the worker comes first.
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, () => null);
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.bundles.list()).toEqual([]);
    expect(await ports.stepLog.between(7, 0, T0 + 1)).toEqual([]);
    expect((await afr.status()).paused).toBe(true);
    recorder.loop.stop();
  });

  it('keeps the frames of a window through the after-failure tail: the ring holds bufferSeconds + postFailureSeconds and some', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ bufferSeconds: 15, postFailureSeconds: 2 });
    recorder.loop.stop();
    const meta = (ts: number) => ({ ts, size: 3, tabId: 9, windowId: 1, url: null, width: 4, height: 4 });
    await ports.ring.add(meta(clock.t), new Uint8Array(3));
    await ports.ring.add(meta(clock.t + 500), new Uint8Array(3));
    // 16.5 s later (a signal at 15 s, its tail, the failure's frame): the window's first frames are still there.
    clock.t += 16_500;
    await ports.ring.add(meta(clock.t), new Uint8Array(3));
    expect((await ports.ring.frames()).filter((f) => f.tabId === 9)).toHaveLength(3);
  });

  it('starts though deleting old bundles fails, and logs it', async () => {
    const bundles = new MemoryBundleStore();
    vi.spyOn(bundles, 'list').mockRejectedValueOnce(new Error('bundle store refused'));
    const { recorder, ports, log } = setupRecorder({ bundles });
    await recorder.start();
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.stepLog.between(7, 0, T0 + 1)).toHaveLength(1);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringMatching(/old bundles not deleted: .*bundle store refused/)));
    recorder.loop.stop();
  });

  it('loads the ring with the stored settings: frames a longer window keeps are not evicted on a restart', async () => {
    const store = new MemoryFrameStore();
    const clock = { t: T0, now() { return this.t; } };
    const meta = (ts: number) => ({ ts, size: 3, tabId: 9, windowId: 1, url: null, width: 4, height: 4 });
    await store.add(meta(T0 - 40_000), new Uint8Array(3));
    await store.add(meta(T0 - 39_000), new Uint8Array(3));
    const settingsStore = new SettingsStore(new MemoryKeyValueStore(), vi.fn());
    await settingsStore.load();
    await settingsStore.update({ bufferSeconds: 60 });
    // The worker builds its ring with the default limits (15 s); its start applies the user's 60 s first.
    const ring = new FrameRing(store, clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    const { recorder } = setupRecorder({ clock, ring, settingsStore });
    await recorder.start();
    recorder.loop.stop();
    expect((await ring.frames()).map((f) => f.ts)).toEqual([T0 - 40_000, T0 - 39_000]);
  });

  it('tries a start that failed again (storage refused once)', async () => {
    const store = new MemoryFrameStore();
    const listMeta = vi.spyOn(store, 'listMeta').mockRejectedValueOnce(new Error('Internal error opening backing store'));
    const { recorder, ports, clock } = setupRecorder({ ring: new FrameRing(store, { now: () => T0 }, { maxAgeMs: 15_000, maxBytes: 1 << 20 }) });
    await expect(recorder.start()).rejects.toThrow(/backing store/);
    await recorder.start();
    expect(listMeta).toHaveBeenCalledTimes(2);
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.stepLog.between(7, 0, clock.t + 1)).toHaveLength(1);
    recorder.loop.stop();
  });

  it('capture level below screenshots stops frame capture; raising it mid-run starts it again', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    expect(recorder.loop.isRunning).toBe(true);
    await afr.configure({ captureLevel: 'metadata' });
    expect(recorder.loop.isRunning).toBe(false);
    expect((await afr.status()).captureLevel).toBe('metadata');
    await afr.configure({ captureLevel: 'full' });
    expect(recorder.loop.isRunning).toBe(true);
    recorder.loop.stop();
  });
});

describe('Recorder: frames inside the page', () => {
  it("a frame of the page loading a document makes the tab's regions unknown until the top reports again, and asks it to, once per document", async () => {
    const requestRegions = vi.fn();
    const { recorder, afr } = setupRecorder({ requestRegions });
    await recorder.start();
    await afr.configure({ captureLevel: 'full' });
    const rects = { type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 1280, height: 720 }, device_pixel_ratio: 1, rects: [] };
    await recorder.handleMessage(rects, origin);
    // Its content script connected: the frame (perhaps of another origin) has a new document.
    recorder.handleFrameConnected(7, 3, 'doc-a');
    expect(requestRegions).toHaveBeenCalledWith(7);
    // The same document connecting again (after a worker restart), or the top document, asks nothing.
    requestRegions.mockClear();
    await recorder.handleMessage(rects, origin);
    recorder.handleFrameConnected(7, 3, 'doc-a');
    recorder.handleFrameConnected(7, 0, 'doc-top');
    expect(requestRegions).not.toHaveBeenCalled();
    // Another document in that frame does.
    recorder.handleFrameConnected(7, 3, 'doc-b');
    expect(requestRegions).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });

  it("a frame's document connecting again after a worker restart leaves the regions the top reported since", async () => {
    const requestRegions = vi.fn();
    const { recorder, afr } = setupRecorder({ requestRegions });
    await recorder.start();
    await afr.configure({ captureLevel: 'full' });
    // The new worker: the top reported when its port was dropped, then a frame's port connects again.
    await recorder.handleMessage({ type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 1280, height: 720 }, device_pixel_ratio: 1, rects: [] }, origin);
    recorder.handleFrameConnected(7, 3, 'doc-a', true);
    expect(requestRegions).not.toHaveBeenCalled(); // (asked whenever they are forgotten)
    // Its later connections are of a document seen; another document in the frame is new.
    recorder.handleFrameConnected(7, 3, 'doc-a');
    recorder.handleFrameConnected(7, 3, 'doc-b');
    expect(requestRegions).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });
});
