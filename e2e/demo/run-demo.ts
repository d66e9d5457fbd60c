/**
 * `npm run demo`: launches Chromium with the built extension, lets a scripted agent shop on the demo
 * site until checkout fails with a server error, and copies the bundle the recorder wrote to `bundles/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchWithRecorder, ROOT_DIR } from '../support/launch';
import { startSiteServer } from '../support/site-server';
import { afr, waitForNewBundle } from '../support/afr';
import { openBundle } from '../support/bundle';
import { SECRETS } from '../support/secrets';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const site = await startSiteServer();
  const browser = await launchWithRecorder();
  const started = Date.now();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const step = (action: string, outcome: 'ok' | 'fail' = 'ok') =>
      page.evaluate(([a, o]) => window.postMessage({ source: 'agent-flight-recorder', type: 'step', action: a, outcome: o }, '*'), [action, outcome]);

    console.log(`agent: opening ${site.origin}`);
    await page.goto(site.origin);
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
    console.log('agent: filling the checkout form (with secrets the recorder must redact)');
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
    console.log('agent: placing the order');
    await page.click('#place-order');
    const id = await waitForNewBundle(browser.worker, known);
    const zip = Buffer.from(await afr(browser.worker, 'exportBundle', id), 'base64');
    const bundle = await openBundle(zip);
    const outDir = path.join(ROOT_DIR, 'bundles');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `${id}.zip`);
    writeFileSync(file, zip);
    const m = bundle.manifest;
    console.log('\nAgent Flight Recorder caught the failure:');
    console.log(`  reason   ${m.failure_reason}${m.failure_message ? ` (${m.failure_message})` : ''}`);
    console.log(`  url      ${m.url_at_failure}`);
    console.log(`  frames   ${m.frame_count} over ${((Date.parse(m.ended_at) - Date.parse(m.started_at)) / 1000).toFixed(1)} s`);
    console.log(`  clip     ${m.clip ? `failure.mp4, ${m.clip.duration_seconds.toFixed(1)} s (${m.clip.encoder})` : `none (${bundle.diagnostics.clip_error ?? 'disabled'})`}`);
    const redactedSteps = bundle.steps.steps.filter((s) => s.value_redacted).length;
    const redactedFields = Object.values(bundle.diagnostics.redaction.fields).reduce((a, b) => a + (b ?? 0), 0);
    console.log(`  steps    ${m.step_count} (${redactedSteps} typed into sensitive fields, values withheld)`);
    console.log(`  snapshot ${bundle.snapshot.snapshot ? `${bundle.snapshot.snapshot.node_count} nodes of ${bundle.snapshot.snapshot.url}, ${redactedFields} sensitive fields withheld` : bundle.snapshot.error}`);
    console.log(`  size     ${(zip.byteLength / 1024).toFixed(0)} KiB`);
    console.log(`  bundle   ${path.relative(process.cwd(), file)}`);
    console.log(`  (demo ran ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
