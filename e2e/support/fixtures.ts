import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { BrowserPool } from './browser-pool';
import type { RecorderBrowser } from './launch';
import { startSiteServer, type SiteServer } from './site-server';

/**
 * `recorder`: a fresh Chromium profile with the built extension loaded (its service worker ready),
 * launched while the test before ran (`BrowserPool`);
 * `tempDir()`: a new empty directory, removed with all the test's others when the test ends (after its
 * `afterEach` hooks, which stop what still writes there);
 * `site`: the demo shop served on loopback for the whole worker.
 */
export const test = base.extend<{ recorder: RecorderBrowser; tempDir: () => string }, { site: SiteServer; browserPool: BrowserPool }>({
  site: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSiteServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  browserPool: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const pool = new BrowserPool();
      await use(pool);
      await pool.close();
    },
    { scope: 'worker' },
  ],
  recorder: async ({ browserPool }, use) => {
    const browser = await browserPool.take();
    await use(browser);
    // The next test's browser starts while this one closes, and both are over before the next test
    // begins: a launch during a test took the CPU from the capture that the test times (a burst seen
    // by captureVisibleTab, fields masked while they slide). The next test may also launch its own
    // browser, or write a managed policy that every Chromium starting meanwhile would read
    // (fleet-install.spec.ts).
    browserPool.closeLater(browser);
    browserPool.launchSpare();
    await browserPool.settled();
  },
  // eslint-disable-next-line no-empty-pattern
  tempDir: async ({}, use) => {
    const made: string[] = [];
    await use(() => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-e2e-'));
      made.push(dir);
      return dir;
    });
    for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  },
});

export { expect } from '@playwright/test';
