import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
// In an agent harness: import { connectRecorder, connectRecorderPuppeteer } from 'agent-flight-recorder/client';
import { connectRecorder, connectRecorderPuppeteer } from '../src/client/index';
import type { RecorderStatus } from '../src/client/types';

/**
 * The "already running browser" example of docs/drivers/running-browser.md, Playwright: connect over `--remote-debugging-port`,
 * open a page that throws, and save the bundle the recorder makes of it. Leaves the browser running.
 */
export async function bundleFromRunningBrowser(browserURL: string, { appUrl, outDir }: { appUrl: string; outDir: string }): Promise<string | null> {
  // #region docs
  const browser = await chromium.connectOverCDP(browserURL);
  // The extension runs in the browser's default context: a context from browser.newContext() is
  // incognito-like, has no recorder, and the recorder does not see its tabs.
  const context = browser.contexts()[0]!;
  const rec = await connectRecorder(context);
  const known = new Set((await rec.bundles()).map((b) => b.id));

  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${appUrl}/late-error.html`);
  // The page throws; the recorder bundles the failure by itself. Wait until the bundle is listed.
  let bundleId: string | undefined;
  for (let tries = 0; !bundleId && tries < 60; tries++) {
    await page.waitForTimeout(500);
    bundleId = (await rec.bundles()).find((b) => !known.has(b.id))?.id;
  }
  const zipPath = bundleId ? await rec.saveBundle(bundleId, outDir) : null; // <outDir>/<bundleId>.zip
  await browser.close(); // only disconnects: a browser Playwright did not launch keeps running
  // #endregion
  return zipPath;
}

/** The "already running browser" example of docs/drivers/running-browser.md, Puppeteer: connect and read the recorder's status. */
export async function statusFromRunningBrowser(browserURL: string): Promise<RecorderStatus> {
  // #region docs
  const browser = await puppeteer.connect({ browserURL, defaultViewport: null });
  const rec = await connectRecorderPuppeteer(browser);
  const status = await rec.status(); // { recording: true, tabs: [...], frames, bundles, ... }
  await browser.disconnect(); // the browser keeps running
  // #endregion
  return status;
}
