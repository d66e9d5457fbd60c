import type { Page } from 'playwright-core';
import type { RecorderBrowser } from './launch';

/**
 * Opens popup.html in a popup-type window, as Chrome shows the action popup: the page the agent drives
 * stays the visible tab of its normal window, so it is still captured and is the "visible tab" to save.
 */
export async function openPopup(recorder: RecorderBrowser): Promise<Page> {
  const opened = recorder.context.waitForEvent('page', (p) => p.url().endsWith('/popup.html'));
  await recorder.worker.evaluate(async () => {
    await chrome.windows.create({ url: chrome.runtime.getURL('popup.html'), type: 'popup', width: 420, height: 760 });
  });
  const popup = await opened;
  await popup.setViewportSize({ width: 400, height: 760 });
  return popup;
}
