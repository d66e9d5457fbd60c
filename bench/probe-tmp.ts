import { launchWithRecorder } from '../e2e/support/launch';
import { startSiteServer } from '../e2e/support/site-server';
import { afr } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';

const site = await startSiteServer();
const b = await launchWithRecorder();
b.worker.on('console', (m) => console.log('[sw]', m.text()));
await afr(b.worker, 'configure', { autoDownload: false, failureCooldownMs: 0, postFailureSeconds: 0, captureSource: (process.env.SRC ?? 'auto') as never });
const page = b.context.pages()[0] ?? (await b.context.newPage());
await page.setViewportSize({ width: 1280, height: 720 });
await page.goto(`${site.origin}/index.html`);
await new Promise((r) => setTimeout(r, 1000));
await page.goto(`${site.origin}/checkout.html`);
const t0 = Date.now();
for (let round = 0; round < 25; round++) {
  await page.fill('#full-name', `Jane Doe ${round}`);
  await page.fill('#email', `jane${round}@example.com`);
  await page.fill('#phone', `+1 415 555 01${String(round).padStart(2, '0')}`);
  await page.fill('#card-number', '4111 1111 1111 1111');
  await page.fill('#card-cvc', '123');
  await page.fill('#notes', `round ${round}`);
  await page.press('#notes', 'Tab');
  await page.click('h1');
}
const t1 = Date.now();
const bundle = await exportBundle(b.worker, await afr(b.worker, 'fail', { reason: 'probe' }));
console.log('workload ms', t1 - t0);
console.log(bundle.manifest.frames.filter((f) => f.ts >= t0 - 1500).map((f) => `${f.ts - t0}:${f.source}`).join(' '));
const steps = JSON.parse(new TextDecoder().decode(bundle.files.get('steps.json'))).steps as { ts: number; kind: string }[];
console.log(steps.filter((s) => s.ts >= t0 - 500).slice(0, 40).map((s) => `${s.ts - t0}:${s.kind}`).join(' '));
await b.close();
await site.close();
