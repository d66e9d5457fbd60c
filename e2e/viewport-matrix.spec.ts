import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import puppeteer, { type Browser, type Page, type WebWorker } from 'puppeteer-core';
import { EXTENSION_DIR, SILENT_DEBUGGER_SWITCH, chromiumPath } from './support/launch';
import { findSecrets, openBundle, type OpenedBundle } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';
import { decodeRgbFrames, jpegFramesOf, redPixels } from './support/pixels';

/** A login page: a bright red password field (red pixels in a frame mean it was not masked), pre-filled. */
const PAGE = `<!doctype html><html><head><title>Login</title></head><body style="margin:0;height:2500px;font:16px sans-serif">
<h1>Sign in</h1>
<input id="pw" type="password" value="${SECRETS.password}" style="position:absolute;left:100px;top:150px;width:220px;height:44px;border:0;background:rgb(255,0,0);color:rgb(255,0,0)">
<div style="position:fixed;left:420px;top:20px;width:20px;height:20px;background:blue;animation:s .8s infinite alternate"></div>
<style>@keyframes s { to { transform: translateX(40px) } }</style>
</body></html>`;

let server: Server;
let origin: string;
let browser: Browser;
let worker: WebWorker;

/** Calls `globalThis.afr[method](...args)` in the extension's service worker. */
function afr<T>(method: string, ...args: unknown[]): Promise<T> {
  return worker.evaluate(
    (m: string, a: unknown[]) => (globalThis as unknown as { afr: Record<string, (...x: unknown[]) => Promise<unknown>> }).afr[m]!(...a),
    method,
    args,
  ) as Promise<T>;
}

async function tabIdOf(url: string): Promise<number> {
  return worker.evaluate(async (u: string) => (await chrome.tabs.query({ url: u }))[0]!.id!, url);
}

/** Frames stored so far, whatever the source (the ring itself evicts the old ones). */
async function storedFrames(): Promise<number> {
  return (await afr<{ capturesOk: number }>('status')).capturesOk;
}

/** Opens the login page at `path` in `page` and waits until frames of it are stored. */
async function openLogin(page: Page, path: string): Promise<number> {
  const url = `${origin}${path}`;
  await page.goto(url);
  const before = await storedFrames();
  await expect.poll(storedFrames, { timeout: 20_000, message: `frames stored of ${path}` }).toBeGreaterThanOrEqual(before + 3);
  return tabIdOf(url);
}

/** Every frame of the bundle decoded: none shows the red field. */
async function expectMaskedFrames(bundle: OpenedBundle, label: string): Promise<void> {
  expect(bundle.manifest.frames.length, `${label}: frames in the bundle`).toBeGreaterThan(0);
  for await (const { frame, img } of decodeRgbFrames(jpegFramesOf(bundle))) {
    expect(redPixels(img), `${label}: red (unmasked) pixels in ${frame.name} (${frame.width}×${frame.height})`).toBe(0);
  }
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
}

async function bundleOf(id: string): Promise<OpenedBundle> {
  return openBundle(Buffer.from(await afr<string>('exportBundle', id), 'base64'));
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Puppeteer as a user launches it: its default 800×600 viewport, emulated in a smaller window.
  browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    enableExtensions: true,
    args: ['--no-sandbox', `--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`, SILENT_DEBUGGER_SWITCH, '--disable-gpu'],
  });
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
  worker = (await target.worker())!;
  await expect.poll(() => worker.evaluate(() => typeof (globalThis as { afr?: unknown }).afr)).toBe('object');
});

test.afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

test("Puppeteer's default viewport: an uncaught exception gives a bundle with masked frames and a clip", async () => {
  const page = (await browser.pages())[0]!;
  await openLogin(page, '/default');
  const known = (await afr<{ id: string }[]>('listBundles')).map((b) => b.id);
  await page.evaluate(() => setTimeout(() => {
    throw new Error('checkout exploded');
  }));
  let id = '';
  await expect
    .poll(async () => (id = (await afr<{ id: string }[]>('listBundles')).find((b) => !known.includes(b.id))?.id ?? ''), { timeout: 30_000 })
    .not.toBe('');
  const bundle = await bundleOf(id);
  expect(bundle.manifest.frames.length).toBeGreaterThan(0);
  expect(bundle.files.has('failure.mp4')).toBe(true);
  await expectMaskedFrames(bundle, 'Puppeteer default');
  expect(bundle.diagnostics.capture.dropped_frames_by_reason).toBeDefined();
});

test('frames are masked in pixels whatever the viewport: none emulated, mobile at scale 2, a window resized mid-run', async () => {
  await afr('configure', { failureCooldownMs: 0, postFailureSeconds: 0.5, encodeClip: false });
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  const cases: { label: string; path: string; setup(): Promise<void> }[] = [
    { label: 'defaultViewport: null', path: '/none', setup: () => page.setViewport(null) },
    {
      label: 'mobile 390×844 at scale 2',
      path: '/mobile',
      setup: () => page.setViewport({ width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true }),
    },
    {
      label: 'window resized mid-run',
      path: '/resized',
      setup: async () => {
        await page.setViewport(null);
        const { windowId } = await session.send('Browser.getWindowForTarget');
        await session.send('Browser.setWindowBounds', { windowId, bounds: { width: 1100, height: 760 } });
      },
    },
  ];
  for (const c of cases) {
    await c.setup();
    const tabId = await openLogin(page, c.path);
    // Scrolled a little, so the field moves in the frames too.
    await page.evaluate(() => window.scrollTo(0, 60));
    await new Promise((r) => setTimeout(r, 800));
    const id = await afr<string>('fail', { tabId, reason: 'viewport_matrix', label: c.label });
    await expectMaskedFrames(await bundleOf(id), c.label);
  }
});
