import JSZip from 'jszip';
import { describe, expect, it, vi } from 'vitest';
import { StepsFileSchema } from '../../schemas/steps';
import { Recorder, RecorderInputError, type RecorderPorts } from './recorder';
import { FrameRing } from '../ring/frame-ring';
import { MemoryFrameStore } from '../ring/memory-frame-store';
import { StepLog } from '../steps/step-log';
import { MemoryStepStore } from '../../test/fakes/memory-step-store';
import { MemoryBundleStore } from '../bundle/memory-bundle-store';
import { MemoryKeyValueStore, SettingsStore } from '../settings/settings-store';
import type { Capturer } from '../capture/ports';
import { STEPS_IN_FLIGHT_MS } from '../../schemas/content-port';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

function setup(over: Partial<RecorderPorts> = {}) {
  const clock = { t: T0, now() { return this.t; } };
  const attached = new Set<number>();
  const capturer: Capturer = {
    listTargets: async () => [{ tabId: 7, windowId: 1, url: 'https://shop.test/cart' }],
    capture: async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }),
  };
  const log = vi.fn();
  const ports: RecorderPorts = {
    clock,
    ring: new FrameRing(new MemoryFrameStore(), clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 }),
    stepLog: new StepLog(new MemoryStepStore(), clock, { maxSteps: 100, maxAgeMs: 60_000 }),
    bundles: new MemoryBundleStore(),
    settingsStore: new SettingsStore(new MemoryKeyValueStore(), log),
    capturer,
    sessionRunId: () => 'run-test',
    sessionStore: new MemoryKeyValueStore(),
    previewRedaction: async () => ({ matches: [], total: 0, problems: [] }),
    sleep: async () => {},
    extension: { name: 'Agent Flight Recorder', version: '0.1.0' },
    snapshot: async () => ({ ok: false, error: 'no page in unit tests' }),
    encodeClip: async () => ({ ok: false, error: 'no encoder in unit tests' }),
    download: vi.fn(async () => 1),
    debuggerState: (tabId) => ({ attached: tabId !== null && attached.has(tabId), error: null }),
    watchTab: vi.fn(),
    log,
    ...over,
  };
  const recorder = new Recorder(ports);
  return { recorder, ports, clock, attached, log };
}

const origin = { tabId: 7, frameId: 0 };
const stepMessage = (over: Record<string, unknown> = {}) => ({
  type: 'step/observed', ts: T0, url: 'https://shop.test/cart', kind: 'input', action: 'type',
  target: { tag: 'input', selector: '#email' }, value: 'hello', value_redacted: false, outcome: null, label: null,
  ...over,
});

describe('Recorder', () => {
  it('records observed steps on the timeline with the sender’s tab and frame, and watches the tab', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    await recorder.handleMessage(stepMessage(), origin);
    const [step] = await ports.stepLog.between(7, 0, T0 + 1);
    expect(step).toMatchObject({ tab_id: 7, frame_id: 0, source: 'observer', action: 'type', value: 'hello' });
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    recorder.loop.stop();
  });

  it('never stores a value the content script flagged as redacted', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    await recorder.handleMessage(stepMessage({ value: 'Hunter2!', value_redacted: true }), origin);
    expect((await ports.stepLog.between(7, 0, T0 + 1))[0]).toMatchObject({ value: null, value_redacted: true });
    recorder.loop.stop();
  });

  it.each([
    ['a string', 'fail'],
    ['an unknown type', { type: 'signal/teleport' }],
    ['a step without fields', { type: 'step/observed' }],
    ['a fail without reason', { type: 'agent/command', ts: T0, url: 'x', command: { kind: 'fail', label: 'x' } }],
  ])('drops %s with a logged warning and keeps working', async (_name, message) => {
    const { recorder, ports, log } = setup();
    await recorder.start();
    await recorder.handleMessage(message, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/dropped a malformed message/));
    expect(ports.stepLog.size).toBe(0);
    await recorder.handleMessage(stepMessage(), origin);
    expect(ports.stepLog.size).toBe(1);
    recorder.loop.stop();
  });

  it('records a batch of steps in order, each with the sender’s tab and its own time', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    const steps = [stepMessage({ ts: T0 - 30, action: 'type' }), stepMessage({ ts: T0 - 20, kind: 'key', action: 'press Tab', value: null }), stepMessage({ ts: T0 - 10, kind: 'click', action: 'click', value: null })];
    await recorder.handleMessage({ type: 'step/batch', steps }, origin);
    const recorded = await ports.stepLog.between(7, 0, T0);
    expect(recorded.map((s) => [s.action, s.ts, s.tab_id, s.frame_id])).toEqual([
      ['type', T0 - 30, 7, 0],
      ['press Tab', T0 - 20, 7, 0],
      ['click', T0 - 10, 7, 0],
    ]);
    recorder.loop.stop();
  });

  it('keeps the valid steps of a batch holding a malformed one, with a logged warning', async () => {
    const { recorder, ports, log } = setup();
    await recorder.start();
    // Content scripts do not validate what they send: one step with a URL past the cap must not cost the others.
    const steps = [stepMessage({ ts: T0 - 20, action: 'first' }), stepMessage({ url: `https://example.test/${'x'.repeat(9000)}` }), { type: 'step/observed' }, stepMessage({ ts: T0 - 10, action: 'last' })];
    await recorder.handleMessage({ type: 'step/batch', steps }, origin);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/dropped a malformed message .*kept 2 of its steps/));
    expect((await ports.stepLog.between(7, 0, T0)).map((s) => s.action)).toEqual(['first', 'last']);
    expect(ports.watchTab).toHaveBeenCalledWith(7);
    recorder.loop.stop();
  });

  it('drops an empty batch, or one with no valid step, with a logged warning', async () => {
    const { recorder, ports, log, clock } = setup();
    await recorder.start();
    for (const message of [{ type: 'step/batch', steps: [{ type: 'step/observed' }] }, { type: 'step/batch', steps: [] }, { type: 'step/batch', steps: 'nope' }]) {
      await recorder.handleMessage(message, origin);
      clock.t += 10_000;
    }
    expect(log).toHaveBeenCalledTimes(3);
    expect(log).not.toHaveBeenCalledWith(expect.stringMatching(/kept/));
    expect(ports.stepLog.size).toBe(0);
    recorder.loop.stop();
  });

  it('logs a tab’s malformed messages at most once per 10 s, with the count dropped meanwhile', async () => {
    const { recorder, ports, log, clock } = setup();
    await recorder.start();
    for (let i = 0; i < 50; i++) {
      await recorder.handleMessage({ type: 'redaction/rects' }, origin);
      clock.t += 100;
    }
    await recorder.handleMessage({ type: 'redaction/rects' }, { ...origin, tabId: 8 });
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/from tab 7/), expect.stringMatching(/from tab 8/)]);
    clock.t += 10_000;
    await recorder.handleMessage({ type: 'redaction/rects' }, origin);
    expect(String(log.mock.calls.at(-1)![0])).toMatch(/from tab 7.*49 more dropped without a warning/);
    await recorder.handleMessage(stepMessage(), origin);
    expect(ports.stepLog.size).toBe(1);
    recorder.loop.stop();
  });

  it('reads the steps for a bundle once those a page may still have been batching are in', async () => {
    let arrive: (() => Promise<void>) | null = null;
    const slept: number[] = [];
    const { recorder, ports, clock } = setup({
      sleep: async (ms) => {
        slept.push(ms);
        clock.t += ms;
        await arrive?.();
      },
    });
    await recorder.start();
    await recorder.configure({ postFailureSeconds: 0 });
    // The click that failed was observed just before the signal; its batch arrives after it.
    arrive = () => recorder.handleMessage({ type: 'step/batch', steps: [stepMessage({ ts: T0 - 5, kind: 'click', action: 'click', value: null })] }, origin);
    const id = await recorder.fail({ tabId: 7, reason: 'x' });
    expect(slept).toEqual([STEPS_IN_FLIGHT_MS]);
    const zip = await JSZip.loadAsync((await ports.bundles.read(id!))!);
    const steps = StepsFileSchema.parse(JSON.parse(await zip.file('steps.json')!.async('string'))).steps;
    expect(steps.map((s) => s.action)).toContain('click');
    recorder.loop.stop();
  });

  it('bundles a page fail once per cooldown, counting what it suppressed', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    const fail = { type: 'agent/command', ts: T0, url: 'https://shop.test/cart', command: { kind: 'fail', reason: 'assertion_failed', label: 'total' } };
    await recorder.handleMessage(fail, origin);
    await recorder.handleMessage(fail, origin);
    await recorder.handleMessage(fail, origin);
    expect(await ports.bundles.list()).toHaveLength(1);
    clock.t += 11_000;
    await recorder.handleMessage({ ...fail, ts: clock.t }, origin);
    expect(await ports.bundles.list()).toHaveLength(2);
    // Every signal is on the timeline, bundled or not.
    const signals = (await ports.stepLog.between(7, 0, clock.t)).filter((s) => s.kind === 'signal');
    expect(signals).toHaveLength(4);
    recorder.loop.stop();
  });

  it('uses the page-level exception report only when the debugger is not attached', async () => {
    const { recorder, ports, attached } = setup();
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
    const { recorder, ports, clock } = setup();
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
    await recorder.configure({ signals: { exception: { enabled: false } } });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, page);
    expect(await ports.bundles.list()).toHaveLength(1);
    await recorder.configure({ signals: { exception: { enabled: true } } });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, page);
    expect((await ports.bundles.list())[0]).toMatchObject({ reason: 'page_exception' });
    recorder.loop.stop();
  });

  it('bundles a crash that comes within the cooldown of the exception that led to it', async () => {
    const { recorder, ports, clock } = setup();
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

  it('takes an exception the page and CDP both report (a debugger session starting) once', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
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
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
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

  it('matches a page report it masked with the CDP report of the same exception', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
    // What the page's relay sends for `throw new Error('bad card ' + value)`: masked, then capped.
    await recorder.handleMessage({ type: 'signal/page-error', ts: clock.t, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: bad card [card] for [email]', stack: null }, origin);
    clock.t += 40;
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: bad card 4111 1111 1111 1111 for jane@example.com' } } }, () => null);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.detail?.message)).toEqual(['Uncaught Error: bad card [card] for [email]']);
    recorder.loop.stop();
  });

  it('matches the reports of one exception however they differ in form, not those of different ones', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
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
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual', bufferSeconds: 60 });
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
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
    const thrown = clock.t - 8_000; // the relay of a busy page, then a worker starting
    await recorder.handleMessage({ type: 'signal/page-error', ts: thrown, url: 'https://shop.test/cart', kind: 'error', message: 'Uncaught Error: slow', stack: null }, origin);
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp: thrown, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: slow' } } }, () => null);
    const signals = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(signals.map((s) => s.ts)).toEqual([thrown]);
    recorder.loop.stop();
  });

  it('puts an exception thrown long before it came (a replay) on the timeline at its time, and bundles nothing', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ failureCooldownMs: 0, bufferSeconds: 60 }); // the timeline keeps 2 minutes
    const thrown = clock.t;
    clock.t += 90_000;
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { timestamp: thrown, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: at load' } } }, () => null);
    const [step] = (await ports.stepLog.between(7, 0, clock.t + 1)).filter((s) => s.kind === 'signal');
    expect(step).toMatchObject({ ts: thrown, detail: { disposition: 'record' } });
    expect(await ports.bundles.list()).toEqual([]);
    recorder.loop.stop();
  });

  it('handles the events that woke the worker once the pause and settings are loaded, not with the defaults', async () => {
    const sessionStore = new MemoryKeyValueStore();
    await sessionStore.set('paused', true);
    const { recorder, ports } = setup({ sessionStore });
    // No start yet: the event that woke the worker comes first.
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, () => null);
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.bundles.list()).toEqual([]);
    expect(await ports.stepLog.between(7, 0, T0 + 1)).toEqual([]);
    expect((await recorder.status()).paused).toBe(true);
    recorder.loop.stop();
  });

  it('keeps the frames of a window through the after-failure tail: the ring holds bufferSeconds + postFailureSeconds and some', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await recorder.configure({ bufferSeconds: 15, postFailureSeconds: 2 });
    recorder.loop.stop();
    const meta = (ts: number) => ({ ts, size: 3, tabId: 9, windowId: 1, url: null, width: 4, height: 4 });
    await ports.ring.add(meta(clock.t), new Uint8Array(3));
    await ports.ring.add(meta(clock.t + 500), new Uint8Array(3));
    // 16.5 s later (a signal at 15 s, its tail, the failure's frame): the window's first frames are still there.
    clock.t += 16_500;
    await ports.ring.add(meta(clock.t), new Uint8Array(3));
    expect((await ports.ring.frames()).filter((f) => f.tabId === 9)).toHaveLength(3);
  });

  it('starts though deleting old bundles fails, and logs it', async () => {
    const bundles = new MemoryBundleStore();
    vi.spyOn(bundles, 'list').mockRejectedValueOnce(new Error('bundle store refused'));
    const { recorder, ports, log } = setup({ bundles });
    await recorder.start();
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.stepLog.between(7, 0, T0 + 1)).toHaveLength(1);
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringMatching(/old bundles not deleted: .*bundle store refused/)));
    recorder.loop.stop();
  });

  it('loads the ring with the stored settings: frames a longer window keeps are not evicted on a restart', async () => {
    const store = new MemoryFrameStore();
    const clock = { t: T0, now() { return this.t; } };
    const meta = (ts: number) => ({ ts, size: 3, tabId: 9, windowId: 1, url: null, width: 4, height: 4 });
    await store.add(meta(T0 - 40_000), new Uint8Array(3));
    await store.add(meta(T0 - 39_000), new Uint8Array(3));
    const settingsStore = new SettingsStore(new MemoryKeyValueStore(), vi.fn());
    await settingsStore.load();
    await settingsStore.update({ bufferSeconds: 60 });
    // The worker builds its ring with the default limits (15 s); its start applies the user's 60 s first.
    const ring = new FrameRing(store, clock, { maxAgeMs: 15_000, maxBytes: 1 << 20 });
    const { recorder } = setup({ clock, ring, settingsStore });
    await recorder.start();
    recorder.loop.stop();
    expect((await ring.frames()).map((f) => f.ts)).toEqual([T0 - 40_000, T0 - 39_000]);
  });

  it("takes a page's regions at once, before the start, so a navigation that follows forgets them", async () => {
    const frames: string[] = [];
    const { recorder } = setup();
    const sources = (recorder as unknown as { frames: { updateRegions: (tabId: number) => void; handleNavigation: (tabId: number) => void } }).frames;
    vi.spyOn(sources, 'updateRegions').mockImplementation(() => void frames.push('regions'));
    vi.spyOn(sources, 'handleNavigation').mockImplementation(() => void frames.push('navigation'));
    const rects = { type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 800, height: 600 }, device_pixel_ratio: 1, rects: [] };
    const handled = recorder.handleMessage(rects, origin);
    recorder.handleNavigation(7);
    await handled;
    expect(frames).toEqual(['regions', 'navigation']);
    recorder.loop.stop();
  });

  it('keeps the window of a crash that waits for the bundle being made, though its tab is closed meanwhile', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { recorder, ports, clock } = setup();
    await recorder.start();
    recorder.loop.stop();
    const meta = (ts: number) => ({ ts, size: 3, tabId: 7, windowId: 1, url: null, width: 4, height: 4 });
    await ports.ring.add(meta(clock.t - 14_000), new Uint8Array(3));
    await ports.ring.add(meta(clock.t - 13_000), new Uint8Array(3));
    // The first bundle takes long (its clip), and the crash waits for it.
    const encodeClip = vi.fn(async () => {
      await held;
      return { ok: false as const, error: 'slow' };
    });
    (ports as { encodeClip: unknown }).encodeClip = encodeClip;
    // Frames keep coming during each tail: each one stored evicts what the ring no longer keeps.
    (ports as { sleep: unknown }).sleep = async (ms: number) => {
      clock.t += ms;
      await ports.ring.add(meta(clock.t), new Uint8Array(3));
    };
    const first = recorder.fail({ tabId: 7, reason: 'agent_failure' });
    await vi.waitFor(() => expect(encodeClip).toHaveBeenCalled());
    const crash = recorder.handleCdpEvent(7, 'Inspector.targetCrashed', {}, () => 'https://shop.test/cart');
    recorder.forgetTab(7);
    clock.t += 30_000;
    await ports.ring.add(meta(clock.t), new Uint8Array(3)); // evicts what is not kept
    release();
    await first;
    await crash;
    const bundles = await ports.bundles.list();
    const crashed = bundles.find((b) => b.reason === 'tab_crashed');
    expect(crashed).toBeDefined();
    const zip = await JSZip.loadAsync((await ports.bundles.read(crashed!.id))!);
    // The two frames from the start of its window are in it.
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string')) as { frames: { ts: number }[] };
    expect(manifest.frames.map((f) => f.ts - T0).slice(0, 2)).toEqual([-14_000, -13_000]);
  });

  it('tries a start that failed again (storage refused once)', async () => {
    const store = new MemoryFrameStore();
    const listMeta = vi.spyOn(store, 'listMeta').mockRejectedValueOnce(new Error('Internal error opening backing store'));
    const { recorder, ports, clock } = setup({ ring: new FrameRing(store, { now: () => T0 }, { maxAgeMs: 15_000, maxBytes: 1 << 20 }) });
    await expect(recorder.start()).rejects.toThrow(/backing store/);
    await recorder.start();
    expect(listMeta).toHaveBeenCalledTimes(2);
    await recorder.handleMessage(stepMessage(), origin);
    expect(await ports.stepLog.between(7, 0, clock.t + 1)).toHaveLength(1);
    recorder.loop.stop();
  });

  it('falls back to chrome.webRequest for tabs without a debugger, and ignores it for tabs with one', async () => {
    const { recorder, ports, attached } = setup();
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

  it('a failed assertion bundles with persistMode on_fail, and resolves to the bundle id', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    expect(await recorder.assert({ tabId: 7, label: 'cart shows 2 items', passed: true })).toBeNull();
    const id = await recorder.assert({ tabId: 7, label: 'total is $108', passed: false, expected: '$108', actual: '$0' });
    expect(id).toMatch(/^afr-/);
    expect((await ports.bundles.list())[0]).toMatchObject({ id, reason: 'assertion_failed', label: 'total is $108' });
    const asserts = (await ports.stepLog.between(7, 0, T0 + 1)).filter((s) => s.kind === 'assert');
    expect(asserts.map((s) => [s.outcome, s.detail?.passed])).toEqual([['ok', true], ['fail', false]]);
    recorder.loop.stop();
  });

  it('persistMode always bundles a passing run at runEnd with the run’s agent and task', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'always' });
    const runId = await recorder.runStart({ tabId: 7, runId: 'nightly-42', agent: 'shop-bot', agentVersion: '2.1', task: 'buy shoes' });
    expect(runId).toBe('nightly-42');
    expect((await recorder.status()).run).toMatchObject({ active: true, agent: 'shop-bot', task: 'buy shoes' });
    await recorder.mark({ tabId: 7, label: 'cart reached' });
    const id = await recorder.runEnd({ tabId: 7, outcome: 'passed' });
    expect((await ports.bundles.list())[0]).toMatchObject({ id, reason: 'run_passed' });
    expect((await recorder.status()).run.active).toBe(false);
    recorder.loop.stop();
  });

  it('persistMode manual records failures without bundling; afr.fail still bundles', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    await recorder.configure({ persistMode: 'manual' });
    await recorder.handleCdpEvent(7, 'Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom' } } }, () => null);
    expect(await recorder.assert({ tabId: 7, label: 'x', passed: false })).toBeNull();
    expect(await ports.bundles.list()).toHaveLength(0);
    await recorder.fail({ tabId: 7, reason: 'operator' });
    expect(await ports.bundles.list()).toHaveLength(1);
    recorder.loop.stop();
  });

  it('capture level below screenshots stops frame capture; raising it mid-run starts it again', async () => {
    const { recorder } = setup();
    await recorder.start();
    expect(recorder.loop.isRunning).toBe(true);
    await recorder.configure({ captureLevel: 'metadata' });
    expect(recorder.loop.isRunning).toBe(false);
    expect((await recorder.status()).captureLevel).toBe('metadata');
    await recorder.configure({ captureLevel: 'full' });
    expect(recorder.loop.isRunning).toBe(true);
    recorder.loop.stop();
  });

  it('waits the after-failure tail before packaging, so the frames after the signal are in the bundle', async () => {
    const slept: number[] = [];
    const { recorder, ports, clock } = setup({
      sleep: async (ms) => {
        slept.push(ms);
        clock.t += ms;
      },
    });
    await recorder.start();
    await recorder.configure({ postFailureSeconds: 3 });
    await recorder.fail({ tabId: 7, reason: 'x' });
    // Then the steps of the tail's last moment, which may still be in their page's batch.
    expect(slept).toEqual([3_000, STEPS_IN_FLIGHT_MS]);
    expect((await ports.bundles.list())[0]!.createdAt).toBe(new Date(T0 + 3_000 + STEPS_IN_FLIGHT_MS).toISOString());
    recorder.loop.stop();
  });

  it('afr.fail skips the cooldown, defaults to the visible tab and resolves to the stored bundle id', async () => {
    const { recorder, ports, clock } = setup();
    await recorder.start();
    await vi.waitFor(() => expect(recorder.loop.targets()).toHaveLength(1));
    const first = await recorder.fail({ reason: 'agent_failure', label: 'one' });
    clock.t += 5;
    const second = await recorder.fail({ reason: 'agent_failure', label: 'two' });
    expect(first).not.toBe(second);
    expect((await ports.bundles.list()).map((b) => [b.label, b.tabId])).toEqual([['two', 7], ['one', 7]]);
    recorder.loop.stop();
  });

  it('afr.fail right after start-up (the capture loop has seen no tab yet) is about the visible tab, timed at the call', async () => {
    let visible: { tabId: number; windowId: number; url: string }[] = [];
    const { recorder, ports, clock } = setup({
      capturer: { listTargets: async () => visible, capture: async () => ({ jpeg: new Uint8Array([0xff, 0xd8, 1]), width: 1280, height: 720 }) },
    });
    await recorder.start();
    expect(recorder.loop.targets()).toEqual([]);
    // The agent's tab has just navigated to a page the loop has not looked at.
    visible = [{ tabId: 9, windowId: 1, url: 'https://shop.test/next' }];
    const id = await recorder.fail({ reason: 'agent_failure' });
    expect((await ports.bundles.list())[0]).toMatchObject({ tabId: 9 });
    const zip = await JSZip.loadAsync((await ports.bundles.read(id))!);
    const steps = StepsFileSchema.parse(JSON.parse(await zip.file('steps.json')!.async('string')));
    expect(steps.steps.at(-1)).toMatchObject({ tab_id: 9, ts: clock.t, action: 'failure: agent_failure' });
    recorder.loop.stop();
  });

  it('concurrent afr.fail calls on one tab each get their own bundle, one after the other', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    const ids = await Promise.all([recorder.fail({ tabId: 7, reason: 'a' }), recorder.fail({ tabId: 7, reason: 'b' })]);
    expect(new Set(ids).size).toBe(2);
    expect(await ports.bundles.list()).toHaveLength(2);
    recorder.loop.stop();
  });

  it.each([
    ['fail without reason', (r: Recorder) => r.fail({}), /afr\.fail: reason/],
    ['assert without passed', (r: Recorder) => r.assert({ label: 'x' }), /afr\.assert: passed/],
    ['runStart with a bad run id', (r: Recorder) => r.runStart({ runId: '../x' }), /afr\.runStart: runId/],
    ['signals with a bad regex', (r: Recorder) => r.configure({ signals: { exception: { ignoreMessages: ['('] } } }), /regular expression/],
    ['fail with a huge reason', (r: Recorder) => r.fail({ reason: 'x'.repeat(5_000) }), /reason/],
    ['step with unknown keys', (r: Recorder) => r.step({ action: 'x', secret: 1 }), /afr\.step/],
    ['export of a path', (r: Recorder) => r.exportBundle('../../etc/passwd'), /not a bundle id/],
    ['export of a missing bundle', (r: Recorder) => r.exportBundle('afr-20261122T120000Z-aaaaaa'), /no bundle with id/],
    ['configure with a bad value', (r: Recorder) => r.configure({ jpegQuality: 500 }), /jpegQuality/],
  ])('rejects %s with a message', async (_name, call, message) => {
    const { recorder } = setup();
    await recorder.start();
    const error = await call(recorder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect(error instanceof RecorderInputError || (error as Error).name === 'SettingsError').toBe(true);
    recorder.loop.stop();
  });

  it('masks secrets an agent puts into its own steps', async () => {
    const { recorder, ports } = setup();
    await recorder.start();
    await recorder.step({ tabId: 7, action: 'type jane.doe@example.com into the email field', label: 'card 4111 1111 1111 1111' });
    expect(JSON.stringify(await ports.stepLog.between(7, 0, T0 + 1))).not.toMatch(/jane\.doe@example\.com|4111 1111 1111 1111/);
    recorder.loop.stop();
  });

  it('reports status: recording, frames, bytes and the run', async () => {
    const { recorder } = setup();
    await recorder.start();
    await vi.waitFor(async () => expect((await recorder.status()).frames).toBeGreaterThan(0));
    const status = await recorder.status();
    expect(status).toMatchObject({ recording: true, runId: 'run-test', version: '0.1.0', tabs: [{ tabId: 7, windowId: 1, debugger: false }] });
    expect(status.bytes).toBeGreaterThan(0);
    recorder.loop.stop();
  });
});

const screencastPort = () => ({
  attachedTabs: () => [7],
  start: vi.fn(async () => {}),
  stop: vi.fn(async () => {}),
  ack: vi.fn(async () => {}),
  screenshot: vi.fn(async () => ''),
});

describe('Recorder: the frames of a failure', () => {
  it('a screencasting tab gets a screenshot when the signal comes and after the tail, before packaging; a crashed one none', async () => {
    const screencast = screencastPort();
    const events: string[] = [];
    screencast.screenshot.mockImplementation(async () => {
      events.push('screenshot');
      return '';
    });
    const { recorder, clock, attached, ports } = setup({
      screencast,
      sleep: async (ms) => {
        events.push(`sleep ${ms}`);
        clock.t += ms;
      },
    });
    attached.add(7);
    await recorder.start();
    await recorder.configure({ postFailureSeconds: 2, failureCooldownMs: 0 });
    await recorder.fail({ tabId: 7, reason: 'agent_failure' });
    expect(events).toEqual(['screenshot', 'sleep 2000', 'screenshot', `sleep ${STEPS_IN_FLIGHT_MS}`]);

    events.length = 0;
    await recorder.handleCdpEvent(7, 'Inspector.targetCrashed', {}, () => 'https://shop.test/cart');
    expect((await ports.bundles.list())[0]!.reason).toBe('tab_crashed');
    expect(events).not.toContain('screenshot');
    recorder.loop.stop();
  });
});

describe('Recorder: frames inside the page', () => {
  it("a frame of the page loading a document makes the tab's regions unknown until the top reports again, and asks it to, once per document", async () => {
    const requestRegions = vi.fn();
    const { recorder } = setup({ requestRegions });
    await recorder.start();
    await recorder.configure({ captureLevel: 'full' });
    const rects = { type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 1280, height: 720 }, device_pixel_ratio: 1, rects: [] };
    await recorder.handleMessage(rects, origin);
    // Its content script connected: the frame (perhaps of another origin) has a new document.
    recorder.handleFrameConnected(7, 3, 'doc-a');
    expect(requestRegions).toHaveBeenCalledWith(7);
    // The same document connecting again (after a worker restart), or the top document, asks nothing.
    requestRegions.mockClear();
    await recorder.handleMessage(rects, origin);
    recorder.handleFrameConnected(7, 3, 'doc-a');
    recorder.handleFrameConnected(7, 0, 'doc-top');
    expect(requestRegions).not.toHaveBeenCalled();
    // Another document in that frame does.
    recorder.handleFrameConnected(7, 3, 'doc-b');
    expect(requestRegions).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });

  it("a frame's document connecting again after a worker restart leaves the regions the top reported since", async () => {
    const requestRegions = vi.fn();
    const { recorder } = setup({ requestRegions });
    await recorder.start();
    await recorder.configure({ captureLevel: 'full' });
    // The new worker: the top reported when its port was dropped, then a frame's port connects again.
    await recorder.handleMessage({ type: 'redaction/rects', ts: T0, url: 'https://shop.test/cart', viewport: { width: 1280, height: 720 }, device_pixel_ratio: 1, rects: [] }, origin);
    recorder.handleFrameConnected(7, 3, 'doc-a', true);
    expect(requestRegions).not.toHaveBeenCalled(); // (asked whenever they are forgotten)
    // Its later connections are of a document seen; another document in the frame is new.
    recorder.handleFrameConnected(7, 3, 'doc-a');
    recorder.handleFrameConnected(7, 3, 'doc-b');
    expect(requestRegions).toHaveBeenCalledTimes(1);
    recorder.loop.stop();
  });
});

describe('Recorder: bursts of actions in auto capture', () => {
  it.each([
    { label: 'observed clicks back to back hold the screencast', kind: 'click', held: true },
    { label: 'navigations (a page and its frames loading) do not', kind: 'navigate', held: false },
  ])('$label', async ({ kind, held }) => {
    const screencast = screencastPort();
    const { recorder, clock, attached } = setup({ screencast });
    attached.add(7);
    await recorder.start();
    expect(screencast.start).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 4; i++) {
      await recorder.handleMessage(stepMessage({ ts: clock.t, kind, action: kind }), origin);
      clock.t += 120;
    }
    recorder.loop.stop();
    expect(screencast.stop).toHaveBeenCalledTimes(held ? 1 : 0);
  });

  it("the agent's own steps count as actions, whatever captureOnAction says", async () => {
    const screencast = screencastPort();
    const { recorder, clock, attached } = setup({ screencast });
    attached.add(7);
    await recorder.start();
    await recorder.configure({ captureOnAction: false });
    // A visible tab (the capture loop has seen it): held, captureVisibleTab goes on meanwhile.
    await vi.waitFor(async () => expect((await recorder.status()).tabs).toHaveLength(1));
    for (let i = 0; i < 3; i++) {
      await recorder.step({ action: `fill field ${i}`, tabId: 7 });
      clock.t += 120;
    }
    recorder.loop.stop();
    expect(screencast.stop).toHaveBeenCalledTimes(1);
    expect(screencast.screenshot).not.toHaveBeenCalled();
  });
});
