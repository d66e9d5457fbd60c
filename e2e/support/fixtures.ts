import { test as base } from '@playwright/test';
import { launchWithRecorder, type RecorderBrowser } from './launch';
import { startSiteServer, type SiteServer } from './site-server';

/**
 * `recorder`: a fresh Chromium profile with the built extension loaded (its service worker ready);
 * `site`: the demo shop served on loopback for the whole worker.
 */
export const test = base.extend<{ recorder: RecorderBrowser }, { site: SiteServer }>({
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
});

export { expect } from '@playwright/test';
