import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBundleZip } from '../../test/fakes/viewer-bundle';
import type { OutboxEntry } from '../../schemas/upload';
import { UploadIndexRecordSchema } from '../../schemas/upload';
import { MemoryOutbox } from '../../test/fakes/memory-outbox';
import { FakeS3 } from '../../test/fakes/s3-store';
import { checksumsOf } from './checksums';
import { Delivery, type DeliveryOptions } from './delivery';
import { objectKeys } from '../bundle-format/bucket-layout';
import { newEntry } from './outbox';
import { s3Target } from './s3-target';

const credentials = { accessKeyId: 'AKIDFLEET', secretAccessKey: 'fleet-secret', region: 'us-east-1' };
const config = { endpoint: 'http://127.0.0.1:9000', bucket: 'runs', forcePathStyle: true, ...credentials };

let now: number;
let store: FakeS3;
let outbox: MemoryOutbox;
let bundles: Map<string, Uint8Array>;
let logs: string[];

beforeEach(() => {
  now = Date.UTC(2026, 10, 25, 9, 0, 0);
  store = new FakeS3('runs', credentials);
  outbox = new MemoryOutbox();
  bundles = new Map();
  logs = [];
});

function delivery(options: Partial<DeliveryOptions> & { secret?: string } = {}): Delivery {
  const target = s3Target({ ...config, secretAccessKey: options.secret ?? credentials.secretAccessKey }, store.fetch);
  return new Delivery({
    outbox,
    readBundle: async (id) => bundles.get(id),
    activeTarget: async () => ({ target, settingsKey: options.secret ?? 'right' }),
    origin: () => ({ extensionVersion: '0.1.0', browserVersion: 'Chromium 156' }),
    clock: { now: () => now },
    random: () => 1,
    log: (m) => logs.push(m),
    multipartFromBytes: 1024,
    partBytes: 1024,
    backoff: { baseMs: 1_000, capMs: 60_000, floorMs: 100 },
    ...options,
  });
}

async function queue(id: string, size = 100): Promise<OutboxEntry> {
  const zip = new Uint8Array(size).map((_, i) => (i * 7 + id.length) % 251);
  bundles.set(id, zip);
  const sums = await checksumsOf(zip);
  const keys = objectKeys('fleet', id, new Date(now).toISOString());
  const index = UploadIndexRecordSchema.parse({
    index_version: 1,
    bundle_id: id,
    run_id: 'run-1',
    agent: 'checkout-bot',
    agent_version: '2.0',
    status: 'failure',
    reason: 'uncaught_exception',
    label: null,
    url: 'https://shop.example/checkout',
    started_at: new Date(now - 15_000).toISOString(),
    ended_at: new Date(now).toISOString(),
    frame_count: 3,
    size_bytes: size,
    sha256: sums.sha256Hex,
    zip_key: keys.zip,
    extension_version: '0.1.0',
    browser_version: 'Chromium 156',
  });
  // As a first attempt leaves it: hashed, its index object made.
  const entry = { ...newEntry({ id, sizeBytes: size }, keys, now, false), sha256: sums.sha256Hex, index };
  await outbox.put(entry);
  return entry;
}

describe('Delivery', () => {
  it('writes the zip, then its index object, and marks the bundle delivered', async () => {
    const entry = await queue('b1');
    expect(await delivery().run()).toBeNull();
    expect(store.keys()).toEqual(['fleet/bundles/2026/11/25/b1.zip', 'fleet/index/2026/11/25/b1.json']);
    expect(store.objects.get(entry.zipKey)).toEqual(bundles.get('b1'));
    expect(UploadIndexRecordSchema.parse(JSON.parse(new TextDecoder().decode(store.objects.get(entry.indexKey))))).toEqual(entry.index);
    expect(await outbox.get('b1')).toMatchObject({ state: 'delivered', attempts: 1, deliveredAt: now, lastError: null });
    expect(store.requests.map((r) => r.method)).toEqual(['PUT', 'PUT']);
  });

  it('keeps a bundle pending while the store is down, then delivers it exactly once', async () => {
    await queue('b1');
    const d = delivery();
    store.down = true;
    const next = await d.run();
    expect(next).toBe(now + 1_000);
    expect(await outbox.get('b1')).toMatchObject({ state: 'pending', attempts: 1, lastError: expect.stringMatching(/no answer from the store/) });
    // Not due yet: nothing is tried.
    store.down = false;
    await d.run();
    expect(store.objects.size).toBe(0);
    now += 1_000;
    expect(await d.run()).toBeNull();
    expect(store.keys()).toHaveLength(2);
    expect(store.requests.filter((r) => r.method === 'PUT' && r.key.endsWith('.zip'))).toHaveLength(1);
    expect(await outbox.get('b1')).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('backs off longer after each failure', async () => {
    await queue('b1');
    const d = delivery();
    store.down = true;
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const next = (await d.run())!;
      waits.push(next - now);
      now = next;
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000]);
  });

  it('stops on a wrong secret without retrying, and tries again once the settings change', async () => {
    await queue('b1');
    await queue('b2');
    await delivery({ secret: 'wrong' }).run();
    expect(await outbox.get('b1')).toMatchObject({ state: 'failed', failedWith: 'wrong', lastError: expect.stringMatching(/SignatureDoesNotMatch/) });
    const tried = store.requests.length;
    now += 3_600_000;
    expect(await delivery({ secret: 'wrong' }).run()).toBeNull();
    expect(store.requests).toHaveLength(tried);
    await delivery().run();
    expect((await outbox.list()).map((e) => e.state)).toEqual(['delivered', 'delivered']);
  });

  it('goes up in parts and resumes at the first part not confirmed after the worker stopped', async () => {
    const entry = await queue('big', 3_000);
    // The second part fails: as if the worker stopped there.
    let parts = 0;
    store.failNext((method, query) => method === 'PUT' && query.startsWith('partNumber=') && ++parts === 2, 503, 'InternalError');
    await delivery().run();
    expect(await outbox.get('big')).toMatchObject({ state: 'pending', multipart: { etags: [expect.any(String)] } });
    now += 60_000;
    // A new worker: a new Delivery over the same outbox.
    await delivery().run();
    expect(store.objects.get(entry.zipKey)).toEqual(bundles.get('big'));
    const partsSent = store.requests.filter((r) => r.query.startsWith('partNumber=')).map((r) => Number(/partNumber=(\d+)/.exec(r.query)![1]));
    expect(partsSent).toEqual([1, 2, 2, 3]);
    expect(store.requests.filter((r) => r.query === 'uploads=')).toHaveLength(1);
    expect(await outbox.get('big')).toMatchObject({ state: 'delivered', multipart: null, zipDelivered: true });
  });

  it('starts a multipart upload over when the store forgot it', async () => {
    await queue('big', 3_000);
    store.failNext((method, query) => method === 'PUT' && query.startsWith('partNumber=2'), 404, 'NoSuchUpload');
    await delivery().run();
    expect((await outbox.get('big'))!.multipart).toBeNull();
    now += 60_000;
    await delivery().run();
    expect(store.requests.filter((r) => r.query === 'uploads=')).toHaveLength(2);
    expect(await outbox.get('big')).toMatchObject({ state: 'delivered' });
  });

  it('resumes an entry left uploading by a worker that stopped', async () => {
    const entry = await queue('b1');
    await outbox.put({ ...entry, state: 'uploading', zipDelivered: true });
    await delivery().run();
    // The zip was confirmed before the stop: only the index object is written now.
    expect(store.keys()).toEqual([entry.indexKey]);
    expect(await outbox.get('b1')).toMatchObject({ state: 'delivered' });
  });

  it('does nothing while delivery is off, and drops an entry whose bundle is gone', async () => {
    await queue('b1');
    expect(await delivery({ activeTarget: async () => null }).run()).toBeNull();
    expect(await outbox.get('b1')).toMatchObject({ state: 'pending', attempts: 0 });
    bundles.delete('b1');
    await delivery().run();
    expect(await outbox.get('b1')).toBeUndefined();
    expect(logs.at(-1)).toMatch(/b1 dropped: the bundle is no longer stored/);
  });

  it('hashes a bundle once, when it first delivers it, and writes the index object read from its manifest', async () => {
    const zip = await makeBundleZip();
    bundles.set('fresh', zip);
    await outbox.put(newEntry({ id: 'fresh', sizeBytes: zip.byteLength }, objectKeys('fleet', 'fresh', new Date(now).toISOString()), now, false));
    const digest = vi.spyOn(crypto.subtle, 'digest');
    await delivery().run();
    const ofZip = digest.mock.calls.filter(([, data]) => (data as Uint8Array).byteLength === zip.byteLength);
    expect(ofZip).toHaveLength(1);
    const entry = (await outbox.get('fresh'))!;
    expect(entry).toMatchObject({ state: 'delivered', sha256: (await checksumsOf(zip)).sha256Hex });
    const written = UploadIndexRecordSchema.parse(JSON.parse(new TextDecoder().decode(store.objects.get(entry.indexKey))));
    expect(written).toMatchObject({ bundle_id: 'fresh', run_id: 'run-1', sha256: entry.sha256, size_bytes: zip.byteLength, extension_version: '0.1.0' });
    // Counted from steps.json; the bundle has no network.har, so no request counts.
    expect(written.app_errors).toBe(0);
    expect(written).not.toHaveProperty('requests');
  });

  it('fails, without retrying, a bundle whose zip cannot be read for its index object', async () => {
    bundles.set('junk', new Uint8Array([1, 2, 3]));
    await outbox.put(newEntry({ id: 'junk', sizeBytes: 3 }, objectKeys('fleet', 'junk', new Date(now).toISOString()), now, false));
    await delivery().run();
    expect(await outbox.get('junk')).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/cannot be indexed/) });
    expect(store.objects.size).toBe(0);
  });

  it('delivers a bundle kept in memory only before older ones, and says it was lost when a stopped worker lost it', async () => {
    await queue('old');
    now += 1_000;
    await outbox.put({ ...(await queue('spilled')), memoryOnly: true });
    await delivery({ inMemoryOnly: (id) => id === 'spilled' }).run();
    expect(store.requests.filter((r) => r.method === 'PUT' && r.key.endsWith('.zip')).map((r) => r.key)).toEqual(['fleet/bundles/2026/11/25/spilled.zip', 'fleet/bundles/2026/11/25/old.zip']);

    const lost = await queue('lost');
    await outbox.put({ ...lost, memoryOnly: true });
    bundles.delete('lost'); // the worker stopped: memory is gone
    await delivery().run();
    expect(await outbox.get('lost')).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/^lost before delivery: IndexedDB had no room/) });
    expect(logs.at(-1)).toMatch(/upload of lost failed: lost before delivery/);
    // Not tried again with the same settings: nothing left to send.
    await delivery().run();
    expect((await outbox.get('lost'))!.attempts).toBe(1);
  });

  it('refuses to deliver bytes other than those queued', async () => {
    await queue('b1');
    bundles.set('b1', new Uint8Array([1, 2, 3]));
    await delivery().run();
    expect(await outbox.get('b1')).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/no longer has the bytes/) });
    expect(store.objects.size).toBe(0);
  });

  it('runs one pass at a time: a call during a pass joins it and makes it look again', async () => {
    await queue('b1');
    const d = delivery();
    const [a, b] = [d.run(), d.run()];
    await queue('b2');
    await Promise.all([a, b]);
    expect(store.requests.filter((r) => r.key.endsWith('b1.zip'))).toHaveLength(1);
    expect((await outbox.list()).every((e) => e.state === 'delivered')).toBe(true);
  });
});
