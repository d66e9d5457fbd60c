import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { EXTENSION_DIR, launchWithRecorder, type RecorderBrowser } from './launch';

/** The recorder on a nearly full disk, and the tab whose DevTools session set the quota. */
export interface QuotaLimitedRecorder {
  recorder: RecorderBrowser;
  page: Page;
  /** Closes the browser and removes the copy of the build. */
  close(): Promise<void>;
}

/**
 * A full disk. The extension asks for `unlimitedStorage`, so Chromium only refuses its writes when the
 * disk itself is nearly full; this copy of the build goes without it, and the DevTools protocol gives
 * its origin `quotaSize` bytes (600 KB: about 4 s of frames at 8 fps). IndexedDB then refuses writes,
 * and keeps refusing after the recorder deletes records (its files shrink only when compacted).
 */
export async function launchWithStorageQuota(quotaSize = 600_000): Promise<QuotaLimitedRecorder> {
  const extensionDir = mkdtempSync(path.join(os.tmpdir(), 'afr-quota-ext-'));
  cpSync(EXTENSION_DIR, extensionDir, { recursive: true });
  const manifestPath = path.join(extensionDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { permissions: string[] };
  manifest.permissions = manifest.permissions.filter((p) => p !== 'unlimitedStorage');
  writeFileSync(manifestPath, JSON.stringify(manifest));
  const removeCopy = () => rmSync(extensionDir, { recursive: true, force: true });
  let recorder: RecorderBrowser | undefined;
  try {
    recorder = await launchWithRecorder({ extensionDir });
    const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
    const cdp = await recorder.context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: `chrome-extension://${recorder.extensionId}`, quotaSize });
    const launched = recorder;
    return {
      recorder: launched,
      page,
      close: async () => {
        await launched.close();
        removeCopy();
      },
    };
  } catch (error) {
    await recorder?.close();
    removeCopy();
    throw error;
  }
}
