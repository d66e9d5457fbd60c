import type { ToContentMessage } from '../../schemas/messages';

/**
 * Asks the content script of a tab's top frame to report its sensitive regions now. Fire and forget:
 * a page without the content script (or still loading) reports by itself when it can.
 */
export function requestRegionsReport(tabId: number): void {
  const message: ToContentMessage = { type: 'redaction/report' };
  chrome.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => undefined);
}
