import { describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { UploadIndexRecordSchema, UploadSettingsSchema, type UploadSettings } from '../../schemas/upload';
import { MemoryOutbox } from '../../test/fakes/memory-outbox';
import { makeBundleContents, makeBundleZip } from '../../test/fakes/viewer-bundle';
import { checksumsOf } from './checksums';
import { uploadSink } from './upload-sink';

const summary: BundleSummary = {
  id: '20261125-090000-ab12',
  createdAt: '2026-11-25T09:00:00.000Z',
  reason: 'assertion_failed',
  label: null,
  tabId: 3,
  url: 'https://shop.test/checkout?session=abc',
  sizeBytes: 0,
  downloadId: null,
  trigger: 'agent',
};

function sinkWith(upload: UploadSettings, outbox = new MemoryOutbox()) {
  const settings = { ...DEFAULT_SETTINGS, upload };
  let kicks = 0;
  const sink = uploadSink({
    outbox,
    origin: () => ({ extensionVersion: '0.1.0', browserVersion: 'Chromium 156.0' }),
    clock: { now: () => 1_000 },
    kick: () => kicks++,
  });
  return { sink, outbox, settings, kicks: () => kicks };
}

const s3 = UploadSettingsSchema.parse({
  mode: 's3',
  s3: { endpoint: 'http://127.0.0.1:9000', bucket: 'runs', prefix: 'fleet/', accessKeyId: 'AKIDFLEET', secretAccessKey: 'fleet-secret' },
});

describe('uploadSink', () => {
  it('queues a stored bundle with its keys, checksum and index record read from its manifest', async () => {
    const zip = await makeBundleZip();
    const { sink, outbox, kicks, settings } = sinkWith(s3);
    await sink.afterStore({ summary, zip }, { settings });
    const entry = (await outbox.get(summary.id))!;
    expect(entry).toMatchObject({
      state: 'pending',
      zipKey: 'fleet/bundles/2026/11/25/20261125-090000-ab12.zip',
      indexKey: 'fleet/index/2026/11/25/20261125-090000-ab12.json',
      sha256: (await checksumsOf(zip)).sha256Hex,
      sizeBytes: zip.byteLength,
    });
    expect(UploadIndexRecordSchema.parse(entry.index)).toMatchObject({
      bundle_id: summary.id,
      run_id: 'run-1',
      status: 'failure',
      reason: 'assertion_failed',
      url: 'https://shop.test/checkout',
      extension_version: '0.1.0',
      browser_version: 'Chromium 156.0',
    });
    expect(kicks()).toBe(1);
  });

  it('leaves passing runs home when only failures are delivered', async () => {
    const contents = makeBundleContents();
    const zip = await makeBundleZip({ manifest: { ...contents.manifest, status: 'success', failure_reason: 'run_passed' } });
    const { sink, outbox, kicks, settings } = sinkWith({ ...s3, include: 'failures' });
    await sink.afterStore({ summary, zip }, { settings });
    expect(await outbox.get(summary.id)).toMatchObject({ state: 'skipped' });
    expect(kicks()).toBe(0);
  });

  it('queues nothing while delivery is off', async () => {
    const { sink, outbox, settings } = sinkWith(UploadSettingsSchema.parse({}));
    await sink.afterStore({ summary, zip: await makeBundleZip() }, { settings });
    expect(await outbox.list()).toEqual([]);
  });
});

describe('UploadSettingsSchema', () => {
  it('wants what the mode needs, and https endpoints (http on loopback only)', () => {
    expect(UploadSettingsSchema.safeParse({ mode: 's3' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['s3.endpoint', 's3.bucket', 's3.accessKeyId', 's3.secretAccessKey']);
    expect(UploadSettingsSchema.safeParse({ mode: 'presigned', presigned: { endpoint: 'http://presign.example.com' } }).success).toBe(false);
    expect(UploadSettingsSchema.safeParse({ mode: 'presigned', presigned: { endpoint: 'http://127.0.0.1:8080/presign' } }).success).toBe(true);
    expect(UploadSettingsSchema.safeParse({ mode: 'presigned', presigned: { endpoint: 'https://user:pw@presign.example.com' } }).success).toBe(false);
    expect(UploadSettingsSchema.safeParse({ s3: { prefix: 'a/../b' } }).success).toBe(false);
  });
});
