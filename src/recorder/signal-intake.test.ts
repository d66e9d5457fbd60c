import { describe, expect, it } from 'vitest';
import { origin, setupRecorder, T0 } from '../../test/fakes/recorder';

describe('SignalIntake (through the Recorder)', () => {
  it('uses the page-level exception report only when the debugger is not attached', async () => {
    const { recorder, ports, attached } = setupRecorder();
    await recorder.start();
    const error = { type: 'signal/page-error', ts: T0, url: 'https://shop.test/cart', kind: 'error', message: 'TypeError: x is undefined', stack: 'at f (a.js:1:1)' };
    attached.add(7);
    await recorder.handleMessage(error, origin);
    expect(await ports.bundles.list()).toHaveLength(0);
    attached.delete(7);
    await recorder.handleMessage(error, origin);
    const [bundle] = await ports.bundles.list();
    expect(bundle).toMatchObject({ reason: 'page_exception', tabId: 7 });
    recorder.loop.stop();
  });

  it('turns CDP exceptions and 5xx into bundles, and only records 4xx and console errors', async () => {
    const { recorder, operator, ports, clock } = setupRecorder();
    await recorder.start();
    const page = () => 'https://shop.test/cart';
    await recorder.handleCdpEvent(7, 'Network.requestWillBeSent', { requestId: 'a', request: { url: 'https://shop.test/logo.png', method: 'GET' }, type: 'Image', timestamp: 1 }, page);
    await recorder.handleCdpEvent(7, 'Network.responseReceived', { requestId: 'a', type: 'Image', timestamp: 1.1, response: { url: 'https://shop.test/logo.png', status: 404 } }, page);
    await recorder.handleCdpEvent(7, 'Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'widget failed' }] }, page);
    expect(await ports.bundles.list()).toHaveLength(0);
    const recorded = (await ports.stepLog.between(7, 0, clock.t)).filter((s) => s.kind === 'signal');
    expect(recorded.map((s) => [s.detail?.signal_kind, s.detail?.disposition])).toEqual([['http_4xx', 'record'], ['console_error', 'record']]);

    await recorder.handleCdpEvent(7, 'Network.requestWillBeSent', { requestId: 'b', request: { url: 'https://shop.test/api/pay?token=abc', method: 'POST' }, type: 'Fetch', timestamp: 2 }, page);
    await recorder.handleCdpEvent(7, 'Network.responseReceived', { requestId: 'b', type: 'Fetch', timestamp: 2.2, response: { url: 'https://shop.test/api/pay?token=abc', status: 502 } }, page);
    expect((await ports.bundles.list())[0]).toMatchObject({ reason: 'http_5xx', url: 'https://shop.test/cart' });

    clock.t += 20_000;
    await operator.configure({ signals: { exception: { enabled: false } } });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, page);
    expect(await ports.bundles.list()).toHaveLength(1);
    await operator.configure({ signals: { exception: { enabled: true } } });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, page);
    expect((await ports.bundles.list())[0]).toMatchObject({ reason: 'page_exception' });
    recorder.loop.stop();
  });

  it('bundles a crash that comes within the cooldown of the exception that led to it', async () => {
    const { recorder, ports, clock } = setupRecorder();
    await recorder.start();
    const page = () => 'https://shop.test/cart';
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: out of memory' } } }, page);
    clock.t += 1_000;
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: again' } } }, page);
    await recorder.handleCdpEvent(7, 'Inspector.targetCrashed', {}, page);
    // The second exception is the storm the cooldown is for; the crash is not.
    expect((await ports.bundles.list()).map((b) => b.reason).sort()).toEqual(['page_exception', 'tab_crashed']);
    recorder.loop.stop();
  });

  it('falls back to chrome.webRequest for tabs without a debugger, and ignores it for tabs with one', async () => {
    const { recorder, ports, attached } = setupRecorder();
    await recorder.start();
    attached.add(7);
    await recorder.handleWebRequest({ tabId: 7, url: 'https://shop.test/checkout', method: 'POST', type: 'main_frame', statusCode: 500, error: null });
    expect(await ports.bundles.list()).toHaveLength(0);
    attached.delete(7);
    await recorder.handleWebRequest({ tabId: 7, url: 'https://shop.test/logo.png', method: 'GET', type: 'image', statusCode: null, error: 'net::ERR_NAME_NOT_RESOLVED' });
    await recorder.handleWebRequest({ tabId: 7, url: 'https://shop.test/api', method: 'GET', type: 'xmlhttprequest', statusCode: null, error: 'net::ERR_ABORTED' });
    expect(await ports.bundles.list()).toHaveLength(0);
    await recorder.handleWebRequest({ tabId: 7, url: 'https://shop.test/checkout', method: 'POST', type: 'main_frame', statusCode: 500, error: null });
    expect((await ports.bundles.list())[0]).toMatchObject({ reason: 'http_5xx', url: 'https://shop.test/checkout' });
    recorder.loop.stop();
  });

});

describe('SignalIntake: one exception reported by the page and by CDP', () => {
  it('takes an exception the page and CDP both report (a debugger session starting) once', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const cdpError = (description: string) =>
      recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description } } }, () => null);
    // No debugger session yet: the page's own report counts.
    await recorder.handleMessage({ type: 'signal/page-error', ts: clock.t, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: boom', stack: null }, origin);
    clock.t += 30;
    await cdpError('Error: boom'); // the same one, from the session that just started
    await cdpError('Error: other');
    clock.t += 3_000;
    await cdpError('Error: boom'); // thrown again
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.detail?.signal_kind)).toEqual(['exception', 'exception', 'exception']);
    expect(signals.map((s) => s.detail?.message)).toEqual([expect.stringContaining('boom'), expect.stringContaining('other'), expect.stringContaining('boom')]);
    recorder.loop.stop();
  });

  it('matches each report once: the same error thrown again soon after counts, a replay dated when thrown does not', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const cdpError = (description: string, timestamp?: number) =>
      recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp, exceptionDetails: { text: 'Uncaught', exception: { description } } }, () => null);
    const pageError = (message: string) =>
      recorder.handleMessage({ type: 'signal/page-error', ts: clock.t, url: 'https://shop.test/cart', kind: 'error', message, stack: null }, origin);
    const first = clock.t;
    await pageError('Uncaught Error: boom');
    clock.t += 30;
    await cdpError('Error: boom', first + 2); // the same one, from the session that just started
    clock.t += 600;
    await cdpError('Error: boom', clock.t); // thrown again, soon after
    // A session attaching late replays an exception the page reported seconds before, dated then.
    const early = clock.t;
    await pageError('Uncaught Error: late');
    clock.t += 3_000;
    await cdpError('Error: late', early + 1);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.detail?.message)).toEqual([expect.stringContaining('boom'), expect.stringContaining('boom'), expect.stringContaining('late')]);
    recorder.loop.stop();
  });

  it('remembers no report of an exception seen while paused: its twin after the pause counts', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    await recorder.setPaused(true);
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp: clock.t, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, () => null);
    await recorder.setPaused(false);
    clock.t += 30;
    await recorder.handleMessage({ type: 'signal/page-error', ts: clock.t - 30, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: boom', stack: null }, origin);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => [s.detail?.message, s.detail?.disposition])).toEqual([['Uncaught Error: boom', 'record']]);
    recorder.loop.stop();
  });

  it('matches a page report it masked with the CDP report of the same exception', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    // What the page's relay sends for `throw new Error('bad card ' + value)`: masked, then capped.
    await recorder.handleMessage({ type: 'signal/page-error', ts: clock.t, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: bad card [card] for [email]', stack: null }, origin);
    clock.t += 40;
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: bad card 4111 1111 1111 1111 for jane@example.com' } } }, () => null);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.detail?.message)).toEqual(['Uncaught Error: bad card [card] for [email]']);
    recorder.loop.stop();
  });

  it('matches the reports of one exception however they differ in form, not those of different ones', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const cdp = (description: string, text = 'Uncaught', timestamp = clock.t) =>
      recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp, exceptionDetails: { text, exception: { description } } }, () => null);
    const page = (message: string, kind: 'error' | 'unhandledrejection' = 'error') =>
      recorder.handleMessage({ type: 'signal/page-error', ts: clock.t, url: 'https://shop.test/cart', kind, message, stack: null }, origin);
    const count = async () => (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal').length;
    // CDP first, then the page; a message of two lines (CDP keeps the first).
    await cdp('Error: total mismatch\nexpected 3\n    at check (app.js:1:1)');
    await page('Uncaught Error: total mismatch\nexpected 3');
    expect(await count()).toBe(1);
    // Another origin's script: the page is told "Script error.", CDP the message.
    clock.t += 5_000;
    await page('Script error.');
    await cdp('TypeError: widget is null');
    expect(await count()).toBe(2);
    // A throw and a rejection of the same message are two exceptions.
    clock.t += 5_000;
    await page('Uncaught Error: offline');
    await cdp('Error: offline', 'Uncaught (in promise)');
    expect(await count()).toBe(4);
    // A replay 20 s after the page's report, dated when thrown: the same one.
    clock.t += 5_000;
    const thrown = clock.t;
    await page('Uncaught Error: late');
    clock.t += 20_000;
    await cdp('Error: late', 'Uncaught', thrown);
    expect(await count()).toBe(5);
    recorder.loop.stop();
  });

  it('prefers a twin of the same message to a "Script error.", and keeps the page reports through a flood of old replays', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual', bufferSeconds: 60 });
    const cdp = (description: string, timestamp = clock.t, value?: string) =>
      recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp, exceptionDetails: { text: 'Uncaught', exception: value === undefined ? { description } : { value } } }, () => null);
    const page = (message: string, ts = clock.t) =>
      recorder.handleMessage({ type: 'signal/page-error', ts, url: 'https://shop.test/cart', kind: 'error', message, stack: null }, origin);
    const count = async () => (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal').length;
    // Another origin's script and this page's own, thrown in the same millisecond.
    await page('Script error.');
    await page('Uncaught Error: y');
    await cdp('Error: y');
    await cdp('TypeError: z');
    expect(await count()).toBe(2);
    // A thrown string that starts with "Uncaught": the page says it once more.
    clock.t += 5_000;
    await page('Uncaught Uncaught thing');
    await cdp('', clock.t, 'Uncaught thing');
    expect(await count()).toBe(3);
    // A session attaching replays a minute and more of the page's exceptions: they do not push out
    // the page's recent report, whose replay comes last.
    clock.t += 5_000;
    await page('Uncaught Error: recent');
    for (let i = 0; i < 30; i++) await cdp(`Error: old ${i}`, clock.t - 100_000);
    await cdp('Error: recent');
    expect(await count()).toBe(4 + 30);
    recorder.loop.stop();
  });

  it("takes a page's report at the time the page threw it, though the worker started long after", async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ persistMode: 'manual' });
    const thrown = clock.t - 8_000; // the relay of a busy page, then a worker starting
    await recorder.handleMessage({ type: 'signal/page-error', ts: thrown, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: slow', stack: null }, origin);
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp: thrown, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: slow' } } }, () => null);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.ts)).toEqual([thrown]);
    recorder.loop.stop();
  });

  it('puts an exception thrown long before it came (a replay) on the timeline at its time, and bundles nothing', async () => {
    const { recorder, afr, ports, clock } = setupRecorder();
    await recorder.start();
    await afr.configure({ failureCooldownMs: 0, bufferSeconds: 60 }); // the timeline keeps 2 minutes
    const thrown = clock.t;
    clock.t += 90_000;
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp: thrown, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: at load' } } }, () => null);
    const [step] = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(step).toMatchObject({ ts: thrown, detail: { disposition: 'record' } });
    expect(await ports.bundles.list()).toEqual([]);
    recorder.loop.stop();
  });
});
