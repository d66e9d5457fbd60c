import type { CaptureTarget, CapturedImage, Capturer } from '../capture/ports';
import { tabSurface } from '../capture/tab-surface';
import { browser } from 'wxt/browser';
import { dataUrlToBytes } from '../shared/base64';
import { readJpegSize } from '../shared/jpeg-size';
import type { TextMasker } from '../redact/mask-text';
import { redactUrl } from '../redact/redact-url';

/** Pages `captureVisibleTab` may capture with `<all_urls>`; chrome://, the web store and others refuse. */
export function isCapturableUrl(url: string | undefined): boolean {
  return url !== undefined && /^(https?|file):/i.test(url);
}

/** `Capturer` over `chrome.tabs.captureVisibleTab`: the active tab of every normal, visible window. */
export class VisibleTabCapturer implements Capturer {
  /** `masker` gives the masker of the settings in force, for the tabs' URLs. */
  constructor(private readonly masker: () => TextMasker) {}

  async listTargets(): Promise<CaptureTarget[]> {
    const windows = await browser.windows.getAll({ populate: true, windowTypes: ['normal'] });
    const targets: CaptureTarget[] = [];
    for (const win of windows) {
      // A minimized window never answers captureVisibleTab.
      if (win.state === 'minimized' || win.id === undefined) continue;
      const tab = win.tabs?.find((t) => t.active);
      if (tab?.id === undefined || !isCapturableUrl(tab.url)) continue;
      targets.push({ tabId: tab.id, windowId: win.id, url: tab.url ? redactUrl(tab.url, this.masker()) : null });
    }
    return targets;
  }

  /**
   * The window's visible tab, as a JPEG. Throws when the window shows another tab than `target` once
   * the picture is taken: it may be of that tab, and would be masked with the regions of this one.
   */
  async capture(target: CaptureTarget, jpegQuality: number): Promise<CapturedImage> {
    const dataUrl = await browser.tabs.captureVisibleTab(target.windowId, { format: 'jpeg', quality: jpegQuality });
    const [shown] = await browser.tabs.query({ active: true, windowId: target.windowId });
    if (shown?.id !== target.tabId) throw new Error('the window switched tabs during the capture: frame dropped');
    const jpeg = dataUrlToBytes(dataUrl);
    const size = readJpegSize(jpeg);
    if (!size) throw new Error('captureVisibleTab returned an image that is not a readable JPEG');
    // The tab's size (DIPs) is the surface the picture shows, whatever viewport a driver emulates in it,
    // when the picture has its shape (see `tabSurface`).
    const surface = tabSurface(shown, size);
    return { jpeg, width: size.width, height: size.height, ...(surface ? { shown: surface } : {}) };
  }
}
