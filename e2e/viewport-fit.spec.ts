import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { chromium, devices, type BrowserContextOptions, type Page as PlaywrightPage } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';
import { EXTENSION_DIR, SILENT_DEBUGGER_SWITCH, chromiumPath } from './support/launch';
import { findSecrets, openBundle, type OpenedBundle } from './support/bundle';
import { decodeRgb, type Rgb } from './support/pixels';
import { grabGrey, probeClip } from './support/clip-harness';
import { secretVariants } from './support/secrets';
import { letterbox } from '../src/clip/letterbox';
import { targetMarks } from '../src/viewer/target-marks';
import { inspectBundle } from '../src/cli/inspect-bundle';
import { inspectionLines } from '../src/cli/format-inspection';
import type { Step } from '../schemas/steps';

// Every frame shows the page's whole layout viewport, whatever the driver emulates, launched as the
// docs say (with --silent-debugger-extension-api): a page with a fixed 36 px bar at the top (green)
// and one at the bottom (blue), a yellow button in the bottom 40 px, a square moving so the screencast
// sends frames. One browser per driver setup.
// Launched without the switch, the bundle says its frames are cut and how to fix it.

const BAR = 36;
const PAGE = `<!doctype html><html><head><title>Checkout</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;background:#fff">
<div style="position:fixed;left:0;right:0;top:0;height:${BAR}px;background:rgb(0,160,0)"></div>
<div style="position:fixed;left:0;right:0;bottom:0;height:${BAR}px;background:rgb(0,0,200)"></div>
<div style="position:fixed;left:20px;top:50%;width:16px;height:16px;background:#999;animation:s .5s infinite alternate"></div>
<style>@keyframes s { to { transform: translateX(30px) } }</style>
<button id="buy" style="position:fixed;left:20px;bottom:4px;width:120px;height:30px;border:0;background:rgb(255,210,0);z-index:1"
  onclick="setTimeout(() => { throw new Error('order failed') }, 400)">Place order</button>
</body></html>`;

interface Metrics {
  innerWidth: number;
  innerHeight: number;
  devicePixelRatio: number;
}

/** What the spec needs of a driver: one tab, its recorder, and a way out. */
interface Driven {
  goto(url: string): Promise<void>;
  metrics(): Promise<Metrics>;
  click(selector: string): Promise<void>;
  /** Calls `globalThis.afr[method](...args)` in the recorder's worker. */
  afr<T>(method: string, ...args: unknown[]): Promise<T>;
  /** The window resized (or the viewport), as the setup does halfway; absent: not resized. */
  resize?(): Promise<void>;
  /** A tab of the recorder's viewer on the bundle (Playwright setups). */
  viewer?(bundleId: string): Promise<PlaywrightPage>;
  close(): Promise<void>;
}

let server: Server;
let origin: string;

test.setTimeout(120_000);

test.beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

const recorderArgs = (silent: boolean) => [
  '--no-sandbox',
  `--disable-extensions-except=${EXTENSION_DIR}`,
  `--load-extension=${EXTENSION_DIR}`,
  ...(silent ? [SILENT_DEBUGGER_SWITCH] : []),
  '--no-first-run',
  '--disable-gpu',
];

/** Playwright's persistent context, as its docs and ours launch it, with `options` (none: its defaults). */
async function playwright(options: BrowserContextOptions, { silent = true, resizeTo }: { silent?: boolean; resizeTo?: { width: number; height: number } } = {}): Promise<Driven> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-fit-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), headless: true, args: recorderArgs(silent), ...options });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    goto: async (url) => void (await page.goto(url)),
    metrics: () => page.evaluate(() => ({ innerWidth, innerHeight, devicePixelRatio })),
    click: (selector) => page.click(selector),
    afr: (method, ...args) => worker.evaluate(([m, a]) => (globalThis as unknown as { afr: Record<string, (...x: unknown[]) => unknown> }).afr[m]!(...a), [method, args] as [string, unknown[]]) as never,
    ...(resizeTo ? { resize: () => page.setViewportSize(resizeTo) } : {}),
    viewer: async (bundleId) => {
      const viewer = await context.newPage();
      await viewer.setViewportSize({ width: 1280, height: 900 });
      await viewer.goto(`chrome-extension://${new URL(worker.url()).host}/viewer.html?id=${bundleId}`);
      return viewer;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Puppeteer as its docs launch it: its default 800×600 viewport, or `defaultViewport: null` (the window's). */
async function puppeteerDriver(defaultViewport: null | undefined, resizeWindow?: { width: number; height: number }): Promise<Driven> {
  const browser = await puppeteer.launch({ executablePath: chromiumPath(), headless: true, enableExtensions: true, args: recorderArgs(true), ...(defaultViewport === null ? { defaultViewport } : {}) });
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
  const worker = (await target.worker())!;
  await expect.poll(() => worker.evaluate(() => typeof (globalThis as { afr?: unknown }).afr)).toBe('object');
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  return {
    goto: async (url) => void (await page.goto(url)),
    metrics: () => page.evaluate(() => ({ innerWidth, innerHeight, devicePixelRatio })),
    click: (selector) => page.click(selector),
    afr: (method, ...args) => worker.evaluate((m: string, a: unknown[]) => (globalThis as unknown as { afr: Record<string, (...x: unknown[]) => unknown> }).afr[m]!(...a), method, args) as never,
    ...(resizeWindow
      ? {
          resize: async () => {
            const session = await page.createCDPSession();
            const { windowId } = await session.send('Browser.getWindowForTarget');
            await session.send('Browser.setWindowBounds', { windowId, bounds: resizeWindow });
            await session.detach();
          },
        }
      : {}),
    close: () => browser.close(),
  };
}


/** The page opened and recorded a while, the button clicked, the bundle of the failure it causes. */
async function recordCheckout(driven: Driven): Promise<{ bundle: OpenedBundle; before: Metrics; after: Metrics; beforeResize: number | null }> {
  await driven.afr('configure', { autoDownload: false, failureCooldownMs: 0, postFailureSeconds: 0.5 });
  await driven.goto(`${origin}/checkout`);
  const before = await driven.metrics();
  const stored = async () => (await driven.afr<{ capturesOk: number }>('status')).capturesOk;
  const start = await stored();
  await expect.poll(stored, { timeout: 20_000, message: 'frames of the page stored' }).toBeGreaterThanOrEqual(start + 3);
  let beforeResize: number | null = null;
  if (driven.resize) {
    beforeResize = Date.now();
    await driven.resize();
    const resized = await stored();
    await expect.poll(stored, { timeout: 20_000, message: 'frames after the resize' }).toBeGreaterThanOrEqual(resized + 3);
  }
  const known = (await driven.afr<{ id: string }[]>('listBundles')).map((b) => b.id);
  const atClick = await driven.metrics();
  await driven.click('#buy');
  let id = '';
  await expect.poll(async () => (id = (await driven.afr<{ id: string }[]>('listBundles')).find((b) => !known.includes(b.id))?.id ?? ''), { timeout: 30_000 }).not.toBe('');
  const bundle = await openBundle(Buffer.from(await driven.afr<string>('exportBundle', id), 'base64'));
  const after = await driven.metrics();
  // The recorder never changes what the page sees.
  expect(after, 'innerWidth, innerHeight, devicePixelRatio after recording').toEqual(atClick);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  return { bundle, before, after, beforeResize };
}

const isGreen = ([r, g, b]: readonly number[]) => r! < 90 && g! > 110 && b! < 90;
const isBlue = ([r, g, b]: readonly number[]) => r! < 90 && g! < 90 && b! > 140;
const isYellow = ([r, g, b]: readonly number[]) => r! > 200 && g! > 160 && b! < 90;
const isRed = ([r, g, b]: readonly number[]) => r! > 200 && g! < 80 && b! < 80;
const rgbAt = (img: Rgb, x: number, y: number): [number, number, number] => {
  const i = (Math.round(y) * img.width + Math.round(x)) * 3;
  return [img.pixels[i]!, img.pixels[i + 1]!, img.pixels[i + 2]!];
};

type Frame = OpenedBundle['manifest']['frames'][number];

/**
 * A frame shows the whole viewport `m`: it says so (`viewport` of the page's size, nothing `shown`
 * cut), its aspect ratio is the viewport's, and both bars are in it, right of the button.
 */
async function expectWholeViewport(bundle: OpenedBundle, frame: Frame, m: Metrics, label: string): Promise<void> {
  expect(frame.viewport, `${label}: the frame's viewport`).toMatchObject({ width: m.innerWidth, height: m.innerHeight, device_pixel_ratio: m.devicePixelRatio });
  expect(frame.viewport?.shown, `${label}: the frame shows the whole viewport`).toBeUndefined();
  expect(Math.abs(frame.width / frame.height - m.innerWidth / m.innerHeight), `${label}: aspect ratio ${frame.width}×${frame.height} of ${m.innerWidth}×${m.innerHeight}`).toBeLessThan(0.01);
  const img = await decodeRgb(bundle.files.get(frame.name)!, frame.width, frame.height);
  const scale = frame.viewport?.image_scale ?? frame.width / m.innerWidth;
  for (const x of [0.5, 0.75, 0.95].map((f) => f * m.innerWidth)) {
    expect(isGreen(rgbAt(img, x * scale, (BAR / 2) * scale)), `${label}: the top bar at x ${x.toFixed(0)} in ${frame.name}`).toBe(true);
    expect(isBlue(rgbAt(img, x * scale, (m.innerHeight - BAR / 2) * scale)), `${label}: the bottom bar at x ${x.toFixed(0)} in ${frame.name}`).toBe(true);
  }
}

/** Both bars are in the clip's last picture: the last frame, fitted into the clip as the encoders do. */
async function expectBarsInClip(bundle: OpenedBundle, frame: Frame, m: Metrics, label: string): Promise<void> {
  const mp4 = bundle.files.get('failure.mp4');
  expect(mp4, `${label}: a clip`).toBeDefined();
  const clip = await probeClip(mp4!);
  // The last picture's own time: a seek past the stream's last packet decodes nothing.
  const grey = await grabGrey(mp4!, clip.packetStarts.at(-1)!);
  expect(grey.length, `${label}: the clip's last picture decoded`).toBe(clip.width * clip.height);
  const place = letterbox(frame, clip);
  const x = place.dx + place.dw * 0.75;
  const row = (cssY: number) => grey[Math.round(place.dy + (cssY / m.innerHeight) * place.dh) * clip.width + Math.round(x)]!;
  // On white, the green bar's grey is ~94, the blue one's ~23.
  expect(row(m.innerHeight / 2), `${label}: the page's white in the clip`).toBeGreaterThan(200);
  expect(row(BAR / 2), `${label}: the top bar in the clip`).toBeLessThan(150);
  expect(row(m.innerHeight - BAR / 2), `${label}: the bottom bar in the clip`).toBeLessThan(150);
}

/** The click step's point, placed on its frame as the viewers place it, lands on the button. */
async function expectClickOnButton(bundle: OpenedBundle, label: string): Promise<{ click: Step; frame: Frame; point: { x: number; y: number } }> {
  const click = bundle.steps.steps.find((s) => s.kind === 'click' && typeof s.target === 'object' && s.target?.selector.includes('buy'));
  expect(click, `${label}: the click step`).toBeDefined();
  const frame = bundle.manifest.frames.filter((f) => f.ts <= click!.ts).at(-1)!;
  const marks = targetMarks(click!.target, frame.width, frame.viewport ?? null);
  expect(marks?.point, `${label}: the click's point`).toBeTruthy();
  const { x, y } = marks!.point!;
  expect(x >= 0 && y >= 0 && x < frame.width && y < frame.height, `${label}: the click (${x}, ${y}) inside ${frame.width}×${frame.height}`).toBe(true);
  const img = await decodeRgb(bundle.files.get(frame.name)!, frame.width, frame.height);
  expect(isYellow(rgbAt(img, x, y)), `${label}: the button under the click point in ${frame.name}, got ${rgbAt(img, x, y).join(',')}`).toBe(true);
  return { click: click!, frame, point: { x, y } };
}

/** In the recorder's viewer, the click step's red dot sits on the button in its frame. */
async function expectDotInViewer(viewer: PlaywrightPage, click: Step, frame: Frame, point: { x: number; y: number }): Promise<void> {
  await viewer.locator(`[data-testid="timeline"] > li[data-seq="${click.seq}"] button`).click();
  const image = viewer.locator('[data-testid="frame-image"]');
  await expect(image).toHaveAttribute('data-frame', frame.name);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(frame.width);
  await expect(viewer.locator('[data-testid="target-note"]')).toHaveText('');
  await expect(viewer.locator('[data-testid="frame-cut"]')).toHaveText('');
  await image.scrollIntoViewIfNeeded();
  const box = (await image.boundingBox())!;
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  const at = { x: box.x + (box.width - frame.width * scale) / 2 + point.x * scale, y: box.y + (box.height - frame.height * scale) / 2 + point.y * scale };
  const png = PNG.sync.read(await viewer.screenshot());
  const i = (Math.round(at.y) * png.width + Math.round(at.x)) * 4;
  const colour = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
  expect(isRed(colour), `the viewer's red dot on the button, got ${colour.join(',')}`).toBe(true);
}

interface Setup {
  label: string;
  launch(): Promise<Driven>;
  /** What the driver emulates (null: the window's own size). */
  expected: Metrics | null;
  /** After the resize (setups that resize halfway). */
  resized?: Metrics | null;
}

const pixel5 = (({ defaultBrowserType: _, ...options }) => options)(devices['Pixel 5']);

const SETUPS: Setup[] = [
  { label: "Playwright's default persistent context", launch: () => playwright({}), expected: { innerWidth: 1280, innerHeight: 720, devicePixelRatio: 1 } },
  {
    label: 'Playwright viewport 1100×800, resized to 900×600 mid-run',
    launch: () => playwright({ viewport: { width: 1100, height: 800 } }, { resizeTo: { width: 900, height: 600 } }),
    expected: { innerWidth: 1100, innerHeight: 800, devicePixelRatio: 1 },
    resized: { innerWidth: 900, innerHeight: 600, devicePixelRatio: 1 },
  },
  { label: 'Playwright 1024×700 at deviceScaleFactor 2', launch: () => playwright({ viewport: { width: 1024, height: 700 }, deviceScaleFactor: 2 }), expected: { innerWidth: 1024, innerHeight: 700, devicePixelRatio: 2 } },
  {
    label: 'Playwright mobile emulation (Pixel 5)',
    launch: () => playwright(pixel5),
    expected: { innerWidth: pixel5.viewport!.width, innerHeight: pixel5.viewport!.height, devicePixelRatio: pixel5.deviceScaleFactor! },
  },
  { label: "Puppeteer's default 800×600", launch: () => puppeteerDriver(undefined), expected: { innerWidth: 800, innerHeight: 600, devicePixelRatio: 1 } },
  { label: 'Puppeteer defaultViewport: null, the window resized mid-run', launch: () => puppeteerDriver(null, { width: 1100, height: 760 }), expected: null, resized: null },
];

for (const setup of SETUPS) {
  test(`${setup.label}: the last frame and the clip show the whole viewport with both bars; the click's dot is on the button; the page sees the same viewport`, async () => {
    const driven = await setup.launch();
    try {
      const { bundle, before, after, beforeResize } = await recordCheckout(driven);
      if (setup.expected) expect(before, 'what the driver emulates, when the page opened').toEqual(setup.expected);
      if (setup.resized === undefined) expect(after, 'the same viewport after recording').toEqual(before);
      else if (setup.resized) expect(after).toEqual(setup.resized);
      else expect(after.innerWidth * after.innerHeight, 'the window resized').not.toBe(before.innerWidth * before.innerHeight);
      const frames = bundle.manifest.frames;
      expect(frames.length).toBeGreaterThan(0);
      expect(bundle.diagnostics.capture.viewport_cut, 'no frame is cut').toBeUndefined();
      expect((await driven.afr<{ viewportCut: unknown }>('status')).viewportCut, 'status(): no frame is cut').toBeNull();
      const last = frames.at(-1)!;
      await expectWholeViewport(bundle, last, after, setup.label);
      if (beforeResize !== null) {
        const earlier = frames.filter((f) => f.ts < beforeResize).at(-1);
        expect(earlier, 'a frame from before the resize').toBeDefined();
        await expectWholeViewport(bundle, earlier!, before, `${setup.label}, before the resize`);
      }
      await expectBarsInClip(bundle, last, after, setup.label);
      const { click, frame, point } = await expectClickOnButton(bundle, setup.label);
      if (setup.label.startsWith("Playwright's default")) await expectDotInViewer(await driven.viewer!(bundle.manifest.bundle_id), click, frame, point);
    } finally {
      await driven.close();
    }
  });
}

test("launched without the switch under Playwright's defaults, the bundle says its frames are cut and how to fix it", async () => {
  const driven = await playwright({}, { silent: false });
  try {
    const { bundle, after } = await recordCheckout(driven);
    const cut = bundle.diagnostics.capture.viewport_cut;
    expect(cut, 'diagnostics: frames cut').toBeDefined();
    expect(cut!.viewport).toEqual({ width: after.innerWidth, height: after.innerHeight });
    expect(cut!.shown.height).toBeLessThan(after.innerHeight);
    const last = bundle.manifest.frames.at(-1)!;
    expect(last.viewport?.shown, 'the frame says the part it shows').toEqual(cut!.shown);
    const warning = bundle.diagnostics.warnings.find((w) => w.includes(SILENT_DEBUGGER_SWITCH));
    expect(warning).toMatch(new RegExp(`frames show ${after.innerWidth}×${cut!.shown.height} of the page's ${after.innerWidth}×${after.innerHeight} viewport \\(CSS px\\): the bottom \\d+ px are not recorded`));
    const status = await driven.afr<{ viewportCut: { shown: { height: number }; warning: string } | null }>('status');
    expect(status.viewportCut?.shown.height, 'status(): frames cut').toBeLessThan(after.innerHeight);
    expect(status.viewportCut?.warning).toContain(`launch the browser with ${SILENT_DEBUGGER_SWITCH}`);
    const text = inspectionLines(await inspectBundle(bundle.zip)).join('\n');
    expect(text.split('\n').find((l) => l.trimStart().startsWith('cut '))).toBe(`  cut       ${warning}`);
    // The click's point is below the part shown: no frame shows the button it hit.
    const click = bundle.steps.steps.find((s) => s.kind === 'click');
    expect(typeof click?.target === 'object' && click.target?.point ? click.target.point.y : 0).toBeGreaterThan(cut!.shown.height);
  } finally {
    await driven.close();
  }
});

