import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const SITE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../site');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface SiteServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * The demo shop on 127.0.0.1 (a random port): static pages from `e2e/site/`, plus
 * `POST /checkout/submit` and `GET /server-error`, which answer 500 the way a broken backend does,
 * and `/api/status/<code>`, which answers any status. `?delay=ms` on a static file answers that late.
 */
export async function startSiteServer(port = 0): Promise<SiteServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/status/')) {
      // `/api/status/503` answers 503: a backend failing an API call.
      const status = Number(url.pathname.split('/').pop());
      req.resume();
      res.writeHead(status >= 100 && status <= 599 ? status : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'demo failure', status }));
      return;
    }
    if (url.pathname === '/checkout/submit' || url.pathname === '/server-error') {
      // Drain the body; it is never logged (it holds the form's secrets).
      req.resume();
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>500</title><h1>Internal Server Error</h1><p>The payment service is unavailable.</p>');
      return;
    }
    const rel = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = path.normalize(path.join(SITE_DIR, rel));
    if (!file.startsWith(SITE_DIR)) {
      res.writeHead(403).end();
      return;
    }
    // `?delay=ms` (up to 10 s): a slow response, e.g. a render-blocking stylesheet that holds a page's first paint.
    const delay = Math.min(10_000, Number(url.searchParams.get('delay')) || 0);
    readFile(file)
      .then(async (body) => {
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(body);
      })
      .catch(() => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${actual}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
