import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle } from './support/bundle';
import { ROOT_DIR } from './support/launch';

/** A shop whose checkout answers 500 for quantities over 5, and the page that says so. */
const PAGE = `<!doctype html><title>Shop</title>
<label>Quantity <input id="qty" type="number" value="1"></label>
<button id="checkout">Checkout</button>
<p id="status"></p>
<script>
  document.querySelector('#checkout').addEventListener('click', async () => {
    const answer = await fetch('/api/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qty: Number(document.querySelector('#qty').value) }) });
    const body = await answer.json();
    document.querySelector('#status').textContent = answer.ok ? 'Order ' + body.order + ' placed' : 'Something went wrong';
  });
</script>`;

async function startShop(): Promise<{ origin: string; close(): Promise<void> }> {
  let order = 4410;
  const server: Server = createServer((req, res) => {
    if (req.url === '/api/checkout') {
      let body = '';
      req.on('data', (chunk) => (body += String(chunk)));
      req.on('end', () => {
        const qty = (JSON.parse(body) as { qty: number }).qty;
        order += 1;
        res.writeHead(qty > 5 ? 500 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(qty > 5 ? { error: 'quantity over 5' } : { order, status: 'placed' }));
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

test('afr diff between a passing and a failing run names the Checkout step, its 200 → 500 and the quantity given', async ({ recorder, tempDir }) => {
  const shop = await startShop();
  try {
    await afr(recorder.worker, 'configure', { persistMode: 'always', failureCooldownMs: 0 });
    /** One run in a tab of its own (a bundle holds its tab's steps): fill the quantity, check out. */
    const run = async (qty: string, expected: RegExp) => {
      const page = await recorder.context.newPage();
      await page.goto(`${shop.origin}/shop.html`);
      await waitForFrames(recorder.worker, 1);
      await expect.poll(async () => (await afr(recorder.worker, 'status')).tabs.some((t) => t.debugger), { timeout: 15_000 }).toBe(true);
      await page.fill('#qty', qty);
      await page.click('#checkout');
      await expect(page.locator('#status')).toHaveText(expected);
      return page;
    };
    const passing = await run('3', /^Order \d+ placed$/);
    await afr(recorder.worker, 'runEnd', { outcome: 'passed' });
    const a = await waitForNewBundle(recorder.worker);
    await passing.close();
    await run('7', /^Something went wrong$/);
    const b = await waitForNewBundle(recorder.worker, [a]);

    const files = [a, b].map((id) => path.join(tempDir(), `${id}.zip`));
    for (const [i, id] of [a, b].entries()) writeFileSync(files[i]!, (await exportBundle(recorder.worker, id)).zip);
    const diff = await promisify(execFile)(process.execPath, [path.join(ROOT_DIR, 'bin/afr.mjs'), 'diff', files[0]!, files[1]!], { encoding: 'utf8', cwd: ROOT_DIR }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(diff.code, diff.stdout).toBe(1);
    expect(diff.stdout).toMatch(/^first divergence, a #\d+ \/ b #\d+: click button "Checkout" "#checkout"$/m);
    expect(diff.stdout).toContain('  POST "127.0.0.1/api/checkout": 200 → 500\n');
    expect(diff.stdout).toMatch(/^ +a #\d+ \/ b #\d+: input "type" spinbutton "Quantity" "#qty": a "3", b "7"$/m);
    // The page's "Order … placed" is not compared yet: the last action of a bundle has no page change in
    // words (`changes` needs a later checkpoint, and the bundle ends before one).
  } finally {
    await shop.close();
  }
});
