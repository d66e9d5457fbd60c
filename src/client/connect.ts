import type { PlaywrightContextLike, PuppeteerBrowserLike } from './ports';
import type { RecorderClient } from './recorder-client';
import { openRecorderClient } from './recorder-client';
import { playwrightSource, puppeteerSource } from './sources';

export interface ConnectOptions {
  /** How long to wait for the recorder's service worker, at connection and after a restart. Default 15 000 ms. */
  timeoutMs?: number;
  /** Only this extension's worker (useful when several copies of the recorder are loaded). */
  extensionId?: string;
}

const DEFAULT_TIMEOUT_MS = 15_000;

const withDefaults = ({ timeoutMs = DEFAULT_TIMEOUT_MS, extensionId }: ConnectOptions) => ({ timeoutMs, extensionId });

/**
 * Connects to the recorder in a Playwright `BrowserContext` launched with the extension: finds its
 * service worker (`chrome-extension://<id>/background.js` exposing `globalThis.afr`) among the
 * context's workers, waiting for it if it is not up yet. Rejects with `RecorderNotFoundError` after
 * `timeoutMs`.
 *
 * @example
 * import { chromium } from 'playwright-core';
 * import { connectRecorder } from 'agent-flight-recorder/client';
 *
 * const context = await chromium.launchPersistentContext('/tmp/agent-profile', {
 *   executablePath: '/usr/bin/chromium',
 *   // the extension, and no debugger infobar taking the bottom of every frame
 *   args: ['--disable-extensions-except=/path/to/chrome-mv3', '--load-extension=/path/to/chrome-mv3', '--silent-debugger-extension-api'],
 * });
 * const rec = await connectRecorder(context);
 * await rec.runStart({ agent: 'shop-bot', task: 'buy trail shoes' });
 * await rec.step({ action: 'click "Add to cart"', target: '[data-testid="add-shoes"]', outcome: 'ok' });
 * const bundleId = await rec.assert({ label: 'cart shows 1 item', passed: false, expected: '1', actual: '0' });
 * if (bundleId) await rec.saveBundle(bundleId, 'bundles'); // bundles/<bundleId>.zip
 */
export function connectRecorder(context: PlaywrightContextLike, options: ConnectOptions = {}): Promise<RecorderClient> {
  return openRecorderClient(playwrightSource(context), withDefaults(options));
}

/**
 * Connects to the recorder in a Puppeteer `Browser` launched with the extension: finds the
 * `service_worker` target whose URL ends with `/background.js` and whose worker exposes
 * `globalThis.afr`, waiting for it if it is not up yet. Rejects with `RecorderNotFoundError` after
 * `timeoutMs`.
 *
 * @example
 * import puppeteer from 'puppeteer';
 * import { connectRecorderPuppeteer } from 'agent-flight-recorder/client';
 *
 * const browser = await puppeteer.launch({
 *   // the extension, and no debugger infobar taking the bottom of every frame
 *   args: ['--disable-extensions-except=/path/to/chrome-mv3', '--load-extension=/path/to/chrome-mv3', '--silent-debugger-extension-api'],
 * });
 * const rec = await connectRecorderPuppeteer(browser);
 * const bundleId = await rec.fail({ reason: 'agent_failure', label: 'login loop' });
 * await rec.saveBundle(bundleId, `bundles/${bundleId}.zip`);
 */
export function connectRecorderPuppeteer(browser: PuppeteerBrowserLike, options: ConnectOptions = {}): Promise<RecorderClient> {
  return openRecorderClient(puppeteerSource(browser), withDefaults(options));
}
