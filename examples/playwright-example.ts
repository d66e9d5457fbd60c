import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
// In an agent harness: import { connectRecorder } from 'agent-flight-recorder/client';
import { connectRecorder } from '../src/client/index';

/** How to launch Chromium with the recorder when `runExample` is not handed a context. */
export interface ExampleLaunchOptions {
  /** The built extension: `.output/chrome-mv3`. */
  extensionDir: string;
  executablePath?: string;
  headless?: boolean;
  /** Extra Chromium flags (`--no-sandbox` when running as root). */
  args?: string[];
}

export interface ExampleTask {
  /** Origin of the demo shop (`npm run demo` and the e2e tests serve it on 127.0.0.1). */
  shopUrl: string;
  /** Where the bundle zip goes. */
  outDir: string;
}

export interface ExampleResult {
  runId: string;
  bundleId: string | null;
  zipPath: string | null;
}

async function launch({ extensionDir, executablePath = '/usr/bin/chromium', headless = true, args = [] }: ExampleLaunchOptions) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-example-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless,
    // --silent-debugger-extension-api: no "started debugging" infobar, which would take the bottom of
    // the page out of every frame (Playwright sizes the window to the viewport).
    args: [...args, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, '--silent-debugger-extension-api'],
  });
  return { context, close: () => context.close().finally(() => rmSync(profile, { recursive: true, force: true })) };
}

/**
 * The Playwright example of docs/drivers/playwright.md: an agent run on the demo shop whose last check fails; the recorder
 * bundles the failure and the harness saves the zip. Runs in a given context, or launches (and closes)
 * its own.
 */
export async function runExample(contextOrOptions: BrowserContext | ExampleLaunchOptions, { shopUrl, outDir }: ExampleTask): Promise<ExampleResult> {
  const launched = 'serviceWorkers' in contextOrOptions ? null : await launch(contextOrOptions);
  const context = launched?.context ?? (contextOrOptions as BrowserContext);
  try {
    // #region docs
    const rec = await connectRecorder(context);
    const runId = await rec.runStart({ agent: 'shop-bot', agentVersion: '1.4.0', task: 'put shoes and a jacket in the cart, then check out' });

    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${shopUrl}/index.html`);
    await page.click('[data-testid="add-shoes"]');
    await rec.step({ action: 'click "Add to cart" on Trail Shoes', target: '[data-testid="add-shoes"]', outcome: 'ok', goal: 'shoes in the cart' });
    await page.click('[data-testid="add-jacket"]');
    await rec.step({ action: 'click "Add to cart" on Rain Jacket', target: '[data-testid="add-jacket"]', outcome: 'ok', goal: 'jacket in the cart' });
    const count = await page.textContent('#cart-count');
    await rec.assert({ label: 'the cart holds 2 items', passed: count === '2', expected: '2', actual: String(count) });

    await page.click('#cart-link');
    await page.waitForURL('**/checkout.html');
    await rec.step({ action: 'open the cart', target: '#cart-link', outcome: 'ok', reasoning: 'both items are in; the summary comes next' });
    const hasSummary = (await page.locator('#order-summary').count()) > 0;
    // A failed check makes a bundle: `bundleId` is its id (null when the check passed).
    const bundleId = await rec.assert({
      label: 'checkout shows the order summary',
      passed: hasSummary,
      expected: '#order-summary on the page',
      actual: hasSummary ? '#order-summary on the page' : 'no #order-summary',
    });
    const zipPath = bundleId ? await rec.saveBundle(bundleId, outDir) : null; // <outDir>/<bundleId>.zip
    await rec.runEnd({ outcome: bundleId ? 'failed' : 'passed' });
    // #endregion
    return { runId, bundleId, zipPath };
  } finally {
    await launched?.close();
  }
}
