import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { test, expect } from '@playwright/test';
import { buildFleetPackage } from '../scripts/build-crx';
import { afr } from './support/afr';
import { findSecrets, openBundle } from './support/bundle';
import { secretVariants } from './support/secrets';
import { EXTENSION_DIR, chromiumPath } from './support/launch';
import { policySkipReason, serveFleetPackage, writeManagedPolicy } from './support/fleet-policy';
import { S3_CREDENTIALS, startS3Store } from './support/s3-store';
import { startSiteServer } from './support/site-server';

/**
 * How a fleet installs the recorder where `--load-extension` is ignored (branded Chrome 137+): the
 * `ExtensionInstallForcelist` policy names the extension id and a self-hosted update manifest, Chrome
 * fetches the signed `.crx` it points at, and the `3rdparty` policy block carries the delivery
 * settings. Nobody touches the browser: the first failure lands in the bucket.
 */
test('installed by policy from a self-hosted update manifest, the recorder starts with the managed upload settings and delivers a failure to the bucket', async () => {
  const skip = policySkipReason();
  if (skip) console.log(`[fleet-install] skipped: ${skip}`);
  test.skip(skip !== null, skip ?? '');
  test.setTimeout(180_000);

  const work = mkdtempSync(path.join(os.tmpdir(), 'afr-fleet-'));
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-fleet-profile-'));
  const [store, site] = await Promise.all([startS3Store('fleet-runs'), startSiteServer()]);
  const updates = await serveFleetPackage(path.join(work, 'out'));
  let policy: { remove(): void } | null = null;
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | null = null;
  try {
    // A fresh key for the run: the id is the key's, so nothing of an earlier run is reused.
    const fleet = await buildFleetPackage({ extensionDir: EXTENSION_DIR, outDir: path.join(work, 'out'), keyPath: path.join(work, 'key.pem'), baseUrl: updates.baseUrl });
    const upload = {
      mode: 's3',
      s3: { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'fleet', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey: S3_CREDENTIALS.secretAccessKey },
    };
    // In place from just before the launch until the checks are done (other Chromium instances on this
    // machine read the same folder; the forcelist names only this run's id).
    policy = writeManagedPolicy(`afr-fleet-install-${fleet.id}.json`, {
      ExtensionInstallForcelist: [fleet.forcelistEntry],
      // DevTools (and so Playwright) may not attach to policy-installed extensions by default.
      DeveloperToolsAvailability: 1,
      '3rdparty': { extensions: { [fleet.id]: { upload, postFailureSeconds: 0 } } },
    });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath(),
      headless: true,
      viewport: { width: 1280, height: 720 },
      // No --load-extension: the policy installs it. The extension updater is what downloads a
      // force-installed extension, and these switches of Playwright's defaults switch it (or all extensions) off.
      ignoreDefaultArgs: ['--disable-extensions', '--disable-background-networking', '--disable-component-update', '--disable-default-apps'],
      args: ['--no-sandbox', '--no-first-run', '--disable-sync', '--disable-gpu'],
    });
    const ours = (url: string) => url.startsWith(`chrome-extension://${fleet.id}/`);
    const worker = context.serviceWorkers().find((w) => ours(w.url())) ?? (await context.waitForEvent('serviceworker', { predicate: (w) => ours(w.url()), timeout: 60_000 }));
    expect(updates.requests).toEqual(expect.arrayContaining(['/updates.xml', `/agent-flight-recorder-${fleet.version}.crx`]));

    // The managed block is in force once the worker read the policy.
    await expect.poll(async () => (await afr(worker, 'status')).upload, { timeout: 30_000 }).toMatchObject({ mode: 's3', managed: true });
    const settings = await afr(worker, 'getSettings');
    expect(settings.upload.s3).toMatchObject({ bucket: 'fleet-runs', secretAccessKey: '••••••••' });
    await expect(afr(worker, 'configure', { upload: { ...settings.upload, mode: 'off' } })).rejects.toThrow(/upload is set by your organization's policy/);

    const page = await context.newPage();
    await page.goto(`${site.origin}/index.html`);
    const id = await afr(worker, 'fail', { reason: 'fleet_install', label: 'no manual step' });
    await expect.poll(async () => (await afr(worker, 'listBundles')).find((b) => b.id === id)?.upload?.state, { timeout: 60_000 }).toBe('delivered');
    const key = (await afr(worker, 'listBundles')).find((b) => b.id === id)!.upload!.key!;
    const objects = await store.objects();
    const local = Buffer.from(await afr(worker, 'exportBundle', id), 'base64');
    expect(createHash('sha256').update(objects.get(key)!).digest('hex')).toBe(createHash('sha256').update(local).digest('hex'));
    expect([...objects.keys()].some((k) => k.startsWith('fleet/index/') && k.endsWith(`${id}.json`))).toBe(true);

    // The options page shows the bucket as policy sets it, read-only, and no secret in its HTML.
    const options = await context.newPage();
    await options.goto(`chrome-extension://${fleet.id}/options.html`);
    const bucket = options.locator('#field-upload-s3-bucket');
    await expect(bucket).toHaveValue('fleet-runs');
    await expect(bucket).toBeDisabled();
    await expect(options.getByTestId('managed-upload.s3.bucket')).toContainText('Set by your organization');
    await expect(options.locator('#field-bufferSeconds')).toBeEnabled();
    expect(await options.content()).not.toContain(S3_CREDENTIALS.secretAccessKey);
    expect(findSecrets(await openBundle(local), [...secretVariants(), S3_CREDENTIALS.secretAccessKey])).toEqual([]);
  } finally {
    policy?.remove();
    await context?.close();
    await Promise.all([store.close(), site.close(), updates.close()]);
    rmSync(work, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
});
