import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { launchWithRecorder, type RecorderBrowser } from './launch';
import { startSiteServer, type SiteServer } from './site-server';

/**
 * `recorder`: a fresh Chromium profile with the built extension loaded (its service worker ready);
 * `tempDir()`: a new empty directory, removed with all the test's others when the test ends (after its
 * `afterEach` hooks, which stop what still writes there);
 * `site`: the demo shop served on loopback for the whole worker.
 */
export const test = base.extend<{ recorder: RecorderBrowser; tempDir: () => string }, { site: SiteServer }>({
  site: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSiteServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern
  recorder: async ({}, use) => {
    const browser = await launchWithRecorder();
    await use(browser);
    await browser.close();
  },
  // eslint-disable-next-line no-empty-pattern
  tempDir: async ({}, use) => {
    const made: string[] = [];
    await use(() => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-e2e-'));
      made.push(dir);
      return dir;
    });
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
