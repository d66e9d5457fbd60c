import type { DownloadsStatus } from '../../schemas/api';
import type { DownloadBundle } from './download-sink';

/** Where the recorder asks Chrome to save a bundle, relative to the browser's download folder. */
export const downloadPath = (bundleId: string): string => `agent-flight-recorder/${bundleId}.zip`;

/** How a download ended, as `chrome.downloads.search({ id })` reports it. */
export interface DownloadOutcome {
  state: 'complete' | 'interrupted';
  /** The absolute path Chrome wrote (empty when it wrote nothing). */
  filename: string;
  /** Chrome's interrupt reason (`USER_CANCELED`, `FILE_NO_SPACE`…), else null. */
  error: string | null;
}

/** Resolves once the download has ended, or to null when it has not ended within the wait (platform: `chrome.downloads`). */
export type SettledDownload = (downloadId: number) => Promise<DownloadOutcome | null>;

const KEEP_THEM =
  'The bundle is still stored in the extension: keep it with the client (rec.waitForBundle, rec.saveBundle) or afr.exportBundle.';

/**
 * Whether a finished download is where the docs say bundles go (docs/drivers/where-bundles-go.md).
 * Under Playwright, Chrome's downloads are taken over by the driver (CDP `Browser.setDownloadBehavior`):
 * the file is written as
 * `<Playwright's artifacts folder or downloadsPath>/<uuid>`, without `.zip`, and the artifacts folder
 * is deleted when the browser closes. Measured on Chromium 156: `filename` was
 * `/tmp/playwright-artifacts-XXXX/<uuid>`; with `acceptDownloads: false` the download is
 * `interrupted` with `USER_CANCELED`. Puppeteer, by default, leaves Chrome's own folder.
 */
export function judgeDownload(bundleId: string, outcome: DownloadOutcome): DownloadsStatus {
  const requested = downloadPath(bundleId);
  const base = { lastBundleId: bundleId, lastPath: outcome.filename || null, state: outcome.state, error: outcome.error };
  if (outcome.state === 'interrupted') {
    return {
      ...base,
      managedByDriver: false,
      hint:
        `Chrome did not save bundle ${bundleId} (${outcome.error ?? 'interrupted'}). A driver that refuses downloads ` +
        `(Playwright acceptDownloads: false, Puppeteer downloadBehavior deny) cancels them. ${KEEP_THEM}`,
    };
  }
  if (savedAsRequested(outcome.filename, bundleId)) return { ...base, managedByDriver: false, hint: null };
  return {
    ...base,
    managedByDriver: true,
    hint:
      `Chrome saved bundle ${bundleId} as ${outcome.filename}, not <downloads>/${requested}: the browser's downloads ` +
      'are managed by the driver (Playwright writes them under a uuid name into a temporary folder it deletes when ' +
      `the browser closes). ${KEEP_THEM}`,
  };
}

/** `…/agent-flight-recorder/<id>.zip`, or `<id> (1).zip` when Chrome made the name unique. */
function savedAsRequested(filename: string, bundleId: string): boolean {
  const parts = filename.replace(/\\/g, '/').split('/');
  const name = parts.at(-1) ?? '';
  const folder = parts.at(-2);
  return folder === 'agent-flight-recorder' && (name === `${bundleId}.zip` || (name.startsWith(`${bundleId} (`) && name.endsWith(').zip')));
}

/** Nothing downloaded since the service worker started. */
export const NO_DOWNLOAD: DownloadsStatus = { lastBundleId: null, lastPath: null, state: null, error: null, managedByDriver: false, hint: null };

/**
 * Follows the recorder's downloads: each one is checked once it has ended (without holding up the
 * caller), the last verdict is what `status().downloads` shows, and the first download the driver
 * took over (and the first one interrupted) is logged as a warning, once per service worker.
 */
export class DownloadCheck {
  private last: DownloadsStatus = NO_DOWNLOAD;
  /** Kinds of trouble already logged (`managed`, `interrupted`). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly settled: SettledDownload,
    private readonly log: (message: string) => void,
  ) {}

  /** The verdict on the latest download that ended. */
  status(): DownloadsStatus {
    return this.last;
  }

  /** `download`, whose downloads are checked once they end. */
  checked(download: DownloadBundle): DownloadBundle {
    return async (bundleId, zip) => {
      const downloadId = await download(bundleId, zip);
      void this.follow(bundleId, downloadId);
      return downloadId;
    };
  }

  /** Waits for the download to end and records the verdict. */
  async follow(bundleId: string, downloadId: number): Promise<void> {
    try {
      const outcome = await this.settled(downloadId);
      if (outcome) this.record(bundleId, outcome);
    } catch (error) {
      this.log(`[afr] download ${downloadId} of ${bundleId} not checked: ${String(error)}`);
    }
  }

  record(bundleId: string, outcome: DownloadOutcome): void {
    this.last = judgeDownload(bundleId, outcome);
    const kind = this.last.managedByDriver ? 'managed' : outcome.state === 'interrupted' ? 'interrupted' : null;
    if (kind && !this.warned.has(kind)) {
      this.warned.add(kind);
      this.log(`[afr] ${kind === 'managed' ? 'downloaded bundles will not last' : 'bundle not downloaded'}: ${this.last.hint}`);
    }
  }
}
