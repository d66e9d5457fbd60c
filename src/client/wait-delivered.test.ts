import { describe, expect, it } from 'vitest';
import { connectRecorder } from './connect';
import { RecorderCallError, RecorderTimeoutError } from './errors';
import type { BundleSummary, BundleUpload } from './types';
import { fakeAfr, FakeContext, FakeWorker, recorderUrl } from '../../test/fakes/client';

const ID = 'afr-20261125T100000Z-aaaaaa';
const summary = (upload?: BundleUpload): BundleSummary => ({
  id: ID,
  createdAt: '2026-11-25T10:00:01.000Z',
  reason: 'checkout_failed',
  label: null,
  tabId: 7,
  url: null,
  sizeBytes: 10,
  downloadId: null,
  ...(upload ? { upload } : {}),
});

/** A recorder whose listed bundle goes through `states`, one per listing (the last one stays). */
async function recorderListing(states: (BundleUpload | undefined)[]) {
  let calls = 0;
  const afr = { ...fakeAfr(), listBundles: async () => [summary(states[Math.min(calls++, states.length - 1)])] };
  const context = new FakeContext();
  context.addWorker(new FakeWorker(recorderUrl(), afr));
  return { rec: await connectRecorder(context, { timeoutMs: 1_000 }), calls: () => calls };
}

describe('RecorderClient.waitDelivered', () => {
  it('resolves with the key once the store confirmed the bundle', async () => {
    const { rec, calls } = await recorderListing([
      { state: 'pending', attempts: 0 },
      { state: 'uploading', attempts: 0 },
      { state: 'delivered', attempts: 1, key: `ci/bundles/2026/11/25/${ID}.zip` },
    ]);
    await expect(rec.waitDelivered(ID, { timeoutMs: 5_000 })).resolves.toEqual({ state: 'delivered', attempts: 1, key: `ci/bundles/2026/11/25/${ID}.zip` });
    expect(calls()).toBe(3);
  });

  it('rejects with the store’s words when delivery failed for good', async () => {
    const { rec } = await recorderListing([{ state: 'failed', attempts: 1, lastError: 'writing x: HTTP 403 (SignatureDoesNotMatch)' }]);
    await expect(rec.waitDelivered(ID)).rejects.toThrow(new RecorderCallError('waitDelivered', `bundle ${ID} was not delivered: writing x: HTTP 403 (SignatureDoesNotMatch)`));
  });

  it('rejects when the bundle is not queued for delivery or not stored', async () => {
    const off = await recorderListing([undefined]);
    await expect(off.rec.waitDelivered(ID)).rejects.toThrow(/is not queued for delivery/);
    await expect(off.rec.waitDelivered('afr-20261125T100000Z-zzzzzz')).rejects.toThrow(/no stored bundle with id/);
  });

  it('times out while the bundle is still pending, saying how far it got', async () => {
    const { rec } = await recorderListing([{ state: 'pending', attempts: 3, lastError: 'no answer from the store' }]);
    const error = await rec.waitDelivered(ID, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderTimeoutError);
    expect((error as Error).message).toBe(`waitDelivered: bundle ${ID} was not delivered (pending after 3 attempts: no answer from the store) within 50 ms`);
  });
});
