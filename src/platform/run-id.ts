import { browser } from 'wxt/browser';

/**
 * The id of this browser session's recording run. Kept in `chrome.storage.session` so it survives
 * service worker restarts but not a browser restart; `newBrowserSession` when it was just made (the
 * worker's first start since the browser started, or since the extension was loaded).
 */
export async function loadRunId(): Promise<{ runId: string; newBrowserSession: boolean }> {
  const stored = (await browser.storage.session.get('runId'))['runId'];
  if (typeof stored === 'string') return { runId: stored, newBrowserSession: false };
  const runId = `run-${crypto.randomUUID()}`;
  await browser.storage.session.set({ runId });
  return { runId, newBrowserSession: true };
}
