import type { BundleSink, BundleStore } from './ports';

/** Saves the zip to the user's downloads; resolves to the download id (`chrome.downloads` in production). */
export type DownloadBundle = (bundleId: string, zip: Uint8Array) => Promise<number>;

/**
 * With `autoDownload` on, saves each new bundle to the downloads folder and notes the download on its
 * summary. Never a bundle a page's command triggered: a page must not write files to the user's disk
 * (the operator can still download it from the library). A signal's bundle is downloaded with or
 * without an agent run: it is what an agent that declares no run relies on, and its quota bounds it.
 */
export function autoDownloadSink(bundles: BundleStore, download: DownloadBundle): BundleSink {
  return {
    name: 'download',
    async afterStore({ summary, zip }, { settings }) {
      if (!settings.autoDownload || summary.trigger === 'page') return;
      // Noted on the summary the caller holds as well as in the store.
      summary.downloadId = await download(summary.id, zip);
      await bundles.setDownloadId(summary.id, summary.downloadId);
    },
  };
}
