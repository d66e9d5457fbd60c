import { describe, expect, it } from 'vitest';
import { orderWebTabs, visibleWebTab, type TabInfo } from './tab-choice';

const tabs: TabInfo[] = [
  { id: 1, windowId: 10, active: false, url: 'https://a.test/', title: 'A', lastAccessed: 100 },
  { id: 2, windowId: 10, active: true, url: 'chrome-extension://x/options.html', title: 'Settings', lastAccessed: 400 },
  { id: 3, windowId: 20, active: true, url: 'http://b.test/', title: 'B', lastAccessed: 150 },
  { id: 4, windowId: 20, active: false, url: 'https://c.test/', title: 'C', lastAccessed: 200 },
  { id: 5, windowId: 20, active: false, url: 'chrome://newtab/', lastAccessed: 500 },
  { windowId: 20, active: false, url: 'https://no-id.test/' },
];

describe('orderWebTabs', () => {
  it('puts the active web tab of the last focused window first, then by recent use', () => {
    expect(orderWebTabs(tabs, 20).map((t) => t.tabId)).toEqual([3, 4, 1]);
  });
  it('without a web page active there, orders by recent use only', () => {
    expect(orderWebTabs(tabs, 10).map((t) => t.tabId)).toEqual([4, 3, 1]);
    expect(orderWebTabs(tabs.filter((t) => t.id !== 3), null)).toEqual([
      { tabId: 4, url: 'https://c.test/', title: 'C' },
      { tabId: 1, url: 'https://a.test/', title: 'A' },
    ]);
  });
});

describe('visibleWebTab', () => {
  it.each([
    [20, 3],
    [10, null],
    [null, null],
    [99, null],
  ])('window %s → tab %s', (windowId, tabId) => expect(visibleWebTab(tabs, windowId)?.tabId ?? null).toBe(tabId));
});
