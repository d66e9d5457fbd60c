import { SensitiveRectsMessageSchema, type SensitiveRectsMessage, type ToContentMessage } from '../../schemas/messages';
import { browser } from 'wxt/browser';

/**
 * Asks the content script of a tab's top frame to report its sensitive regions now. Fire and forget:
 * a page without the content script (or still loading) reports by itself when it can.
 */
export function requestRegionsReport(tabId: number): void {
  const message: ToContentMessage = { type: 'redaction/report' };
  browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => undefined);
}

/**
 * Asks the content script of a tab's top frame for its sensitive regions as of its next animation
 * frame but one (`redaction/sync`). Resolves with that report, or null when there is none (no content
 * script, the page has not painted); rejects when the answer is not a valid report.
 */
export async function syncRegionsReport(tabId: number): Promise<SensitiveRectsMessage | null> {
  const message: ToContentMessage = { type: 'redaction/sync' };
  const answer: unknown = await browser.tabs.sendMessage(tabId, message, { frameId: 0 }).catch(() => null);
  if (answer === null || answer === undefined) return null;
  const parsed = SensitiveRectsMessageSchema.safeParse(answer);
  if (!parsed.success) throw new Error(`invalid regions report: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}
