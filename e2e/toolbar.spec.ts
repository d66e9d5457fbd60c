import { mkdirSync } from 'node:fs';
import { PNG } from 'pngjs';
import type { Page, Worker } from 'playwright-core';
import { test, expect } from './support/fixtures';
import { afr, waitForFrames, waitForNewBundle } from './support/afr';
import { exportBundle, findSecrets } from './support/bundle';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { openPopup } from './support/popup';
import { secretVariants } from './support/secrets';
import { S3_CREDENTIALS, startS3Store } from './support/s3-store';
import { UploadSettingsSchema } from '../schemas/upload';

/**
 * The toolbar button as an operator sees it: the recorder's icon, and a badge that follows the
 * recorder's state (read through chrome.action, as Chrome draws it); and a tab whose debugger the
 * user detached, which the popup explains and whose failures still make bundles.
 */
test.describe.configure({ mode: 'serial' });

let recorder: RecorderBrowser;
test.beforeAll(async () => {
  recorder = await launchWithRecorder();
});
test.afterAll(async () => {
  await recorder?.close();
});

interface SeenBadge {
  text: string;
  color: number[];
  title: string;
}

/** The badge Chrome shows on the tab's toolbar button. */
function badgeOf(worker: Worker, tabId: number): Promise<SeenBadge> {
  return worker.evaluate(async (tabId) => {
    const [text, color, title] = await Promise.all([chrome.action.getBadgeText({ tabId }), chrome.action.getBadgeBackgroundColor({ tabId }), chrome.action.getTitle({ tabId })]);
    return { text, color: [...color], title };
  }, tabId);
}

const RED = [217, 48, 37, 255];
const GREY = [95, 99, 104, 255];
const BLUE = [26, 115, 232, 255];
const ORANGE = [232, 113, 10, 255];
const PURPLE = [132, 48, 206, 255];

async function openShopTab(page: Page, origin: string): Promise<number> {
  await page.goto(`${origin}/signals.html`);
  await waitForFrames(recorder.worker, 1);
  // The capture loop lists the visible tab a moment after it loads.
  const tabOf = async () => (await afr(recorder.worker, 'status')).tabs.find((t) => t.url?.endsWith('/signals.html'))?.tabId;
  await expect.poll(tabOf).toBeDefined();
  return (await tabOf())!;
}

/** Spread of the pixel values of a PNG: 0 for an image of one colour. */
function pixelVariance(png: Buffer): number {
  const { data } = PNG.sync.read(png);
  let sum = 0;
  let squares = 0;
  for (const v of data) {
    sum += v;
    squares += v * v;
  }
  const mean = sum / data.length;
  return squares / data.length - mean * mean;
}

test('the badge follows recording, the pause, a bundle being written, and a bundle Chrome did not save', async ({ site }, testInfo) => {
  const { worker } = recorder;
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const tabId = await openShopTab(page, site.origin);
  await expect.poll(() => badgeOf(worker, tabId)).toEqual({ text: 'REC', color: RED, title: 'Agent Flight Recorder: recording' });

  // The operator pauses and resumes from the popup.
  const popup = await openPopup(recorder);
  await expect(popup.getByTestId('state')).toHaveText('Recording');
  const shot = await popup.screenshot({ path: testInfo.outputPath('popup-recording.png') });
  expect(pixelVariance(shot)).toBeGreaterThan(100);
  await popup.getByTestId('pause-toggle').click();
  await expect(popup.getByTestId('state')).toHaveText('Paused');
  await expect.poll(() => badgeOf(worker, tabId)).toEqual({ text: 'II', color: GREY, title: 'Agent Flight Recorder: paused' });
  await popup.getByTestId('pause-toggle').click();
  await expect(popup.getByTestId('state')).toHaveText('Recording');
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: 'REC', color: RED });
  await popup.close();

  // A bundle takes its after-failure tail to write: the badge shows it under way, then recording again.
  await afr(worker, 'configure', { postFailureSeconds: 2, failureCooldownMs: 0 });
  const first = afr(worker, 'fail', { reason: 'probe', label: 'first' });
  await expect.poll(() => badgeOf(worker, tabId), { intervals: [50] }).toMatchObject({ text: '\u2026', color: BLUE });
  const firstId = await first;
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: 'REC', color: RED });
  expect(findSecrets(await exportBundle(worker, firstId), secretVariants())).toEqual([]);

  // The browser refuses downloads (a driver's acceptDownloads: false): the bundle is not saved where the operator expects it.
  const cdp = await recorder.context.newCDPSession(page);
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'deny' });
  await afr(worker, 'fail', { reason: 'probe', label: 'refused download' });
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: '!', color: ORANGE });
  expect((await badgeOf(worker, tabId)).title).toMatch(/the last bundle failed: Chrome did not save its download \(USER_CANCELED\)/);
  expect((await afr(worker, 'status')).downloads.state).toBe('interrupted');

  // The next bundle that is saved clears it.
  const downloads = testInfo.outputPath('downloads');
  mkdirSync(downloads, { recursive: true });
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await afr(worker, 'fail', { reason: 'probe', label: 'saved' });
  await expect.poll(() => badgeOf(worker, tabId), { timeout: 15_000 }).toMatchObject({ text: 'REC', color: RED });
  await cdp.detach();
});

// eslint-disable-next-line no-empty-pattern
test('the icons are drawn: not one flat colour', async ({}, testInfo) => {
  const page = await recorder.context.newPage();
  const icons = new Map<number, Buffer>();
  for (const size of [16, 32, 48, 128]) {
    const response = await page.goto(`chrome-extension://${recorder.extensionId}/icon/${size}.png`);
    expect(response?.ok()).toBe(true);
    const png = await response!.body();
    expect(PNG.sync.read(png).width).toBe(size);
    expect(pixelVariance(png)).toBeGreaterThan(500);
    icons.set(size, png);
  }
  // Side by side as the browser draws them (the 16 px one enlarged, pixel for pixel), for a person to look at.
  const img = (size: number, width: number) => `<img src="data:image/png;base64,${icons.get(size)!.toString('base64')}" width="${width}" style="image-rendering:pixelated;margin:4px">`;
  await page.goto('about:blank');
  await page.setContent(`<body style="margin:0;background:#dfe3e8">${img(128, 128)}${img(16, 128)}${img(16, 16)}${img(32, 32)}</body>`);
  const shot = await page.screenshot({ clip: { x: 0, y: 0, width: 340, height: 140 }, path: testInfo.outputPath('icons-rendered.png') });
  expect(pixelVariance(shot)).toBeGreaterThan(500);
  await page.close();
});

test('a debugger the user detached: the popup says so, and the page-level fallback makes the exception bundle', async ({ site }, testInfo) => {
  const { worker } = recorder;
  const page = recorder.context.pages()[0]!;
  const tabId = await openShopTab(page, site.origin);
  await expect.poll(async () => (await afr(worker, 'status')).tabs.find((t) => t.tabId === tabId)?.debugger).toBe(true);

  // Closing Chrome's "started debugging this browser" bar closes the extension's session and sends
  // onDetach(canceled_by_user) (debugger_api.cc, WarningUiDestroyed). Headless Chromium draws no bar
  // to click, so the test does the same two things: the session is closed, the event dispatched.
  await worker.evaluate(async (tabId) => {
    await chrome.debugger.detach({ tabId });
    (chrome.debugger.onDetach as unknown as { dispatch(source: chrome.debugger.Debuggee, reason: string): void }).dispatch({ tabId }, 'canceled_by_user');
  }, tabId);
  await expect.poll(async () => (await afr(worker, 'status')).tabs.find((t) => t.tabId === tabId)).toMatchObject({ debugger: false, debuggerError: 'detached: canceled_by_user', signals: 'page' });

  // The person's choice holds: a reload does not attach the debugger again.
  await page.reload();
  await waitForFrames(worker, 1);
  const known = (await afr(worker, 'listBundles')).map((b) => b.id);
  await page.click('#throw');
  const bundle = await exportBundle(worker, await waitForNewBundle(worker, known));
  expect(bundle.manifest.failure_reason).toBe('page_exception');
  expect(bundle.diagnostics.failure).toMatchObject({ origin: 'page_fallback' });
  expect(JSON.stringify(bundle.diagnostics.failure)).toContain('orders list exploded');
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  expect((await afr(worker, 'status')).tabs.find((t) => t.tabId === tabId)).toMatchObject({ debugger: false, signals: 'page' });

  const popup = await openPopup(recorder);
  const note = popup.locator(`li[data-tab-id="${tabId}"] [data-testid="debugger-state"]`);
  await expect(note).toHaveText('debugger off: detached by the user (the \u201Cstarted debugging this browser\u201D bar was closed) \u00B7 page-level signals');
  await expect(note).toHaveAttribute('title', /no console errors, crashes or dialogs/);
  const shot = await popup.screenshot({ path: testInfo.outputPath('popup-debugger-off.png') });
  expect(pixelVariance(shot)).toBeGreaterThan(100);
  await popup.close();
});

test('under scope agent only the run\'s tab shows REC, and keeps it as it navigates', async ({ site }) => {
  const { worker, context } = recorder;
  const page = context.pages()[0]!;
  const tabId = await openShopTab(page, site.origin);
  const other = await context.newPage();
  await other.goto(`${site.origin}/index.html`);
  const otherId = await worker.evaluate(async () => (await chrome.tabs.query({ url: '*://127.0.0.1/*index.html' }))[0]!.id!);
  await page.bringToFront();
  await afr(worker, 'configure', { scope: 'agent' });
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: '', title: 'Agent Flight Recorder: not recording (this tab is outside the recording scope)' });

  await afr(worker, 'runStart', { tabId, agent: 'toolbar-e2e' });
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: 'REC', color: RED });
  expect((await badgeOf(worker, otherId)).text).toBe('');
  // Chrome drops a tab's own badge as it loads another document: the worker sets it again.
  await page.goto(`${site.origin}/index.html`);
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: 'REC', color: RED });
  await page.goto(`${site.origin}/signals.html`);
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: 'REC', color: RED });

  await afr(worker, 'runEnd', { outcome: 'passed' });
  await expect.poll(() => badgeOf(worker, tabId)).toMatchObject({ text: '' });
  await afr(worker, 'configure', { scope: 'all' });
  await expect.poll(() => badgeOf(worker, otherId)).toMatchObject({ text: 'REC', color: RED });
  await other.close();
});

test('a bundle waiting for its upload shows the arrow until the store takes it', async ({ site }) => {
  const { worker } = recorder;
  const page = recorder.context.pages()[0]!;
  const tabId = await openShopTab(page, site.origin);
  const store = await startS3Store();
  try {
    store.down();
    const s3 = { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'toolbar', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey: S3_CREDENTIALS.secretAccessKey };
    await afr(worker, 'configure', { postFailureSeconds: 0, upload: UploadSettingsSchema.parse({ mode: 's3', s3 }) });
    await afr(worker, 'fail', { reason: 'probe', label: 'store down' });
    await expect.poll(() => badgeOf(worker, tabId)).toEqual({ text: '\u2191', color: PURPLE, title: 'Agent Flight Recorder: bundles waiting for upload (1)' });
    store.up();
    await expect.poll(() => badgeOf(worker, tabId), { timeout: 60_000 }).toMatchObject({ text: 'REC', color: RED });
    expect((await afr(worker, 'status')).upload).toMatchObject({ queued: 0, delivered: 1 });
  } finally {
    await afr(worker, 'configure', { upload: UploadSettingsSchema.parse({ mode: 'off' }) });
    await store.close();
  }
});
