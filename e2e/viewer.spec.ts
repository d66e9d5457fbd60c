import { chromium, type Page, type Worker } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from './support/fixtures';
import { failureFrame, frameOfStep } from '../src/bundle-format/story';
import { failureTime } from '../src/bundle-format/views';
import { afr, waitForFrames } from './support/afr';
import { exportBundle, findSecrets, type OpenedBundle } from './support/bundle';
import { chromiumPath } from './support/launch';
import { loadExpectedViewer } from '../src/cli/node-io';
import { checkViewerHtml } from '../src/cli/viewer-check';
import { DIAGNOSTICS_FILE, MANIFEST_FILE, NETWORK_HAR_FILE, SNAPSHOT_FILE, STEPS_FILE } from '../src/bundle-format/file-names';
import { openBundleZip } from '../src/bundle-format/open-zip';
import { readJsonFile } from '../src/bundle-format/parse-files';
import type { SiteServer } from './support/site-server';
import { SECRETS, secretVariants } from './support/secrets';

const HOSTILE_ACTION = '<img src=x onerror="window.__afrPwned = 1">';

/** An agent fills a form with secrets, says something with markup in it, and declares a failure. */
async function recordFailure(worker: Worker, site: SiteServer, page: Page): Promise<OpenedBundle> {
  await page.goto(`${site.origin}/secrets.html`);
  await page.fill('#pw', SECRETS.password);
  await page.fill('#mail', SECRETS.email);
  await page.fill('#shipping', 'overnight');
  await page.click('#save');
  await waitForFrames(worker, 5);
  await afr(worker, 'step', { action: HOSTILE_ACTION, outcome: 'ok', label: 'markup from the page' });
  const id = await afr(worker, 'fail', { reason: 'assertion_failed', label: 'settings were not saved' });
  const bundle = await exportBundle(worker, id);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
  return bundle;
}

/** The timeline as the viewer shows it, against `steps.json`. */
async function expectTimelineOf(viewer: Page, bundle: OpenedBundle): Promise<void> {
  const steps = bundle.steps.steps;
  const entries = viewer.locator('[data-testid="timeline"] > li');
  await expect(entries).toHaveCount(steps.length);
  expect(await entries.evaluateAll((items) => items.map((li) => Number((li as HTMLElement).dataset.seq)))).toEqual(steps.map((s) => s.seq));
  expect(await viewer.locator('[data-testid="timeline"] .afr-step-action').allTextContents()).toEqual(steps.map((s) => s.action));
  expect(await entries.evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.kind))).toEqual(steps.map((s) => s.kind));
  // Typing into the password field is a step whose value shows only as "redacted".
  const redactedSeq = steps.find((s) => s.value_redacted)!.seq;
  await expect(viewer.locator(`[data-testid="timeline"] > li[data-seq="${redactedSeq}"] .afr-redacted`)).toHaveText('redacted');
  // Markup in a step is text on the page, and did not run.
  await expect(viewer.locator('[data-testid="timeline"] .afr-step-action', { hasText: HOSTILE_ACTION })).toHaveCount(1);
  expect(await viewer.evaluate(() => (window as unknown as { __afrPwned?: number }).__afrPwned)).toBeUndefined();
  expect(await viewer.locator('img[src="x"]').count()).toBe(0);
}

/** Waits until the frame on screen is `name` and its JPEG has decoded. */
async function expectFrame(viewer: Page, bundle: OpenedBundle, index: number): Promise<void> {
  const frame = bundle.manifest.frames[index]!;
  const image = viewer.locator('[data-testid="frame-image"]');
  await expect(image).toHaveAttribute('data-frame', frame.name);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(frame.width);
  await expect(viewer.locator('[data-testid="frame-counter"]')).toHaveText(`frame ${index + 1} / ${bundle.manifest.frames.length}`);
}

test('the extension page viewer.html?id= shows a stored bundle: timeline, frames, keyboard, snapshot, clip', async ({ recorder, site }, testInfo) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const bundle = await recordFailure(recorder.worker, site, page);

  const viewer = await recorder.context.newPage();
  const pageErrors: string[] = [];
  viewer.on('pageerror', (error) => pageErrors.push(String(error)));
  await viewer.goto(`chrome-extension://${recorder.extensionId}/viewer.html?id=${bundle.manifest.bundle_id}`);
  await expect(viewer.locator('[data-testid="failure-reason"]')).toHaveText('assertion_failed');
  await expect(viewer.locator('[data-testid="failure-label"]')).toHaveText('settings were not saved');
  await expectTimelineOf(viewer, bundle);
  // It opens at the failure (the screen at the failure); the scrubber goes back to the start.
  await expectFrame(viewer, bundle, failureFrame(bundle.manifest.frames, failureTime(bundle)));
  await viewer.locator('[data-testid="scrubber"]').fill('0');
  await expectFrame(viewer, bundle, 0);
  await expect(viewer.locator('[data-testid="snapshot"] [data-testid="redacted"]').first()).toHaveText(/^redacted: /);
  await expect(viewer.locator('[data-testid="snapshot"] [data-testid="redacted"]', { hasText: 'redacted: password' }).first()).toBeVisible();
  await viewer.screenshot({ path: testInfo.outputPath('viewer-extension.png') });

  // → steps through the frames, ← goes back.
  for (let i = 1; i <= 3; i++) {
    await viewer.keyboard.press('ArrowRight');
    await expectFrame(viewer, bundle, i);
  }
  await viewer.keyboard.press('ArrowLeft');
  await expectFrame(viewer, bundle, 2);

  // Clicking the failure signal jumps to its frame, the screen then (frames of the after-failure tail follow it).
  const signal = bundle.steps.steps.filter((s) => s.kind === 'signal').at(-1)!;
  await viewer.locator('[data-testid="timeline"] > li[data-kind="signal"] button').last().click();
  await expectFrame(viewer, bundle, frameOfStep(bundle.manifest.frames, signal));
  await viewer.screenshot({ path: testInfo.outputPath('viewer-extension-last-frame.png') });

  // The clip plays in Chromium and the scrubber follows it.
  const clip = viewer.locator('[data-testid="clip"]');
  await expect.poll(() => clip.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await clip.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(bundle.manifest.clip!.duration_seconds, 0);
  await viewer.locator('[data-testid="timeline"] > li button').first().click();
  await expectFrame(viewer, bundle, frameOfStep(bundle.manifest.frames, bundle.steps.steps[0]!));
  await viewer.keyboard.press('Space');
  await expect(viewer.locator('[data-testid="play"]')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => clip.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
  await expect.poll(async () => Number(await viewer.locator('[data-testid="scrubber"]').inputValue()), { timeout: 10_000 }).toBeGreaterThan(0);
  await viewer.keyboard.press('Space');
  await expect(viewer.locator('[data-testid="play"]')).toHaveAttribute('aria-pressed', 'false');

  // Without an id: the stored bundles are listed, and a picked zip opens; a broken one is explained.
  await viewer.goto(`chrome-extension://${recorder.extensionId}/viewer.html`);
  await expect(viewer.locator(`a[href="?id=${bundle.manifest.bundle_id}"]`)).toContainText('settings were not saved');
  await viewer.locator('[data-testid="file-input"]').setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(viewer.locator('[data-testid="error"]')).toContainText('Cannot show broken.zip');
  await viewer.screenshot({ path: testInfo.outputPath('viewer-extension-error.png') });
  await viewer.locator('[data-testid="file-input"]').setInputFiles({ name: 'bundle.zip', mimeType: 'application/zip', buffer: bundle.zip });
  await expectTimelineOf(viewer, bundle);
  await expectFrame(viewer, bundle, failureFrame(bundle.manifest.frames, failureTime(bundle)));
  expect(pageErrors).toEqual([]);
});

test('viewer.html inside the zip shows the bundle from file:// without making a single network request', async ({ recorder, site }, testInfo) => {
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  const bundle = await recordFailure(recorder.worker, site, page);
  expect(bundle.manifest.artifacts.map((a) => a.name), 'the background passes the viewer script to the packager').toContain('viewer.html');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-extracted-'));
  for (const [name, data] of bundle.files) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  // A browser without the extension, as someone who was sent the zip would have.
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const blocked: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (!/^https?:/i.test(url)) return route.continue();
      blocked.push(url);
      return route.abort('blockedbyclient');
    });
    const viewer = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    viewer.on('request', (request) => requests.push(request.url()));
    viewer.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    viewer.on('pageerror', (error) => problems.push(String(error)));

    await viewer.goto(pathToFileURL(path.join(dir, 'viewer.html')).href);
    await expect(viewer).toHaveTitle(`assertion_failed \u00B7 ${bundle.manifest.bundle_id} \u00B7 Agent Flight Recorder`);
    await expectTimelineOf(viewer, bundle);
    await expectFrame(viewer, bundle, failureFrame(bundle.manifest.frames, failureTime(bundle)));
    await viewer.locator('[data-testid="scrubber"]').fill('0');
    await expectFrame(viewer, bundle, 0);
    await viewer.keyboard.press('ArrowRight');
    await viewer.keyboard.press('ArrowRight');
    await expectFrame(viewer, bundle, 2);
    await expect(viewer.locator('[data-testid="snapshot"] [data-testid="redacted"]', { hasText: 'redacted: password' }).first()).toBeVisible();
    await expect(viewer.locator('[data-testid="diagnostics"]')).toContainText('assertion_failed');
    const clip = viewer.locator('[data-testid="clip"]');
    await expect.poll(() => clip.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    await viewer.screenshot({ path: testInfo.outputPath('viewer-file.png') });
    await viewer.screenshot({ path: testInfo.outputPath('viewer-file-full-page.png'), fullPage: true });

    expect(blocked).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(pathToFileURL(dir).href))).toEqual([]);
    expect(requests).toEqual(expect.arrayContaining([pathToFileURL(path.join(dir, 'frames/frame_0001.jpeg')).href]));
    // No CSP violation either: the page's hashes name its own script and style, and nothing else runs.
    expect(problems).toEqual([]);
    expect(bundle.files.get('viewer.html')!.toString('utf8')).not.toContain('unsafe-inline');
    // The page the extension's build wrote is the one `afr validate` makes of this checkout's sources.
    const archive = await openBundleZip(new Uint8Array(bundle.zip));
    const json = new Map<string, unknown>();
    for (const file of [MANIFEST_FILE, STEPS_FILE, DIAGNOSTICS_FILE, SNAPSHOT_FILE, NETWORK_HAR_FILE]) {
      const read = readJsonFile(archive, file);
      if (read.ok) json.set(file, read.value);
    }
    expect(await checkViewerHtml(archive, json, await loadExpectedViewer())).toEqual([]);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
