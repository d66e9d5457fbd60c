import { describe, expect, it } from 'vitest';
import { NetworkSettingsSchema, type NetworkBodyMode } from '../../schemas/network';
import { DEFAULT_SIGNAL_RULES, type SignalRule } from '../../schemas/signals';
import { requestEvents, type FakeRequest } from '../../test/fakes/cdp-network';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { NetworkLog, type AppErrorSeen } from './network-log';

const T0 = 1_800_000_000;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA';
const creator = { name: 'Agent Flight Recorder', version: '0.0.0' };

function makeLog(options: { bodies?: NetworkBodyMode; rule?: Partial<SignalRule>; answers?: Record<string, string>; now?: () => number } = {}) {
  const network = NetworkSettingsSchema.parse({ bodies: options.bodies ?? 'documents' });
  const signals = { app_error: { ...DEFAULT_SIGNAL_RULES.app_error, ...options.rule } };
  const read: string[] = [];
  const seen: AppErrorSeen[] = [];
  const log = new NetworkLog({
    clock: { now: options.now ?? (() => (T0 + 1) * 1000) },
    masker: () => BUILT_IN_MASKER,
    settings: () => ({ network, bufferSeconds: 15, postFailureSeconds: 2, signals }),
    bodies: {
      responseBody: (_tab, id) => {
        read.push(id);
        const body = options.answers?.[id] ?? '{"items":[]}';
        return Promise.resolve({ body, base64Encoded: false });
      },
    },
    appError: (_tab, s) => seen.push(s),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const play = (...requests: FakeRequest[]) => requests.forEach((r) => requestEvents(r).forEach(([method, params]) => log.handleEvent(1, method, params)));
  const settle = () => log.har(1, 0, (T0 + 100) * 1000, creator);
  return { log, play, settle, read, seen };
}

const orders: FakeRequest = { id: 'o1', url: `https://shop.test/api/orders?page=1&access_token=${TOKEN}`, at: T0, headers: { Authorization: `Bearer ${TOKEN}` } };

describe('NetworkLog: app_error', () => {
  it('reads a 2xx JSON answer to an API call when it ends and tells what says it failed, masked', async () => {
    const { play, settle, seen } = makeLog({ answers: { o1: JSON.stringify({ error: 'token_expired', refresh_token: TOKEN, contact: 'ada@shop.test' }) } });
    play(orders);
    await settle();
    expect(seen).toEqual([
      {
        requestId: 'o1',
        method: 'GET',
        url: 'https://shop.test/api/orders?page=1&access_token=REDACTED',
        status: 200,
        resourceType: 'Fetch',
        durationMs: 30,
        fields: ['error'],
        excerpt: '{"error":"token_expired","refresh_token":"[redacted 32+]","contact":"[email]"}',
      },
    ]);
    expect(JSON.stringify(seen)).not.toContain(TOKEN.slice(-20));
  });

  it('reads it with network.bodies off too, keeping it out of the HAR', async () => {
    const { play, settle, seen } = makeLog({ bodies: 'off', answers: { o1: '{"ok":false}' } });
    play(orders);
    const har = await settle();
    expect(seen.map((s) => s.fields)).toEqual([['ok']]);
    expect(har!.log.entries[0]!.response.content).toEqual({ size: 321, mimeType: 'application/json', _omitted: 'not_kept' });
  });

  it.each<[string, FakeRequest, Partial<SignalRule>]>([
    ['a 4xx (its own signal)', { ...orders, status: 401 }, {}],
    ['a document', { ...orders, type: 'Document' }, {}],
    ['a script', { ...orders, type: 'Script', mimeType: 'application/javascript' }, {}],
    ['a text answer', { ...orders, mimeType: 'text/plain' }, {}],
    ['an answer when the rule is off', orders, { enabled: false }],
    ['a fetch when the rule counts XHR only', orders, { resourceTypes: ['XHR'] }],
  ])('reads no body for %s with network.bodies off', async (_name, request, rule) => {
    const { play, settle, read, seen } = makeLog({ bodies: 'off', rule, answers: { o1: '{"error":"x"}' } });
    play(request);
    await settle();
    expect(read).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('finds nothing in an answer that says no error, or in one the rule’s fields do not name', async () => {
    const { play, settle, seen } = makeLog({
      rule: { jsonFields: ['result=denied'] },
      answers: { a: '{"error":"x"}', b: '{"result":"ok"}', c: '{"result":"denied"}' },
    });
    play({ ...orders, id: 'a' }, { ...orders, id: 'b' }, { ...orders, id: 'c' });
    await settle();
    expect(seen.map((s) => s.requestId)).toEqual(['c']);
  });

  it('logs a fault in the signal’s handling and keeps the body', async () => {
    const logged: string[] = [];
    const network = NetworkSettingsSchema.parse({});
    const log = new NetworkLog({
      clock: { now: () => (T0 + 1) * 1000 },
      masker: () => BUILT_IN_MASKER,
      settings: () => ({ network, bufferSeconds: 15, postFailureSeconds: 2, signals: { app_error: DEFAULT_SIGNAL_RULES.app_error } }),
      bodies: { responseBody: () => Promise.resolve({ body: '{"error":"x"}', base64Encoded: false }) },
      appError: () => {
        throw new Error('boom');
      },
      log: (m) => logged.push(m),
    });
    requestEvents(orders).forEach(([method, params]) => log.handleEvent(1, method, params));
    const har = await log.har(1, 0, (T0 + 100) * 1000, creator);
    expect(har!.log.entries[0]!.response.content.text).toBe('{"error":"x"}');
    expect(logged).toEqual(['[afr] app_error of request o1 not looked at: Error: boom']);
  });

  it('reads no more than 6 bodies at once, and a burst then a steady rate per tab', async () => {
    let now = (T0 + 1) * 1000;
    const { play, read } = makeLog({ bodies: 'off', now: () => now });
    // The reads answer at once: a turn of the event loop ends them.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    play(...Array.from({ length: 50 }, (_, i) => ({ ...orders, id: `x${i}` })));
    expect(read).toHaveLength(6);
    await settle();
    for (let i = 0; i < 200; i++) {
      play({ ...orders, id: `y${i}` });
      await settle();
    }
    expect(read).toHaveLength(100);
    now += 1_000;
    for (let i = 0; i < 100; i++) {
      play({ ...orders, id: `z${i}` });
      await settle();
    }
    expect(read).toHaveLength(150);
  });
});
