import { chromium } from 'playwright-core';
// In an agent harness: import { connectRecorder } from 'agent-flight-recorder/client';
import { connectRecorder } from '../src/client/index';

export interface QuickExampleOptions {
  /** The built extension: `.output/chrome-mv3`. */
  extensionDir: string;
  executablePath: string;
  /** A fresh profile directory (Chromium's `--user-data-dir`). */
  profileDir: string;
  /** Origin of the demo shop (`npm run demo` and the e2e tests serve it on 127.0.0.1). */
  shopUrl: string;
  /** Where the bundle zip goes. */
  outDir: string;
}

/**
 * The README's short Playwright example: launch Chromium with the recorder, place an order the demo
 * shop answers with HTTP 500, and save the bundle the recorder made of it. e2e/client.spec.ts runs it.
 */
export async function runQuickExample({ extensionDir, executablePath, profileDir, shopUrl, outDir }: QuickExampleOptions): Promise<string> {
  // #region docs
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, '--silent-debugger-extension-api'],
  });
  const rec = await connectRecorder(context);
  const page = await context.newPage();
  await page.goto(`${shopUrl}/checkout.html`);
  const since = Date.now();
  await page.click('#place-order'); // the demo shop answers HTTP 500: the recorder bundles it by itself
  const bundle = await rec.waitForBundle({ since, reason: 'http_5xx' });
  const zipPath = await rec.saveBundle(bundle.id, outDir); // <outDir>/<bundle id>.zip
  await context.close();
  // #endregion
  return zipPath;
}
