/** What Chrome tells about a tab, as far as the operator pages care. */
export interface TabInfo {
  id?: number;
  windowId: number;
  active: boolean;
  url?: string;
  title?: string;
  lastAccessed?: number;
}

/** A web page tab the operator can point a command at. */
export interface WebTab {
  tabId: number;
  url: string;
  title: string;
}

const isWebUrl = (url: string | undefined): url is string => url !== undefined && /^https?:/i.test(url);

/**
 * The http(s) tabs, the one the operator means first: the active tab of the last focused normal
 * window (where the popup was opened), then the others by most recent use. When an extension page is
 * the active tab there (the settings page in a tab), the most recently used web tab comes first.
 */
export function orderWebTabs(tabs: readonly TabInfo[], lastFocusedWindowId: number | null): WebTab[] {
  const web = tabs.filter((t): t is TabInfo & { id: number; url: string } => t.id !== undefined && isWebUrl(t.url));
  const rank = (t: TabInfo) => (t.active && t.windowId === lastFocusedWindowId ? 1 : 0);
  return [...web]
    .sort((a, b) => rank(b) - rank(a) || (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))
    .map((t) => ({ tabId: t.id, url: t.url, title: t.title ?? '' }));
}

/** The visible web tab of the last focused normal window, or null (no window, or not a web page). */
export function visibleWebTab(tabs: readonly TabInfo[], lastFocusedWindowId: number | null): WebTab | null {
  const tab = tabs.find((t) => t.active && t.windowId === lastFocusedWindowId);
  return tab?.id !== undefined && isWebUrl(tab.url) ? { tabId: tab.id, url: tab.url, title: tab.title ?? '' } : null;
}
