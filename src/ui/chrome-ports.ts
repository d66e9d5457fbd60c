import { browser } from 'wxt/browser';
import { createOperatorClient } from './operator-client';
import type { UiPorts } from './ports';
import { orderWebTabs, visibleWebTab, type TabInfo } from './tab-choice';

// The one file of src/ui that touches the browser's extension API: the operator pages' platform adapter.

async function webTabs(): Promise<{ tabs: TabInfo[]; focused: number | null }> {
  const [tabs, focused] = await Promise.all([
    browser.tabs.query({ windowType: 'normal' }),
    // Rejects when no normal window exists (a popup-only session).
    browser.windows.getLastFocused({ windowTypes: ['normal'] }).then(
      (w) => w.id ?? null,
      () => null,
    ),
  ]);
  return { tabs, focused };
}

/** `UiPorts` over `browser.runtime`, `browser.tabs` and `browser.windows`. */
export function chromeUiPorts(): UiPorts {
  return {
    call: createOperatorClient((message) => browser.runtime.sendMessage(message)),
    viewerUrl: (id) => browser.runtime.getURL(`/viewer.html?id=${encodeURIComponent(id)}`),
    pageUrl: (page) => browser.runtime.getURL(`/${page}`),
    listWebTabs: async () => {
      const { tabs, focused } = await webTabs();
      return orderWebTabs(tabs, focused);
    },
    visibleWebTab: async () => {
      const { tabs, focused } = await webTabs();
      return visibleWebTab(tabs, focused);
    },
    confirm: (question) => window.confirm(question),
    now: () => Date.now(),
  };
}
