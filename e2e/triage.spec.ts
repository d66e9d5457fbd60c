import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { AwsClient } from 'aws4fetch';
import { expect, test } from '@playwright/test';
import type { FailureGroup } from '../src/triage/failure-groups';
import { FAILURES, indexRecord } from '../test/fixtures/cli/triage-fleet';
import { makeBundle } from '../test/fixtures/cli/make-bundle';
import { launchWithRecorder, ROOT_DIR } from './support/launch';
import { S3_CREDENTIALS, startS3Store } from './support/s3-store';

/*
 * `afr triage` against a real S3-protocol store on loopback (s3rver behind a front that checks SigV4
 * signatures, query-signed links included). The six index objects are the ones the recorder writes for
 * six failures of three causes from two agents (an exception carrying its order id and time, a 503 on
 * one API with other query values, a failed assertion): their fingerprints come from the recorder's own
 * fingerprint code over each failure's facts (`test/fixtures/cli/triage-fleet.ts`), and a bundle zip
 * lies at each `zip_key`. (Producing them through the extension would take six signal bundles and
 * their deliveries; delivery of real bundles and their index objects is `upload.spec.ts`'s.)
 */

const run = promisify(execFile);

test('six failures of three causes from two agents fold into groups of 3, 2 and 1; the HTML report opens with its chart, makes no request, and its presigned links read the bundles', async () => {
  const store = await startS3Store();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-triage-e2e-'));
  try {
    // Written as the recorder writes them (aws4fetch, path style).
    const signer = new AwsClient({ ...S3_CREDENTIALS, service: 's3' });
    const put = async (key: string, body: Uint8Array | string) => {
      const response = await signer.fetch(`${store.endpoint}/${store.bucket}/${key}`, { method: 'PUT', body: typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]) });
      expect(response.status, key).toBe(200);
    };
    const now = Date.now();
    const zip = await makeBundle();
    for (const [i, failure] of FAILURES.entries()) {
      const [key, record] = indexRecord(i + 1, failure, 'fleet', now);
      await put(record.zip_key, zip);
      await put(key, JSON.stringify(record));
    }
    const env = {
      ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', AWS_ENDPOINT_URL_S3: store.endpoint,
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey, AWS_REGION: S3_CREDENTIALS.region,
    };
    const afr = (...args: string[]) => run(process.execPath, [path.join(ROOT_DIR, 'bin/afr.mjs'), ...args], { env, cwd: dir });

    const { stdout } = await afr('triage', `s3://${store.bucket}/fleet`, '--since', '2h', '--json');
    const { groups, failures } = JSON.parse(stdout) as { groups: FailureGroup[]; failures: number };
    expect(failures).toBe(6);
    expect(groups.map((g) => [g.reason, g.count, g.agents, g.trend])).toEqual([
      ['page_exception', 3, ['checker', 'shopper'], 'new'],
      ['http_5xx', 2, ['checker', 'shopper'], 'new'],
      ['assertion_failed', 1, ['checker'], 'new'],
    ]);
    expect(groups[1]!.signature).toContain('GET shop.test/api/stock 503');

    const report = path.join(dir, 'report.html');
    const printed = await afr('triage', `s3://${store.bucket}/fleet`, '--since', '2h', '--html', report, '--presign');
    expect(printed.stdout).toContain('report written to');
    const html = readFileSync(report, 'utf8');
    const presigned = [...html.matchAll(/<a href="(http:\/\/127\.0\.0\.1:\d+\/[^"]+)" rel="noreferrer" class="muted">zip<\/a>/g)].map((m) => m[1]!.replaceAll('&#38;', '&'));
    expect(presigned).toHaveLength(6);
    // A presigned link reads the zip with no credentials, through the front that checks signatures.
    const response = await fetch(presigned[0]!);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(zip);

    const recorder = await launchWithRecorder();
    try {
      const page = await recorder.context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const url = pathToFileURL(report).href;
      await page.goto(url);
      await expect(page.locator('#chart polyline.series')).toHaveCount(3);
      await expect(page.locator('tbody tr')).toHaveCount(3);
      await expect(page.locator('tbody tr').first()).toContainText('NEW');
      expect(await page.locator('#chart').boundingBox()).toMatchObject({ width: 720, height: 200 });
      expect(requests).toEqual([url]);
      // The first bundle's link opens it in the recorder's viewer (`?bundle=`), which reads the presigned link.
      const viewerLink = await page.locator('tbody tr a').first().getAttribute('href');
      expect(viewerLink).toMatch(new RegExp(`^chrome-extension://${recorder.extensionId}/viewer\\.html\\?bundle=http%3A%2F%2F127\\.0\\.0\\.1`));
      const viewer = await recorder.context.newPage();
      await viewer.goto(viewerLink!);
      await expect(viewer.locator('body')).toContainText('afr-20261122T120000Z-test01', { timeout: 30_000 });
    } finally {
      await recorder.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
