import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsV4Signer } from 'aws4fetch';
import type { Page } from 'playwright-core';
import { test as base, expect } from '@playwright/test';
import { UploadIndexRecordSchema, UploadSettingsSchema } from '../schemas/upload';
import { connectRecorder } from '../src/client';
import { afr } from './support/afr';
import { openBundle } from './support/bundle';
import { paintNoise } from './support/pixels';
import { launchWithRecorder, type RecorderBrowser } from './support/launch';
import { S3_CREDENTIALS, startS3Store, type S3Store } from './support/s3-store';
import { startSiteServer, type SiteServer } from './support/site-server';

// One browser, one store and one site for the file: each test makes its own bundles.
const test = base.extend<object, { env: { recorder: RecorderBrowser; store: S3Store; site: SiteServer; page: Page } }>({
  env: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const [recorder, store, site] = await Promise.all([launchWithRecorder(), startS3Store(), startSiteServer()]);
      const page = await recorder.context.newPage();
      await page.goto(`${site.origin}/index.html`);
      await use({ recorder, store, site, page });
      await Promise.all([recorder.close(), store.close(), site.close()]);
    },
    { scope: 'worker' },
  ],
});
test.describe.configure({ mode: 'serial' });

const s3Settings = (store: S3Store, secretAccessKey = S3_CREDENTIALS.secretAccessKey) =>
  UploadSettingsSchema.parse({
    mode: 's3',
    s3: { endpoint: store.endpoint, bucket: store.bucket, region: S3_CREDENTIALS.region, prefix: 'fleet/ci', accessKeyId: S3_CREDENTIALS.accessKeyId, secretAccessKey },
  });

async function uploadOf(recorder: RecorderBrowser, id: string) {
  return (await afr(recorder.worker, 'listBundles')).find((b) => b.id === id)?.upload;
}

async function waitForUpload(recorder: RecorderBrowser, id: string, states: string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const upload = await uploadOf(recorder, id);
    if (upload && states.includes(upload.state)) return upload;
    if (Date.now() > deadline) throw new Error(`bundle ${id} upload still ${JSON.stringify(upload)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a failure uploads its zip and then its index object, both as the recorder stored them, and no read-back shows the secret', async ({ env }) => {
  const { recorder, store } = env;
  await afr(recorder.worker, 'configure', { postFailureSeconds: 0, failureCooldownMs: 0, upload: s3Settings(store) });
  const id = await afr(recorder.worker, 'fail', { reason: 'upload_probe', label: 'delivered to the bucket' });
  const upload = await waitForUpload(recorder, id, ['delivered']);
  expect(upload.key).toMatch(new RegExp(`^fleet/ci/bundles/\\d{4}/\\d{2}/\\d{2}/${id}\\.zip$`));

  const objects = await store.objects();
  const zip = objects.get(upload.key!)!;
  const local = Buffer.from(await afr(recorder.worker, 'exportBundle', id), 'base64');
  expect(createHash('sha256').update(zip).digest('hex')).toBe(createHash('sha256').update(local).digest('hex'));
  const index = UploadIndexRecordSchema.parse(JSON.parse(Buffer.from(objects.get(upload.key!.replace('/bundles/', '/index/').replace(/\.zip$/, '.json'))!).toString()));
  expect(index).toMatchObject({ bundle_id: id, reason: 'upload_probe', label: 'delivered to the bucket', zip_key: upload.key, sha256: createHash('sha256').update(zip).digest('hex') });
  // The zip's manifest says where it went, not with what key.
  const bundle = await openBundle(Buffer.from(zip));
  expect(bundle.manifest.settings.upload).toEqual({ mode: 's3', include: 'all' });

  const status = await afr(recorder.worker, 'status');
  expect(status.upload).toMatchObject({ mode: 's3', delivered: 1, failed: 0, queued: 0, lastError: null });
  const readBacks = JSON.stringify([status, await afr(recorder.worker, 'getSettings'), await afr(recorder.worker, 'listBundles')]);
  expect(readBacks).not.toContain(S3_CREDENTIALS.secretAccessKey);
  expect(Buffer.from(zip).includes(Buffer.from(S3_CREDENTIALS.secretAccessKey))).toBe(false);
  // The settings page shows the block, the secret masked in a password input and nowhere in its HTML.
  const options = await recorder.context.newPage();
  await options.goto(`chrome-extension://${recorder.extensionId}/options.html`);
  const secretInput = options.locator('#field-upload-s3-secretAccessKey');
  await expect(secretInput).toHaveValue('••••••••');
  await expect(options.locator('#field-upload-s3-bucket')).toHaveValue(store.bucket);
  expect(await secretInput.getAttribute('type')).toBe('password');
  expect(await options.content()).not.toContain(S3_CREDENTIALS.secretAccessKey);
  await options.close();
  // The settings read back with the secret masked can be sent back as they are: the secret stays.
  const settings = await afr(recorder.worker, 'getSettings');
  await afr(recorder.worker, 'configure', { upload: settings.upload });
  const again = await afr(recorder.worker, 'fail', { reason: 'upload_probe_again' });
  await waitForUpload(recorder, again, ['delivered']);
});

test('with the store down a bundle waits and retries, then is delivered exactly once', async ({ env }) => {
  const { recorder, store } = env;
  store.down();
  const id = await afr(recorder.worker, 'fail', { reason: 'store_outage' });
  const pending = await waitForUpload(recorder, id, ['pending']);
  await expect.poll(async () => (await uploadOf(recorder, id))?.attempts ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  expect(pending.lastError).toMatch(/no answer from the store/);
  expect((await afr(recorder.worker, 'status')).upload).toMatchObject({ queued: 1 });
  store.up();
  // What an agent's harness does: the client waits until the store confirmed the bundle.
  const rec = await connectRecorder(recorder.context);
  const delivered = await rec.waitDelivered(id, { timeoutMs: 90_000 });
  const zipPuts = store.requests.filter((r) => r.method === 'PUT' && r.path.includes(`${id}.zip`) && r.status === 200);
  expect(zipPuts).toHaveLength(1);
  expect([...(await store.objects()).keys()].filter((k) => k.includes(id))).toEqual([delivered.key, delivered.key!.replace('/bundles/', '/index/').replace(/\.zip$/, '.json')].sort());
});

test('a wrong secret fails the bundle with the store’s signature error and no retry storm, until the settings change', async ({ env }) => {
  const { recorder, store } = env;
  await afr(recorder.worker, 'configure', { upload: s3Settings(store, 'not-the-secret') });
  const id = await afr(recorder.worker, 'fail', { reason: 'wrong_secret' });
  const failed = await waitForUpload(recorder, id, ['failed']);
  expect(failed.lastError).toMatch(/HTTP 403 \(SignatureDoesNotMatch/);
  const refusals = () => store.requests.filter((r) => r.status === 403).length;
  const seen = refusals();
  // The periodic alarm and new passes do not try it again while the settings are those it failed with.
  await new Promise((r) => setTimeout(r, 5_000));
  expect(refusals()).toBe(seen);
  expect((await afr(recorder.worker, 'status')).upload).toMatchObject({ failed: 1, lastError: expect.stringMatching(/SignatureDoesNotMatch/) });
  // "Test connection" on the settings page says why, in words, with the secret in force behind the mask.
  const options = await recorder.context.newPage();
  await options.goto(`chrome-extension://${recorder.extensionId}/options.html`);
  await options.getByTestId('test-upload').click();
  await expect(options.getByTestId('test-upload-result')).toContainText(`the secret access key does not belong to ${S3_CREDENTIALS.accessKeyId}`);
  await afr(recorder.worker, 'configure', { upload: s3Settings(store) });
  await options.reload();
  await options.getByTestId('test-upload').click();
  await expect(options.getByTestId('test-upload-result')).toContainText(`Wrote and deleted fleet/ci/probes/afr-probe-`);
  await options.close();
  await afr(recorder.worker, 'fail', { reason: 'secret_fixed' });
  await waitForUpload(recorder, id, ['delivered']);
});

test('presigned mode: the recorder asks the team’s presign service for each object and PUTs to the URL it gets', async ({ env }) => {
  const { recorder, store } = env;
  const asked: { bundleId: string; kind: string; key: string; sha256: string }[] = [];
  // The team's service: it alone holds the store's secret, and presigns one PUT per request.
  const service = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      void (async () => {
        const ask = JSON.parse(body) as (typeof asked)[number];
        asked.push(ask);
        const signed = await new AwsV4Signer({ method: 'PUT', url: `${store.endpoint}/${store.bucket}/${ask.key}`, service: 's3', signQuery: true, ...S3_CREDENTIALS }).sign();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: signed.url.toString(), headers: {} }));
      })();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = `http://127.0.0.1:${(service.address() as AddressInfo).port}/presign`;
    await afr(recorder.worker, 'configure', { upload: UploadSettingsSchema.parse({ mode: 'presigned', presigned: { endpoint } }) });
    const id = await afr(recorder.worker, 'fail', { reason: 'presigned_probe' });
    const upload = await waitForUpload(recorder, id, ['delivered']);
    expect(asked.map((a) => [a.bundleId, a.kind])).toEqual([[id, 'zip'], [id, 'index']]);
    const zip = (await store.objects()).get(upload.key!)!;
    expect(createHash('sha256').update(zip).digest('hex')).toBe(asked[0]!.sha256);
  } finally {
    await new Promise<void>((resolve) => service.close(() => resolve()));
  }
});

test('a bundle over 5 MiB goes up in parts, assembled by the store as the recorder stored it', async ({ env }) => {
  const { recorder, store, page } = env;
  await afr(recorder.worker, 'configure', { upload: s3Settings(store), jpegQuality: 100, bufferSeconds: 6 });
  await paintNoise(page);
  await expect.poll(async () => (await afr(recorder.worker, 'status')).bytes, { timeout: 30_000 }).toBeGreaterThan(7 * 1024 * 1024);
  const id = await afr(recorder.worker, 'fail', { reason: 'large_bundle' });
  const summary = (await afr(recorder.worker, 'listBundles')).find((b) => b.id === id)!;
  expect(summary.sizeBytes).toBeGreaterThan(5 * 1024 * 1024);
  const upload = await waitForUpload(recorder, id, ['delivered'], 120_000);
  const parts = store.requests.filter((r) => r.method === 'PUT' && r.path.includes(`${id}.zip?`) && r.path.includes('partNumber='));
  expect(parts.length).toBe(Math.ceil(summary.sizeBytes / (8 * 1024 * 1024)));
  const local = Buffer.from(await afr(recorder.worker, 'exportBundle', id), 'base64');
  expect(Buffer.from((await store.objects()).get(upload.key!)!).equals(local)).toBe(true);
});
