import { describe, expect, it } from 'vitest';
import { connectRecorder, connectRecorderPuppeteer } from './connect';
import { RecorderNotFoundError } from './errors';
import { fakeAfr, FakeBrowser, FakeContext, FakeTarget, FakeWorker, OTHER_ID, RECORDER_ID, recorderUrl } from '../../test/fakes/client';

const later = (ms: number, fn: () => void) => setTimeout(fn, ms);

describe('connectRecorder (Playwright)', () => {
  it('picks the recorder among other service workers', async () => {
    const context = new FakeContext();
    const other = context.addWorker(new FakeWorker(recorderUrl(OTHER_ID), undefined));
    const notBackground = context.addWorker(new FakeWorker(`chrome-extension://${RECORDER_ID}/sw.js`, fakeAfr()));
    const afr = fakeAfr();
    context.addWorker(new FakeWorker(recorderUrl(), afr));

    const rec = await connectRecorder(context, { timeoutMs: 1_000 });

    expect(rec.extensionId).toBe(RECORDER_ID);
    expect(await rec.status()).toMatchObject({ recording: true });
    expect(afr.calls).toEqual([['status', []]]);
    expect(other.evaluations).toBe(1);
    expect(notBackground.evaluations).toBe(0);
  });

  it('waits for a worker that starts late', async () => {
    const context = new FakeContext();
    later(150, () => context.addWorker(new FakeWorker(recorderUrl(), fakeAfr())));
    const started = Date.now();
    const rec = await connectRecorder(context, { timeoutMs: 2_000 });
    expect(rec.extensionId).toBe(RECORDER_ID);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('waits for afr on a worker that is already up', async () => {
    const context = new FakeContext();
    const worker = context.addWorker(new FakeWorker(recorderUrl(), undefined));
    later(150, () => {
      worker.afr = fakeAfr();
    });
    const rec = await connectRecorder(context, { timeoutMs: 2_000 });
    expect(await rec.status()).toMatchObject({ frames: 3 });
  });

  it('times out with a message that says what it saw and how to load the extension', async () => {
    const context = new FakeContext();
    context.addWorker(new FakeWorker(recorderUrl(OTHER_ID), undefined));
    context.addWorker(new FakeWorker('https://shop.test/sw.js', undefined));
    const started = Date.now();
    const error = await connectRecorder(context, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecorderNotFoundError);
    const message = (error as Error).message;
    expect(message).toContain('not found within 300 ms');
    expect(message).toContain(`${recorderUrl(OTHER_ID)} (no globalThis.afr)`);
    expect(message).toContain('https://shop.test/sw.js (not the recorder)');
    expect(message).toContain('--load-extension');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('gives up at once when the context is closed', async () => {
    const context = new FakeContext();
    context.closed = true;
    const started = Date.now();
    await expect(connectRecorder(context, { timeoutMs: 5_000 })).rejects.toThrow(/the browser is gone/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps to the extension id it is given', async () => {
    const context = new FakeContext();
    context.addWorker(new FakeWorker(recorderUrl(), fakeAfr()));
    const pinned = fakeAfr();
    context.addWorker(new FakeWorker(recorderUrl(OTHER_ID), pinned));
    const rec = await connectRecorder(context, { extensionId: OTHER_ID, timeoutMs: 1_000 });
    await rec.status();
    expect(rec.extensionId).toBe(OTHER_ID);
    expect(pinned.calls).toHaveLength(1);
  });
});

describe('connectRecorderPuppeteer', () => {
  it('picks the service worker target whose worker has afr', async () => {
    const browser = new FakeBrowser();
    browser.addTarget(new FakeTarget('page', 'https://shop.test/', null));
    browser.addTarget(new FakeTarget('service_worker', recorderUrl(OTHER_ID), new FakeWorker(recorderUrl(OTHER_ID), undefined)));
    const afr = fakeAfr();
    browser.addTarget(new FakeTarget('service_worker', recorderUrl(), new FakeWorker(recorderUrl(), afr)));

    const rec = await connectRecorderPuppeteer(browser, { timeoutMs: 1_000 });

    expect(rec.extensionId).toBe(RECORDER_ID);
    await rec.mark({ label: 'logged in' });
    expect(afr.calls).toEqual([['mark', [{ label: 'logged in' }]]]);
  });

  it('waits for a target that appears late, and times out clearly when none does', async () => {
    const browser = new FakeBrowser();
    later(150, () => browser.addTarget(new FakeTarget('service_worker', recorderUrl(), new FakeWorker(recorderUrl(), fakeAfr()))));
    expect((await connectRecorderPuppeteer(browser, { timeoutMs: 2_000 })).extensionId).toBe(RECORDER_ID);

    await expect(connectRecorderPuppeteer(new FakeBrowser(), { timeoutMs: 200 })).rejects.toThrow(
      /Agent Flight Recorder not found within 200 ms: .*Service workers seen: none/,
    );
  });
});
