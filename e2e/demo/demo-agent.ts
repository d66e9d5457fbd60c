/**
 * The demo's scripted agent: shops on the demo site in the recorder's browser until checkout fails with
 * a server error, posting its own steps through the page protocol as an agent would, and returns the
 * bundle the recorder wrote. `npm run demo` runs it; the demo-bundle e2e reads what it makes.
 */
import type { Page } from 'playwright-core';
import { afr, waitForNewBundle } from '../support/afr';
import { openBundle, type OpenedBundle } from '../support/bundle';
import type { RecorderBrowser } from '../support/launch';
import { SECRETS } from '../support/secrets';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface DemoRun {
  id: string;
  zip: Buffer;
  bundle: OpenedBundle;
  /** The agent's page, still open on the failure. */
  page: Page;
}

/** Runs the demo agent in `browser` against the demo site at `origin`; `log` hears what it does. */
export async function runDemoAgent(browser: RecorderBrowser, origin: string, log: (line: string) => void = () => undefined): Promise<DemoRun> {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const step = (action: string, outcome: 'ok' | 'fail' = 'ok') =>
    page.evaluate(([a, o]) => window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: a, outcome: o }, '*'), [action, outcome]);

  log(`agent: opening ${origin}`);
  await page.goto(origin);
  await step('open the shop');
  await pause(1_200);
  for (const item of ['add-shoes', 'add-bottle']) {
    await page.click(`[data-testid="${item}"]`);
    await pause(700);
  }
  await step('add two items to the cart');
  await page.click('#cart-link');
  await page.waitForSelector('#checkout');
  await pause(800);
  log('agent: filling the checkout form (with secrets the recorder must redact)');
  await page.fill('#full-name', 'Jane Doe');
  await page.fill('#email', SECRETS.email);
  await page.fill('#phone', SECRETS.phone);
  await page.fill('#account-password', SECRETS.password);
  await page.fill('#card-number', SECRETS.card);
  await page.fill('#card-cvc', SECRETS.cvv);
  await page.fill('#notes', `Leave it at the door, call ${SECRETS.notesPhone}`);
  await step('fill in the checkout form');
  await pause(1_500);
  const known = (await afr(browser.worker, 'listBundles')).map((b) => b.id);
  log('agent: placing the order');
  await page.click('#place-order');
  const id = await waitForNewBundle(browser.worker, known);
  const zip = Buffer.from(await afr(browser.worker, 'exportBundle', id), 'base64');
  return { id, zip, bundle: await openBundle(zip), page };
}
