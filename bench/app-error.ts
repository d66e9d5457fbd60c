/**
 * `npx tsx bench/app-error.ts` (after `npm run build`): what looking for `app_error`s costs a page. A
 * page fetches a 1.4 KB JSON answer 300 times one after another, then 300 at once, with the recorder
 * on and the `app_error` rule off or on, `network.bodies` off (then the rule alone has bodies read:
 * `Network.getResponseBody` through the recorder's debugger session when each answer ends, within the
 * tab's read budget) or `documents` (the default: API bodies are read for the HAR anyway), in
 * interleaved rounds (BENCH_REPS, default 3). Then the round trip of `Network.getResponseBody` itself
 * on a second CDP session of the page (Playwright's, not the extension's: one hop fewer). Printed,
 * never asserted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afr } from '../e2e/support/afr';
import { fmt, median, REPS, withRecorder } from './support';

const FETCHES = 300;
const answer = JSON.stringify({
  orders: Array.from({ length: 12 }, (_, i) => ({ id: `A-${1000 + i}`, total: 42.5 + i, status: 'shipped', items: [{ sku: `SKU-${i}`, qty: 1 }], customer: { name: 'Ada Lovelace' } })),
  next: '/api/orders?page=3',
});

const server = createServer((req, res) => {
  if (req.url?.startsWith('/api/')) return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(answer);
  res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>API page</title><h1>API page</h1>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const VARIANTS = {
  'bodies off, rule off': { network: { bodies: 'off' }, signals: { app_error: { enabled: false } } },
  'bodies off, rule on': { network: { bodies: 'off' }, signals: { app_error: { enabled: true } } },
  'bodies documents, rule off': { network: { bodies: 'documents' }, signals: { app_error: { enabled: false } } },
  'bodies documents, rule on': { network: { bodies: 'documents' }, signals: { app_error: { enabled: true } } },
};
const NAMES = Object.keys(VARIANTS) as (keyof typeof VARIANTS)[];

try {
  await withRecorder(VARIANTS[NAMES[0]!], async (browser, page) => {
    await page.goto(`${origin}/`);
    const attached = async () => (await afr(browser.worker, 'status')).tabs.some((t) => t.debugger);
    for (let i = 0; i < 100 && !(await attached()); i++) await new Promise((r) => setTimeout(r, 200));
    const times = Object.fromEntries(NAMES.map((name) => [name, { serial: [] as number[], burst: [] as number[] }]));
    for (let rep = 0; rep < REPS; rep++) {
      for (const name of rep % 2 ? [...NAMES].reverse() : NAMES) {
        await afr(browser.worker, 'configure', VARIANTS[name] as never);
        // A full read budget for each round (100, then 50 a second).
        await new Promise((r) => setTimeout(r, 2_000));
        const ms = await page.evaluate(async (n) => {
          let t = performance.now();
          for (let i = 0; i < n; i++) await (await fetch(`/api/orders?i=${i}`)).json();
          const serial = (performance.now() - t) / n;
          t = performance.now();
          await Promise.all(Array.from({ length: n }, (_, i) => fetch(`/api/orders?b=${i}`).then((r) => r.json())));
          return { serial, burst: performance.now() - t };
        }, FETCHES);
        times[name]!.serial.push(ms.serial);
        times[name]!.burst.push(ms.burst);
      }
    }
    for (const [name, t] of Object.entries(times)) {
      console.log(`${name}: ${FETCHES} fetches one after another ${fmt(t.serial.map((x) => x * 1000), 'µs each')}; ${FETCHES} at once ${fmt(t.burst, 'ms')}`);
    }
    const ratio = (a: string, b: string, key: 'serial' | 'burst') => (median(times[a]![key]) / median(times[b]![key])).toFixed(3);
    for (const bodies of ['off', 'documents']) {
      const [on, off] = [`bodies ${bodies}, rule on`, `bodies ${bodies}, rule off`];
      console.log(`bodies ${bodies}: rule on / rule off, medians: one after another ${ratio(on, off, 'serial')}, at once ${ratio(on, off, 'burst')}`);
    }

    // The round trip of one body read, on a CDP session of the page's own.
    const cdp = await browser.context.newCDPSession(page);
    const ids: string[] = [];
    cdp.on('Network.loadingFinished', (e: { requestId: string }) => ids.push(e.requestId));
    await cdp.send('Network.enable');
    await page.evaluate(async (n) => {
      for (let i = 0; i < n; i++) await (await fetch(`/api/orders?r=${i}`)).text();
    }, 100);
    const rtt: number[] = [];
    for (const requestId of ids) {
      const t = performance.now();
      await cdp.send('Network.getResponseBody', { requestId }).catch(() => undefined);
      rtt.push((performance.now() - t) * 1000);
    }
    console.log(`Network.getResponseBody round trip (${ids.length} reads of ${answer.length} characters, Playwright's CDP session): ${fmt(rtt, 'µs')}`);
  });
} finally {
  server.close();
  server.closeAllConnections();
}
