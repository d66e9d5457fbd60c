import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRecorder } from './connect';
import { RecorderCallError, RecorderWorkerLostError } from './errors';
import { fakeAfr, FakeContext, FakeWorker, recorderUrl } from '../../test/fakes/client';

async function connected(afr = fakeAfr()) {
  const context = new FakeContext();
  const worker = context.addWorker(new FakeWorker(recorderUrl(), afr));
  const rec = await connectRecorder(context, { timeoutMs: 1_000 });
  return { context, worker, afr, rec };
}

/** The worker died but the library has not noticed yet: still listed, every evaluate fails. */
function crash(context: FakeContext, worker: FakeWorker, restartAfterMs: number): void {
  worker.gone = true;
  setTimeout(() => context.restartWorker(worker), restartAfterMs);
}

describe('RecorderClient', () => {
  it('passes each call to afr with its arguments and returns the result', async () => {
    const { rec, afr } = await connected();
    expect(await rec.runStart({ agent: 'shop-bot', task: 'buy shoes' })).toBe('run-1');
    await rec.step({ action: 'click "Add to cart"', outcome: 'ok' });
    expect(await rec.assert({ label: 'cart has 1 item', passed: true })).toBeNull();
    expect(await rec.assert({ label: 'cart has 2 items', passed: false, expected: '2', actual: '1' })).toBe('afr-bundle-1');
    expect(await rec.runEnd({ outcome: 'failed' })).toBeNull();
    expect(afr.calls.map(([method]) => method)).toEqual(['runStart', 'step', 'assert', 'assert', 'runEnd']);
    expect(afr.calls[1]).toEqual(['step', [{ action: 'click "Add to cart"', outcome: 'ok' }]]);
  });

  it('reports the recorder’s own error with the method name, without the library prefix', async () => {
    const { rec } = await connected();
    const error = await rec.configure({ bufferSeconds: 301 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderCallError);
    expect((error as Error).message).toBe('afr.configure: invalid settings: bufferSeconds: Too big: expected number to be <=300');
  });

  it('says so when the extension is too old for a method', async () => {
    const afr: Partial<ReturnType<typeof fakeAfr>> = fakeAfr();
    delete afr.assert;
    const { rec } = await connected(afr as ReturnType<typeof fakeAfr>);
    await expect(rec.assert({ label: 'x', passed: true })).rejects.toThrow('afr.assert: afr.assert is not a function in this version of the extension');
  });

  it.each([
    ['status', (rec: Awaited<ReturnType<typeof connected>>['rec']) => rec.status()],
    ['listBundles', (rec: Awaited<ReturnType<typeof connected>>['rec']) => rec.bundles()],
    ['configure', (rec: Awaited<ReturnType<typeof connected>>['rec']) => rec.configure({ bufferSeconds: 20 })],
  ])('retries %s once on the restarted worker when the worker died under it', async (method, call) => {
    const { rec, context, worker, afr } = await connected();
    crash(context, worker, 100);
    await call(rec);
    // The probe at connection, the call that met the dead worker, the search's probe while it was still listed.
    expect(worker.evaluations).toBe(3);
    expect(context.serviceWorkers()).toHaveLength(1);
    expect(context.serviceWorkers()[0]!.evaluations).toBe(2); // the probe, then the retried call
    expect(afr.calls.map(([m]) => m)).toEqual([method]);
  });

  it('does not repeat a call that may have been applied, but reconnects for the next one', async () => {
    const { rec, context, worker, afr } = await connected();
    crash(context, worker, 100);
    const error = await rec.step({ action: 'submit the order' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderWorkerLostError);
    expect((error as Error).message).toMatch(/afr\.step: .*may or may not have been applied/);
    expect(afr.calls).toEqual([]);

    await rec.step({ action: 'check the confirmation' });
    expect(afr.calls).toEqual([['step', [{ action: 'check the confirmation' }]]]);
  });

  it('finds a restarted worker before a call when the old one is no longer listed', async () => {
    const { rec, context, worker, afr } = await connected();
    const restarted = context.restartWorker(worker);
    expect(await rec.fail({ reason: 'assertion_failed' })).toBe('afr-bundle-1');
    expect(worker.evaluations).toBe(1);
    expect(restarted.evaluations).toBe(2);
    expect(afr.calls.map(([m]) => m)).toEqual(['fail']);
  });

  it('gives up when the worker dies again during the retry', async () => {
    const { rec, context, worker } = await connected();
    worker.gone = true;
    setTimeout(() => {
      const restarted = context.restartWorker(worker);
      restarted.lifespan = 1; // answers the probe, dies before the retried call
    }, 100);
    await expect(rec.bundles()).rejects.toThrow(/afr\.listBundles: .*went away again during the retry/);
  });

  it('rejects with RecorderNotFoundError when the worker does not come back', async () => {
    const { rec, context, worker } = await connected();
    context.stopWorker(worker);
    await expect(rec.status()).rejects.toThrow(/not found within 1000 ms/);
  });
});

describe('exportBundle and saveBundle', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'afr-client-test-'));
    dirs.push(dir);
    return dir;
  };
  const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x80, 0x7f, 0x0a, 0x0d]);

  it('decodes the base64 zip into bytes', async () => {
    const { rec } = await connected(fakeAfr({ 'afr-1': zip }));
    expect([...(await rec.exportBundle('afr-1'))]).toEqual([...zip]);
    await expect(rec.exportBundle('afr-2')).rejects.toThrow('afr.exportBundle: no bundle afr-2');
  });

  it('writes the decoded bytes to a .zip path, creating its directory', async () => {
    const { rec } = await connected(fakeAfr({ 'afr-1': zip }));
    const file = path.join(tempDir(), 'nested/deeper/failure.zip');
    expect(await rec.saveBundle('afr-1', file)).toBe(file);
    expect([...readFileSync(file)]).toEqual([...zip]);
  });

  it('writes <dir>/<id>.zip when given a directory', async () => {
    const { rec } = await connected(fakeAfr({ 'afr-1': zip }));
    const dir = path.join(tempDir(), 'bundles');
    const file = await rec.saveBundle('afr-1', dir);
    expect(file).toBe(path.join(dir, 'afr-1.zip'));
    expect([...readFileSync(file)]).toEqual([...zip]);
  });
});
