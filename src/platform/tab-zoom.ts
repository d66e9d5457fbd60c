import { browser } from 'wxt/browser';

/**
 * Each tab's browser zoom, as `chrome.tabs` tells it: read once per tab when first asked (unknown
 * until the answer comes), then kept up to date by `chrome.tabs.onZoomChange`. The mask gate needs it
 * to place a page's regions on a frame of the tab's surface (see `MaskGatePorts.zoomOf`).
 */
export class TabZoom {
  private readonly zooms = new Map<number, number>();
  private readonly asking = new Set<number>();

  constructor(private readonly log: (message: string) => void) {
    // Registered at once: a worker started again hears the changes from its first task.
    browser.tabs.onZoomChange.addListener(({ tabId, newZoomFactor }) => {
      if (newZoomFactor > 0) this.zooms.set(tabId, newZoomFactor);
    });
    browser.tabs.onRemoved.addListener((tabId) => this.zooms.delete(tabId));
  }

  /** The tab's zoom factor (1 = 100 %), or undefined until it is known (it is asked for now). */
  of(tabId: number): number | undefined {
    const zoom = this.zooms.get(tabId);
    if (zoom === undefined && !this.asking.has(tabId)) {
      this.asking.add(tabId);
      browser.tabs
        .getZoom(tabId)
        .then((factor) => {
          if (factor > 0 && !this.zooms.has(tabId)) this.zooms.set(tabId, factor);
        })
        .catch((error: unknown) => this.log(`[afr] the zoom of tab ${tabId}: ${String(error)}`))
        .finally(() => this.asking.delete(tabId));
    }
    return zoom;
  }
}
