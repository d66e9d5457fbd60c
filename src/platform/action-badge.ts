import { browser } from 'wxt/browser';
import type { ActionBadge, Badge } from '../toolbar/ports';

/**
 * The toolbar button's badge through `browser.action`: text, background, white text, tooltip. A call
 * with a `tabId` sets that tab's own values, which win over the shared ones until the tab navigates.
 */
export const chromeActionBadge: ActionBadge = {
  async set(tabId: number | null, badge: Badge): Promise<void> {
    const tab = tabId === null ? {} : { tabId };
    await Promise.all([
      browser.action.setBadgeText({ ...tab, text: badge.text }),
      browser.action.setBadgeBackgroundColor({ ...tab, color: badge.color }),
      browser.action.setBadgeTextColor({ ...tab, color: '#ffffff' }),
      browser.action.setTitle({ ...tab, title: badge.title }),
    ]);
  },
};
