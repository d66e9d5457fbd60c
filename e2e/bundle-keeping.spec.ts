import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { test, expect } from './support/fixtures';
import { chromiumPath, EXTENSION_DIR, SILENT_DEBUGGER_SWITCH } from './support/launch';
import { findSecrets, openBundle } from './support/bundle';
import { SECRETS, secretVariants } from './support/secrets';
import { connectRecorder, connectRecorderPuppeteer, RecorderTimeoutError } from '../src/client';
import { keepAutomaticBundle } from '../examples/wait-example';

test('under Playwright: waitForBundle gets the bundle of an HTTP 500, saveBundle keeps it, and status() says the download will not last', async ({ recorder, site, tempDir }) => {
  const rec = await connectRecorder(recorder.context);
  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/checkout.html`);
  await page.fill('#email', SECRETS.email);
  await page.fill('#card-number', SECRETS.card);

  // The docs' example (docs/drivers/where-bundles-go.md): click, wait for the recorder's own bundle, save it.
  const outDir = path.join(tempDir(), 'kept');
  const { bundleId, zipPath: kept } = await keepAutomaticBundle(rec, page, outDir);
  expect(kept).toBe(path.join(outDir, `${bundleId}.zip`));
  const bundle = (await rec.bundles()).find((b) => b.id === bundleId)!;
  expect(bundle).toMatchObject({ reason: 'http_5xx', trigger: 'signal' });
  expect(bundle.url).toContain('/checkout/submit');

  const opened = await openBundle(readFileSync(kept));
  expect(opened.manifest).toMatchObject({ bundle_id: bundle.id, failure_reason: 'http_5xx' });
  expect(findSecrets(opened, secretVariants())).toEqual([]);

  // autoDownload saved it too, but Playwright took the download over: a uuid name in its temporary
  // folder, deleted with the browser.
  await expect.poll(async () => (await rec.status()).downloads?.lastBundleId, { timeout: 15_000 }).toBe(bundle.id);
  const { downloads } = await rec.status();
  expect(downloads).toMatchObject({ state: 'complete', managedByDriver: true });
  expect(downloads!.lastPath).toMatch(/playwright-artifacts-[^/]+\/[0-9a-f-]{36}$/);
  expect(downloads!.hint).toContain('rec.saveBundle');

  // Nothing else comes after it: a clear, typed timeout.
  const late = await rec.waitForBundle({ since: bundle.id, timeoutMs: 1_000 }).catch((e: unknown) => e);
  expect(late).toBeInstanceOf(RecorderTimeoutError);
  expect((late as Error).message).toBe(`waitForBundle: no bundle after ${bundle.id} was stored within 1000 ms`);
});

test('under Puppeteer: the download lands in Chrome’s own folder as agent-flight-recorder/<id>.zip, and waitForBundle works the same', async ({ site, tempDir }) => {
  // Chromium's download folder is $HOME/Downloads: a home of the test's own keeps the machine's clean.
  const home = tempDir();
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    userDataDir: path.join(home, 'profile'),
    env: { ...process.env, HOME: home },
    args: ['--no-sandbox', `--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`, SILENT_DEBUGGER_SWITCH, '--no-first-run'],
  });
  try {
    const rec = await connectRecorderPuppeteer(browser);
    const page = await browser.newPage();
    await page.goto(`${site.origin}/index.html`);
    const since = new Date();
    const waiting = rec.waitForBundle({ since, trigger: 'agent', timeoutMs: 60_000 });
    const id = await rec.fail({ reason: 'agent_failure', label: 'login loop' });
    expect((await waiting).id).toBe(id);

    await expect.poll(async () => (await rec.status()).downloads?.lastBundleId, { timeout: 15_000 }).toBe(id);
    const { downloads } = await rec.status();
    expect(downloads).toMatchObject({ state: 'complete', managedByDriver: false, hint: null });
    expect(downloads!.lastPath).toBe(path.join(home, 'Downloads/agent-flight-recorder', `${id}.zip`));
    expect(existsSync(downloads!.lastPath!)).toBe(true);
  } finally {
    await browser.close();
  }
});
