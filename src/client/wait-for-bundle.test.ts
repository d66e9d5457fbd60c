import { describe, expect, it } from 'vitest';
import { connectRecorder } from './connect';
import { RecorderCallError, RecorderTimeoutError } from './errors';
import { nextBundle } from './next-bundle';
import type { BundleSummary, WaitForBundleInput } from './types';
import { fakeAfr, FakeContext, FakeWorker, recorderUrl } from '../../test/fakes/client';

const bundle = (id: string, createdAt: string, over: Partial<BundleSummary> = {}): BundleSummary => ({
  id,
  createdAt,
  reason: 'agent_failure',
  label: null,
  tabId: 7,
  url: null,
  sizeBytes: 10,
  downloadId: null,
  trigger: 'agent',
  ...over,
});
const A = bundle('afr-20261122T100000Z-aaaaaa', '2026-11-22T10:00:01.000Z');
const B = bundle('afr-20261122T100005Z-bbbbbb', '2026-11-22T10:00:06.000Z', { reason: 'http_5xx', trigger: 'signal' });
const C = bundle('afr-20261122T100009Z-cccccc', '2026-11-22T10:00:10.000Z');

async function connectTo(afr: object) {
  const context = new FakeContext();
  const worker = context.addWorker(new FakeWorker(recorderUrl(), afr));
  return { context, worker, rec: await connectRecorder(context, { timeoutMs: 1_000 }) };
}

describe('nextBundle', () => {
  it.each([
    ['a time: the oldest bundle at or after it', { since: '2026-11-22T10:00:01.000Z' }, A],
    ['ms since the epoch', { since: Date.parse('2026-11-22T10:00:02Z') }, B],
    ['a bundle id: the next bundle after it', { since: A.id }, B],
    ['a reason', { since: A.id, reason: 'agent_failure' }, C],
    ['a trigger', { since: 0, trigger: 'signal' as const }, B],
    ['nothing after', { since: C.id }, null],
  ])('%s', (_, query, expected) => {
    expect(nextBundle([C, B, A], query)).toEqual(expected);
  });

  it.each([
    [{ since: 'afr-20260101T000000Z-zzzzzz' }, 'since: no stored bundle with id afr-20260101T000000Z-zzzzzz'],
    [{ since: 'soon' }, 'since: "soon" is neither a time nor a bundle id'],
  ])('refuses %j', (query, message) => {
    expect(() => nextBundle([A], query)).toThrow(message);
  });
});

describe('RecorderClient.waitForBundle', () => {
  it('waits in the service worker, in waits of at most 20 s, and resolves with the bundle it names', async () => {
    const inputs: WaitForBundleInput[] = [];
    const afr = {
      ...fakeAfr(),
      waitForBundle: async (input: WaitForBundleInput) => {
        inputs.push(input);
        return inputs.length < 2 ? null : B;
      },
    };
    const { rec } = await connectTo(afr);
    const since = new Date('2026-11-22T10:00:02Z');
    expect(await rec.waitForBundle({ since, reason: 'http_5xx', timeoutMs: 60_000 })).toEqual(B);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({ since: since.getTime(), reason: 'http_5xx' });
    expect(inputs[0]!.timeoutMs).toBeLessThanOrEqual(20_000);
    expect(inputs[0]).not.toHaveProperty('trigger');
  });

  it('rejects with RecorderTimeoutError when no bundle came in time, naming what it waited for', async () => {
    const { rec } = await connectTo({ ...fakeAfr(), waitForBundle: async ({ timeoutMs }: WaitForBundleInput) => new Promise((r) => setTimeout(() => r(null), timeoutMs)) });
    const error = await rec.waitForBundle({ since: A.id, trigger: 'signal', timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderTimeoutError);
    expect(error).toMatchObject({ method: 'waitForBundle', timeoutMs: 30 });
    expect((error as Error).message).toBe(`waitForBundle: no bundle of trigger signal after ${A.id} was stored within 30 ms`);
  });

  it('passes on the recorder’s refusal of its input', async () => {
    const { rec } = await connectTo({
      ...fakeAfr(),
      waitForBundle: async () => {
        throw new Error('afr.waitForBundle: since: no stored bundle with id afr-20260101T000000Z-zzzzzz');
      },
    });
    await expect(rec.waitForBundle({ since: 'afr-20260101T000000Z-zzzzzz' })).rejects.toBeInstanceOf(RecorderCallError);
    await expect(rec.waitForBundle({ since: new Date('nonsense') })).rejects.toThrow('afr.waitForBundle: since: Invalid Date');
  });

  it('asks for the list every 500 ms when the recorder has no afr.waitForBundle', async () => {
    const stored: BundleSummary[] = [A];
    const afr = { ...fakeAfr(), listBundles: async () => [...stored].reverse() };
    const { rec } = await connectTo(afr);
    setTimeout(() => stored.push(B), 200);
    setTimeout(() => stored.push(C), 300);
    expect(await rec.waitForBundle({ since: A.id, timeoutMs: 10_000 })).toEqual(B);
    await expect(rec.waitForBundle({ since: C.id, timeoutMs: 0 })).rejects.toBeInstanceOf(RecorderTimeoutError);
    await expect(rec.waitForBundle({ since: 'afr-20260101T000000Z-zzzzzz' })).rejects.toThrow('afr.waitForBundle: since: no stored bundle with id');
  });

  it('goes on waiting in the restarted service worker when Chrome stopped the first one', async () => {
    let calls = 0;
    const afr = {
      ...fakeAfr(),
      waitForBundle: async () => {
        calls++;
        return calls > 1 ? C : null;
      },
    };
    const { context, worker, rec } = await connectTo(afr);
    worker.lifespan = worker.evaluations;
    setTimeout(() => context.restartWorker(worker), 50);
    expect(await rec.waitForBundle({ timeoutMs: 5_000 })).toEqual(C);
  });
});
