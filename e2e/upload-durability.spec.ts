import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { test, expect } from '@playwright/test';
import { UploadSettingsSchema } from '../schemas/upload';
import { afr } from './support/afr';
import { paintNoise } from './support/pixels';
import { findSecrets, openBundle } from './support/bundle';
import { secretVariants } from './support/secrets';
import { launchWithRecorder } from './support/launch';
import { launchWithStorageQuota } from './support/storage-quota';
import { S3_CREDENTIALS, startS3Store, type S3Store } from './support/s3-store';
import { startSiteServer, type SiteServer } from './support/site-server';

const s3Settings = (store: S3Store) =>
  UploadSettingsSchema.parse({
    mode: 's3',
    s3: { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'durable', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey: S3_CREDENTIALS.secretAccessKey },
  });

async function uploadOf(worker: Worker, id: string) {
  return (await afr(worker, 'listBundles')).find((b) => b.id === id)?.upload;
}

let store: S3Store;
let site: SiteServer;
test.beforeAll(async () => {
  [store, site] = await Promise.all([startS3Store('durable-runs'), startSiteServer()]);
});
test.afterAll(async () => {
  await Promise.all([store.close(), site.close()]);
});
test.describe.configure({ mode: 'serial' });

test('a browser closed mid multipart upload resumes on the next start at the first part not confirmed, and makes exactly one object', async () => {
  test.setTimeout(180_000);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'afr-restart-profile-'));
  let recorder = await launchWithRecorder({ profile });
  try {
    await afr(recorder.worker, 'configure', { upload: s3Settings(store), jpegQuality: 100, bufferSeconds: 10, postFailureSeconds: 0, autoDownload: false });
    const page = await recorder.context.newPage();
    await page.goto(`${site.origin}/index.html`);
    await paintNoise(page);
    await expect.poll(async () => (await afr(recorder.worker, 'status')).bytes, { timeout: 60_000 }).toBeGreaterThan(12 * 1024 * 1024);
    // The network goes as soon as the store confirmed part 1: part 2 is on its way when the browser closes.
    store.downAfter((r) => r.method === 'PUT' && r.path.includes('partNumber=1&') && r.status === 200);
    const id = await afr(recorder.worker, 'fail', { reason: 'restart_mid_upload' });
    const size = (await afr(recorder.worker, 'listBundles')).find((b) => b.id === id)!.sizeBytes;
    expect(size).toBeGreaterThan(8 * 1024 * 1024); // two parts at least
    const local = Buffer.from(await afr(recorder.worker, 'exportBundle', id), 'base64');
    const zipRequests = () => store.requests.filter((r) => r.path.startsWith(`/${store.bucket}/durable/bundles/`) && r.path.includes(`${id}.zip`));
    await expect.poll(() => zipRequests().some((r) => r.path.includes('partNumber=2&')), { timeout: 60_000 }).toBe(true);
    await recorder.context.close();

    store.up();
    recorder = await launchWithRecorder({ profile });
    await expect.poll(async () => (await uploadOf(recorder.worker, id))?.state, { timeout: 90_000 }).toBe('delivered');
    const objects = await store.objects();
    const zips = [...objects.keys()].filter((k) => k.endsWith(`${id}.zip`));
    expect(zips).toHaveLength(1);
    expect(Buffer.from(objects.get(zips[0]!)!).equals(local)).toBe(true);
    expect(findSecrets(await openBundle(local), [...secretVariants(), S3_CREDENTIALS.secretAccessKey])).toEqual([]);
    // Resumed, not started over: one multipart upload, part 1 sent once.
    expect(zipRequests().filter((r) => r.method === 'POST' && r.path.includes('uploads='))).toHaveLength(1);
    expect(zipRequests().filter((r) => r.method === 'PUT' && r.path.includes('partNumber=1&'))).toHaveLength(1);
    expect([...objects.keys()].filter((k) => k.endsWith(`${id}.json`))).toHaveLength(1);
  } finally {
    store.up();
    await recorder.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function stopWorker(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string; targetId: string }[] };
  const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'))!;
  await cdp.send('Target.closeTarget', { targetId: target.targetId });
  await cdp.detach();
}

test('a bundle IndexedDB refuses waits for delivery in extension storage, survives a worker stop, and is delivered', async () => {
  test.setTimeout(180_000);
  // A full disk: IndexedDB refuses the recorder's writes.
  const quotaLimited = await launchWithStorageQuota();
  const { recorder, page } = quotaLimited;
  try {
    const logs: string[] = [];
    recorder.worker.on('console', (m) => logs.push(m.text()));
    await afr(recorder.worker, 'configure', { upload: s3Settings(store), postFailureSeconds: 0, failureCooldownMs: 0, autoDownload: false });
    await page.goto(`${site.origin}/errors.html`); // a spinner: frames all the time
    await expect.poll(async () => (await afr(recorder.worker, 'status')).storage.quotaErrors, { timeout: 30_000 }).toBeGreaterThan(0);

    // The store is away: the bundle waits, IndexedDB has no room for it or its outbox entry.
    store.down();
    const id = await afr(recorder.worker, 'fail', { reason: 'disk_full' });
    await expect.poll(async () => (await uploadOf(recorder.worker, id))?.state, { timeout: 15_000 }).toBe('pending');
    expect(logs).toContainEqual(expect.stringMatching(/^\[afr\] bundle kept in extension storage, IndexedDB refused it: QuotaExceededError/));
    expect((await afr(recorder.worker, 'status')).upload?.memoryOnly ?? 0).toBe(0);
    const local = Buffer.from(await afr(recorder.worker, 'exportBundle', id), 'base64');

    // The worker stops before the store is back: the next one finds the bundle and delivers it.
    await stopWorker(recorder.context, page);
    store.up();
    let worker: Worker | undefined;
    await expect
      .poll(
        async () => {
          worker = recorder.context.serviceWorkers().find((w) => w.url().endsWith('/background.js'));
          return worker ? ((await uploadOf(worker, id).catch(() => undefined))?.state ?? null) : null;
        },
        { timeout: 90_000 },
      )
      .toBe('delivered');
    const objects = await store.objects();
    const zips = [...objects.keys()].filter((k) => k.endsWith(`${id}.zip`));
    expect(zips).toHaveLength(1);
    expect(Buffer.from(objects.get(zips[0]!)!).equals(local)).toBe(true);
    expect((await afr(worker!, 'status')).recording).toBe(true);
    expect(findSecrets(await openBundle(local), [...secretVariants(), S3_CREDENTIALS.secretAccessKey])).toEqual([]);
  } finally {
    store.up();
    await quotaLimited.close();
  }
});
