import { createOperatorClient } from './operator-client';
import type { UiPorts } from './ports';
import { orderWebTabs, visibleWebTab, type TabInfo } from './tab-choice';

// The one file of src/ui that touches chrome.*: the operator pages' platform adapter.

async function webTabs(): Promise<{ tabs: TabInfo[]; focused: number | null }> {
  const [tabs, focused] = await Promise.all([
    chrome.tabs.query({ windowType: 'normal' }),
    // Rejects when no normal window exists (a popup-only session).
    chrome.windows.getLastFocused({ windowTypes: ['normal'] }).then(
      (w) => w.id ?? null,
      () => null,
    ),
  ]);
  return { tabs, focused };
}

/** `UiPorts` over `chrome.runtime`, `chrome.tabs` and `chrome.windows`. */
export function chromeUiPorts(): UiPorts {
  return {
    call: createOperatorClient((message) => chrome.runtime.sendMessage(message)),
    viewerUrl: (id) => chrome.runtime.getURL(`viewer.html?id=${encodeURIComponent(id)}`),
    pageUrl: (page) => chrome.runtime.getURL(page),
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
