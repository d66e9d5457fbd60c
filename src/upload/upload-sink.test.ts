import { describe, expect, it, vi } from 'vitest';
import type { BundleSummary } from '../../schemas/api';
import { DEFAULT_SETTINGS } from '../../schemas/settings';
import { UploadSettingsSchema, type UploadSettings } from '../../schemas/upload';
import { MemoryOutbox } from '../../test/fakes/memory-outbox';
import { makeBundleZip } from '../../test/fakes/viewer-bundle';
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
  it('queues a stored bundle with its keys, and reads nothing of its zip (hashing is the delivery’s, off the path to the stored bundle)', async () => {
    const zip = new Uint8Array(4096).fill(7); // not even a zip: the sink must not open it
    const { sink, outbox, kicks, settings } = sinkWith(s3);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    await sink.afterStore({ summary, zip }, { settings });
    expect(digest).not.toHaveBeenCalled();
    expect(await outbox.get(summary.id)).toMatchObject({
      state: 'pending',
      zipKey: 'fleet/bundles/2026/11/25/20261125-090000-ab12.zip',
      indexKey: 'fleet/index/2026/11/25/20261125-090000-ab12.json',
      sha256: null,
      index: null,
      sizeBytes: zip.byteLength,
    });
    expect(kicks()).toBe(1);
  });

  it('marks a bundle the store could keep in memory only', async () => {
    const outbox = new MemoryOutbox();
    const sink = uploadSink({ outbox, clock: { now: () => 1_000 }, inMemoryOnly: () => true, kick: () => {} });
    await sink.afterStore({ summary, zip: new Uint8Array(10) }, { settings: { ...DEFAULT_SETTINGS, upload: s3 } });
    expect(await outbox.get(summary.id)).toMatchObject({ state: 'pending', memoryOnly: true });
  });

  it('leaves passing runs home when only failures are delivered', async () => {
    const { sink, outbox, kicks, settings } = sinkWith({ ...s3, include: 'failures' });
    await sink.afterStore({ summary, zip: new Uint8Array(10) }, { settings, status: 'success' });
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
