import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeBundle } from '../test/fixtures/cli/make-bundle';
import { expect, test } from './support/fixtures';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/** An HTTP server on `host` answering with `handle`, and the requests it saw (path and headers). */
async function serve(host: string, handle: (path: string) => Answer) {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const answer = handle(req.url ?? '');
    res.writeHead(answer.status, { 'access-control-allow-origin': '*', ...answer.headers });
    res.end(answer.body ? Buffer.from(answer.body) : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('viewer.html?bundle= opens a linked zip without cookies, refuses a redirect to another loopback address without asking it, and a private address unasked', async ({ recorder }) => {
  const zip = await makeBundle();
  // The address a redirect points to: another loopback address, standing in for an intranet host.
  const inner = await serve('127.0.0.2', () => ({ status: 200, body: zip }));
  const store = await serve('127.0.0.1', (path): Answer =>
    path === '/b.zip' ? { status: 200, headers: { 'content-type': 'application/zip' }, body: zip } : { status: 302, headers: { location: `${inner.origin}/admin/b.zip` } },
  );
  try {
    await recorder.context.addCookies([{ name: 'session', value: 'cookie-for-the-store', url: store.origin }]);
    const viewer = await recorder.context.newPage();
    const open = (link: string) => viewer.goto(`chrome-extension://${recorder.extensionId}/viewer.html?bundle=${link}`);

    await open(`${store.origin}/b.zip`);
    await expect(viewer.locator('[data-testid="timeline"] > li').first()).toBeVisible();
    expect(store.seen.map((r) => r.path)).toEqual(['/b.zip']);
    expect(store.seen[0]!.headers.cookie).toBeUndefined();

    await open(`${store.origin}/hop`);
    await expect(viewer.getByTestId('error')).toContainText('answered with a redirect, which the viewer does not follow');
    expect(store.seen.map((r) => r.path)).toEqual(['/b.zip', '/hop']);
    expect(inner.seen).toEqual([]);

    await open('https://10.0.0.5/b.zip');
    await expect(viewer.getByTestId('error')).toContainText('10.0.0.5 is a private or local network address');
  } finally {
    await Promise.all([store.close(), inner.close()]);
  }
});
