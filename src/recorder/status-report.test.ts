import { describe, expect, it, vi } from 'vitest';
import { setupRecorder } from '../../test/fakes/recorder';

describe('statusReport', () => {
  it('reports status: recording, frames, bytes and the run', async () => {
    const { recorder, afr } = setupRecorder();
    await recorder.start();
    await vi.waitFor(async () => expect((await afr.status()).frames).toBeGreaterThan(0));
    const status = await afr.status();
    expect(status).toMatchObject({ recording: true, runId: 'run-test', version: '0.1.0', tabs: [{ tabId: 7, windowId: 1, debugger: false }] });
    expect(status.bytes).toBeGreaterThan(0);
    recorder.loop.stop();
  });

  it('says when frames show less than the page\u2019s viewport, and names the switch that fixes it', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    expect((await afr.status()).viewportCut).toBeNull();
    const frame = { tabId: 7, windowId: 1, url: 'https://shop.test/', ts: clock.now(), size: 3, width: 1280, masked: 0 };
    await ports.ring.add({ ...frame, height: 720, viewport: { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1 } }, new Uint8Array(3));
    expect((await afr.status()).viewportCut).toBeNull();
    const shown = { width: 1280, height: 577 };
    await ports.ring.add({ ...frame, height: 577, viewport: { width: 1280, height: 720, device_pixel_ratio: 1, image_scale: 1, shown } }, new Uint8Array(3));
    const cut = (await afr.status()).viewportCut;
    expect(cut).toMatchObject({ frames: 1, tabId: 7, viewport: { width: 1280, height: 720 }, shown });
    expect(cut?.warning).toMatch(/^1 of 2 frames show 1280×577 .* the bottom 143 px are not recorded\. .*--silent-debugger-extension-api/);
    recorder.loop.stop();
  });

  it('says when a bundle is being made, and when recording is paused', async () => {
    let finishTail: () => void = () => undefined;
    const tail = new Promise<void>((resolve) => (finishTail = resolve));
    const { recorder, afr, operator } = setupRecorder({ sleep: () => tail });
    await recorder.start();
    await afr.configure({ postFailureSeconds: 1 });
    const bundled = afr.fail({ tabId: 7, reason: 'agent_failure' });
    await vi.waitFor(async () => expect((await afr.status()).packaging).toBe(true));
    finishTail();
    await bundled;
    expect(await afr.status()).toMatchObject({ packaging: false, bundles: 1, paused: false });
    await operator.pause();
    expect((await afr.status()).paused).toBe(true);
    recorder.loop.stop();
  });
});
