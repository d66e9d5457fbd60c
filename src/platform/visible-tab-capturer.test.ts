import { afterEach, describe, expect, it, vi } from 'vitest';
import { VisibleTabCapturer } from './visible-tab-capturer';
import { BUILT_IN_MASKER } from '../redact/mask-text';

// `wxt/browser` is Chrome's own `chrome` in the extension: here, the `chrome` each test stubs.
vi.mock('wxt/browser', () => ({
  get browser() {
    return globalThis.chrome;
  },
}));

/** A 1×1 baseline JPEG's start: enough for its size to be read. */
const JPEG_1x1 = Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9]);
const dataUrl = `data:image/jpeg;base64,${Buffer.from(JPEG_1x1).toString('base64')}`;

function stubChrome(activeTabIds: number[]) {
  const query = vi.fn(async () => [{ id: activeTabIds.shift() }]);
  vi.stubGlobal('chrome', { tabs: { captureVisibleTab: vi.fn(async () => dataUrl), query } });
  return query;
}

afterEach(() => vi.unstubAllGlobals());

describe('VisibleTabCapturer.capture', () => {
  it("returns the window's picture when it still shows the target tab", async () => {
    const query = stubChrome([7]);
    const image = await new VisibleTabCapturer(() => BUILT_IN_MASKER).capture({ tabId: 7, windowId: 1, url: null }, 70);
    expect(image).toMatchObject({ width: 1, height: 1 });
    expect(query).toHaveBeenCalledWith({ active: true, windowId: 1 });
  });

  it('refuses a picture taken while the window switched to another tab: it would be masked with the wrong regions', async () => {
    stubChrome([8]);
    await expect(new VisibleTabCapturer(() => BUILT_IN_MASKER).capture({ tabId: 7, windowId: 1, url: null }, 70)).rejects.toThrow(/switched tabs/);
  });
});
