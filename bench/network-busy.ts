import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afr } from '../e2e/support/afr';
import { exportBundle } from '../e2e/support/bundle';
import type { HarFile } from '../schemas/network';
import { fmt, pause, REPS, withRecorder } from './support';

/** A page that polls a JSON API 10 times a second, and the API (answers of about 500 characters). */
async function startPoller(): Promise<{ origin: string; polls: () => number; close(): Promise<void> }> {
  let polls = 0;
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/api/poll')) {
      polls++;
      const orders = Array.from({ length: 4 }, (_, i) => ({ id: `A-${1000 + i}`, total: 42.5 + i, status: 'shipped', items: [{ sku: `SKU-${i}`, qty: 1 }], customer: { name: 'Ada Lovelace' } }));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify({ seq: polls, orders, updated: new Date().toISOString() }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Live orders</title><h1>Live orders</h1><p id="n">0</p>
<script>let n = 0; setInterval(async () => { const r = await fetch('/api/poll?since=' + n); const a = await r.json(); document.getElementById('n').textContent = String(++n) + ' ' + a.orders.length; }, 100);</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    polls: () => polls,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/**
 * Section 9: a busy page (a JSON API polled 10 times a second) under the recorder with its default
 * network settings, for a full 15 s window: signal → bundle stored with its `network.har`, the HAR's
 * requests and size, the bundle's size.
 */
export async function networkBusy(): Promise<void> {
  console.log('\n8. A busy page (a JSON API polled 10×/s), default network settings, 15 s window, after-failure tail off:');
  console.log(`   signal → bundle stored with network.har (load average ${os.loadavg()[0]!.toFixed(1)} at the start)`);
  const poller = await startPoller();
  try {
    await withRecorder({ bufferSeconds: 15 }, async (b, page) => {
      await page.goto(`${poller.origin}/`);
      const pollsAtStart = poller.polls();
      await pause(16_000);
      const rate = (poller.polls() - pollsAtStart) / 16;
      const total: number[] = [];
      const entries: number[] = [];
      const kept: number[] = [];
      const harKiB: number[] = [];
      const zipKiB: number[] = [];
      for (let i = 0; i < REPS + 2; i++) {
        const t = performance.now();
        const id = await afr(b.worker, 'fail', { reason: 'bench' });
        total.push(performance.now() - t);
        const bundle = await exportBundle(b.worker, id);
        const harBytes = bundle.files.get('network.har');
        const har = harBytes ? (JSON.parse(harBytes.toString('utf8')) as HarFile) : null;
        entries.push(har?.log.entries.length ?? 0);
        kept.push(har?.log.entries.filter((e) => e.response.content.text !== undefined).length ?? 0);
        harKiB.push((harBytes?.byteLength ?? 0) / 1024);
        zipKiB.push(bundle.zip.byteLength / 1024);
        await afr(b.worker, 'deleteBundle', id);
        await pause(1_000);
      }
      console.log(`     polls answered           ${rate.toFixed(1)} a second`);
      console.log(`     signal → bundle stored   ${fmt(total, 'ms')}`);
      console.log(`     network.har entries      ${fmt(entries, 'requests')}`);
      console.log(`     bodies kept as text      ${fmt(kept, 'bodies')}`);
      console.log(`     network.har size         ${fmt(harKiB, 'KiB')}`);
      console.log(`     bundle size              ${fmt(zipKiB, 'KiB')}`);
    });
  } finally {
    await poller.close();
  }
  console.log(`   load average at the end ${os.loadavg()[0]!.toFixed(1)}`);
}
