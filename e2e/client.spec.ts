import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures';
import { chromiumPath, EXTENSION_DIR } from './support/launch';
import { findSecrets, openBundle } from './support/bundle';
import { secretVariants } from './support/secrets';
import { connectRecorder, RECORDER_EXTENSION_ID, RecorderCallError } from '../src/client';
import { runExample } from '../examples/playwright-example';
import { runQuickExample } from '../examples/quick-example';

test("the docs' Playwright example: a run, its steps and a failed assertion end up in a stored, saved, readable bundle", async ({ recorder, site, tempDir }) => {
  const outDir = path.join(tempDir(), 'bundles');

  const { runId, bundleId, zipPath } = await runExample(recorder.context, { shopUrl: site.origin, outDir });

  expect(bundleId).toMatch(/^afr-/);
  expect(zipPath).toBe(path.join(outDir, `${bundleId}.zip`));
  const rec = await connectRecorder(recorder.context);
  const stored = (await rec.bundles()).find((b) => b.id === bundleId);
  expect(stored).toMatchObject({ reason: 'assertion_failed', label: 'checkout shows the order summary' });

  const zip = readFileSync(zipPath!);
  expect(zip.byteLength).toBe(stored?.sizeBytes);
  const bundle = await openBundle(zip);
  expect(bundle.manifest).toMatchObject({ bundle_id: bundleId, run_id: runId, failure_reason: 'assertion_failed' });
  const agentSteps = bundle.steps.steps.filter((s) => s.source === 'agent').map((s) => ({ kind: s.kind, action: s.action, outcome: s.outcome }));
  expect(agentSteps).toEqual(
    expect.arrayContaining([
      { kind: 'agent', action: 'click "Add to cart" on Trail Shoes', outcome: 'ok' },
      { kind: 'agent', action: 'click "Add to cart" on Rain Jacket', outcome: 'ok' },
      { kind: 'assert', action: 'assert the cart holds 2 items', outcome: 'ok' },
      { kind: 'agent', action: 'open the cart', outcome: 'ok' },
      { kind: 'assert', action: 'assert checkout shows the order summary', outcome: 'fail' },
    ]),
  );
  const failed = bundle.steps.steps.find((s) => s.kind === 'assert' && s.outcome === 'fail');
  expect(failed?.detail).toMatchObject({ passed: false, expected: '#order-summary on the page', actual: 'no #order-summary' });
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test("the README's short example: an order the shop answers with HTTP 500 is bundled by the recorder and saved", async ({ site, tempDir }) => {
  const dir = tempDir();
  const zipPath = await runQuickExample({
    extensionDir: EXTENSION_DIR,
    executablePath: chromiumPath(),
    profileDir: path.join(dir, 'profile'),
    shopUrl: site.origin,
    outDir: path.join(dir, 'bundles'),
  });
  expect(path.dirname(zipPath)).toBe(path.join(dir, 'bundles'));
  const bundle = await openBundle(readFileSync(zipPath));
  expect(bundle.manifest).toMatchObject({ failure_reason: 'http_5xx' });
  expect(bundle.manifest.url_at_failure).toContain('/checkout/submit');
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test("the docs' Playwright example launches its own Chromium when given launch options", async ({ site, tempDir }) => {
  const outDir = tempDir();
  const { bundleId, zipPath } = await runExample(
    { extensionDir: EXTENSION_DIR, executablePath: chromiumPath(), headless: process.env.HEADED !== '1', args: ['--no-sandbox'] },
    { shopUrl: site.origin, outDir },
  );
  const bundle = await openBundle(readFileSync(zipPath!));
  expect(bundle.manifest.bundle_id).toBe(bundleId);
  expect(bundle.steps.steps.some((s) => s.source === 'agent' && s.action === 'open the cart')).toBe(true);
  expect(findSecrets(bundle, secretVariants())).toEqual([]);
});

test('the client against the real recorder: settings, errors, fail, export and delete', async ({ recorder, site, tempDir }) => {
  const rec = await connectRecorder(recorder.context, { timeoutMs: 5_000 });
  expect(rec.extensionId).toBe(recorder.extensionId);
  // The manifest key pins the id: every unpacked load on every machine is the same extension.
  expect(rec.extensionId).toBe(RECORDER_EXTENSION_ID);

  expect((await rec.configure({ bufferSeconds: 20 })).bufferSeconds).toBe(20);
  expect((await rec.settings()).bufferSeconds).toBe(20);
  const invalid = await rec.configure({ bufferSeconds: 301 }).catch((e: unknown) => e);
  expect(invalid).toBeInstanceOf(RecorderCallError);
  expect((invalid as Error).message).toMatch(/^afr\.configure: .*bufferSeconds/);

  const page = recorder.context.pages()[0] ?? (await recorder.context.newPage());
  await page.goto(`${site.origin}/index.html`);
  expect((await rec.status()).recording).toBe(true);
  const id = await rec.fail({ reason: 'agent_failure', label: 'gave up' });
  expect((await rec.bundles())[0]?.id).toBe(id);
  const file = await rec.saveBundle(id, path.join(tempDir(), 'a/b/failure.zip'));
  const bundle = await openBundle(readFileSync(file));
  expect(bundle.manifest).toMatchObject({ bundle_id: id, failure_reason: 'agent_failure', failure_label: 'gave up' });
  expect(findSecrets(bundle, secretVariants())).toEqual([]);

  expect(await rec.deleteBundle(id)).toBe(true);
  expect(await rec.deleteBundle(id)).toBe(false);
  await expect(rec.exportBundle(id)).rejects.toThrow(/^afr\.exportBundle: /);
});
