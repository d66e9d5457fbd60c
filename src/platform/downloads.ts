import type { DownloadOutcome } from '../bundle/download-check';
import { browser, type Browser } from 'wxt/browser';
import { downloadPath } from '../bundle/download-check';
import { bytesToBase64 } from '../shared/base64';

/**
 * Saves a bundle zip as `<downloads>/agent-flight-recorder/<bundleId>.zip`. A service worker has no
 * `URL.createObjectURL`, so the zip travels as a data URL.
 */
export async function downloadBundle(bundleId: string, zip: Uint8Array): Promise<number> {
  return browser.downloads.download({
    url: `data:application/zip;base64,${bytesToBase64(zip)}`,
    filename: downloadPath(bundleId),
    conflictAction: 'uniquify',
    saveAs: false,
  });
}

/** How long a bundle's download may take to end before it is no longer followed. */
const SETTLE_TIMEOUT_MS = 60_000;

/**
 * Resolves once the download has ended (`complete` or `interrupted`) with the path Chrome wrote, or to
 * null after `timeoutMs` (still in progress, or erased).
 */
export function settledDownload(downloadId: number, timeoutMs = SETTLE_TIMEOUT_MS): Promise<DownloadOutcome | null> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: DownloadOutcome | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      browser.downloads.onChanged.removeListener(onChanged);
      resolve(outcome);
    };
    const check = async () => {
      const [item] = await browser.downloads.search({ id: downloadId });
      if (item && item.state !== 'in_progress') finish({ state: item.state as DownloadOutcome['state'], filename: item.filename, error: item.error ?? null });
    };
    const onChanged = (delta: Browser.downloads.DownloadDelta) => {
      if (delta.id === downloadId && delta.state) void check().catch(() => finish(null));
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    browser.downloads.onChanged.addListener(onChanged);
    // It may have ended before the listener was added (a data URL is written at once).
    void check().catch(() => finish(null));
  });
}
