import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HarFileSchema, NetworkSettingsSchema, type HarFile, type NetworkSettings } from '../../schemas/network';
import { requestEvents, type FakeRequest } from '../../test/fakes/cdp-network';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { NetworkLog } from './network-log';
import type { ResponseBody } from './ports';

const harSchema = JSON.parse(readFileSync(new URL('../../test/fixtures/har-1.2.schema.json', import.meta.url), 'utf8')) as object;
const checkHar = new Ajv2020({ allErrors: true, strict: false }).compile(harSchema);
const T0 = 1_800_000_000;
const creator = { name: 'Agent Flight Recorder', version: '0.0.0' };
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA';

function makeLog(options: { network?: Partial<NetworkSettings>; bodies?: Record<string, ResponseBody>; now?: number } = {}) {
  const network = NetworkSettingsSchema.parse(options.network ?? {});
  const clock = { now: () => options.now ?? (T0 + 1) * 1000 };
  const bodies = options.bodies ?? {};
  const log = new NetworkLog({
    clock,
    masker: () => BUILT_IN_MASKER,
    settings: () => ({ network, bufferSeconds: 15, postFailureSeconds: 2 }),
    bodies: { responseBody: (_tab, id) => (bodies[id] ? Promise.resolve(bodies[id]) : Promise.reject(new Error('No resource with given identifier found'))) },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const play = (...requests: FakeRequest[]) => requests.forEach((r) => requestEvents(r).forEach(([method, params]) => log.handleEvent(1, method, params)));
  const har = async (start = T0 * 1000 - 60_000, end = (T0 + 100) * 1000) => (await log.har(1, start, end, creator))!;
  return { log, play, har };
}

function expectValidHar(har: HarFile) {
  expect(HarFileSchema.safeParse(har).success).toBe(true);
  expect(checkHar(har), JSON.stringify(checkHar.errors)).toBe(true);
}

const login: FakeRequest = {
  id: 'r1',
  url: 'https://shop.test/api/login?next=/home&token=abc123',
  method: 'POST',
  at: T0,
  headers: { 'Content-Type': 'application/json', Cookie: 'sid=s3cr3t-session' },
  postData: JSON.stringify({ user: 'ada', password: 'correct horse battery' }),
  responseHeaders: { 'Content-Type': 'application/json' },
  extraResponseHeaders: { 'Set-Cookie': `session=${TOKEN}; Path=/; HttpOnly` },
};
const api: FakeRequest = { id: 'r2', url: 'https://shop.test/api/orders', at: T0 + 0.1, headers: { Authorization: `Bearer ${TOKEN}` } };

describe('NetworkLog → network.har', () => {
  it('writes HAR 1.2 with every required field, masked', async () => {
    const { play, har } = makeLog({
      bodies: {
        r1: { body: JSON.stringify({ access_token: TOKEN, refresh_token: 'r'.repeat(48), user: { name: 'Ada' } }), base64Encoded: false },
        r2: { body: '{"error":"token_expired"}', base64Encoded: false },
      },
    });
    play({ id: 'd1', url: 'https://shop.test/', type: 'Document', loaderId: 'd1', at: T0 - 1, mimeType: 'text/html' }, login, api);
    const out = await har();
    expectValidHar(out);
    expect(out.log.pages.map((p) => p.title)).toEqual(['https://shop.test/']);
    const [, post, get] = out.log.entries;
    expect(post!.request.url).toBe('https://shop.test/api/login?next=/home&token=REDACTED');
    expect(post!.request.queryString).toEqual([
      { name: 'next', value: '/home' },
      { name: 'token', value: 'REDACTED' },
    ]);
    expect(post!.request.cookies).toEqual([{ name: 'sid', value: '[redacted 8+]' }]);
    expect(JSON.parse(post!.request.postData!.text)).toEqual({ user: 'ada', password: '[redacted 8+]' });
    expect(post!.response.cookies).toEqual([{ name: 'session', value: '[redacted 32+]', path: '/', httpOnly: true }]);
    expect(JSON.parse(post!.response.content.text!)).toEqual({ access_token: '[redacted 32+]', refresh_token: '[redacted 32+]', user: { name: 'Ada' } });
    expect(get!.request.headers).toEqual([{ name: 'Authorization', value: 'Bearer [redacted 32+]' }]);
    expect(get!.response.content.text).toBe('{"error":"token_expired"}');
    expect(get!.pageref).toBe(out.log.pages[0]!.id);
    expect(get!.timings).toMatchObject({ dns: 1, connect: 1.5, send: 0.3, wait: 16.5 });
    expect(get!.time).toBeCloseTo(30, 0);
    expect(out.log._afr.withheld_values).toBe(6);
    const text = JSON.stringify(out);
    for (const secret of [TOKEN, 'correct horse', 's3cr3t-session', 'abc123', 'r'.repeat(48)]) expect(text).not.toContain(secret);
  });

  it('keeps the bodies the setting names', async () => {
    const reqs: FakeRequest[] = [
      { id: 'doc', url: 'https://a.test/', type: 'Document', loaderId: 'doc', at: T0, mimeType: 'text/html' },
      { id: 'js', url: 'https://a.test/app.js', type: 'Script', at: T0, mimeType: 'text/javascript' },
      { id: 'xhr', url: 'https://a.test/api', type: 'XHR', at: T0, mimeType: 'application/json' },
      { id: 'img', url: 'https://a.test/a.png', type: 'Image', at: T0, mimeType: 'image/png' },
    ];
    const bodies = { doc: { body: '<p>hi</p>', base64Encoded: false }, js: { body: 'x()', base64Encoded: false }, xhr: { body: '{}', base64Encoded: false }, img: { body: 'AAAA', base64Encoded: true } };
    const kept = async (mode: NetworkSettings['bodies']) => {
      const { play, har } = makeLog({ network: { bodies: mode }, bodies });
      play(...reqs);
      return Object.fromEntries((await har()).log.entries.map((e) => [e.request.url.split('/').pop() || 'doc', e.response.content.text ?? e.response.content._omitted]));
    };
    expect(await kept('off')).toEqual({ doc: 'not_kept', 'app.js': 'not_kept', api: 'not_kept', 'a.png': 'binary' });
    expect(await kept('api')).toEqual({ doc: 'not_kept', 'app.js': 'not_kept', api: '{}', 'a.png': 'binary' });
    expect(await kept('documents')).toEqual({ doc: '<p>hi</p>', 'app.js': 'not_kept', api: '{}', 'a.png': 'binary' });
    expect(await kept('all')).toEqual({ doc: '<p>hi</p>', 'app.js': 'x()', api: '{}', 'a.png': 'binary' });
  });

  it('says when a body is gone from the browser and when a request failed', async () => {
    const { play, har } = makeLog();
    play(api, { id: 'f', url: 'https://shop.test/down', at: T0 + 0.2, failed: 'net::ERR_CONNECTION_REFUSED' });
    const out = await har();
    expectValidHar(out);
    expect(out.log.entries[0]!.response.content._omitted).toBe('unavailable');
    expect(out.log.entries[1]).toMatchObject({ response: { status: 0 }, _error: 'net::ERR_CONNECTION_REFUSED' });
    expect(out.log._afr.omitted_bodies).toEqual({ unavailable: 1 });
  });

  it('says a response still in flight is pending', async () => {
    const { log, har } = makeLog();
    const [sent, , answered] = requestEvents({ ...api, extraResponseHeaders: {} });
    log.handleEvent(1, ...sent!);
    log.handleEvent(1, ...answered!);
    const out = await har();
    expectValidHar(out);
    expect(out.log.entries[0]!.response).toMatchObject({ status: 200, content: { _omitted: 'pending' } });
  });

  it('follows a redirect as two entries', async () => {
    const { log, har } = makeLog();
    log.handleEvent(1, 'Network.requestWillBeSent', { requestId: 'x', type: 'Document', loaderId: 'x', timestamp: T0, wallTime: T0, request: { url: 'https://a.test/old', method: 'GET', headers: {} } });
    log.handleEvent(1, 'Network.requestWillBeSent', {
      requestId: 'x',
      type: 'Document',
      loaderId: 'x',
      timestamp: T0 + 0.01,
      wallTime: T0 + 0.01,
      request: { url: 'https://a.test/new', method: 'GET', headers: {} },
      redirectResponse: { status: 302, statusText: 'Found', headers: { Location: 'https://a.test/new?code=xyz' }, mimeType: '', protocol: 'h2' },
    });
    const out = await har();
    expectValidHar(out);
    expect(out.log.entries.map((e) => [e.request.url, e.response.status, e.response.redirectURL])).toEqual([
      ['https://a.test/old', 302, 'https://a.test/new?code=REDACTED'],
      ['https://a.test/new', 0, ''],
    ]);
  });

  it('keeps only the window', async () => {
    const { play, har } = makeLog();
    play(login, api);
    expect((await har(api.at * 1000 + 5, api.at * 1000 + 100)).log.entries.map((e) => e.request.url)).toEqual(['https://shop.test/api/orders']);
  });
});

describe('NetworkLog bounds', () => {
  it('10,000 requests: the oldest go past maxEntries, counted', async () => {
    const { play, har } = makeLog({ network: { maxEntries: 500 } });
    for (let i = 0; i < 10_000; i++) play({ id: `q${i}`, url: `https://a.test/i/${i}`, at: T0 + i / 1000, mimeType: 'image/png' });
    const out = await har();
    expect(out.log.entries).toHaveLength(500);
    expect(out.log.entries[0]!.request.url).toBe('https://a.test/i/9500');
    expect(out.log._afr).toMatchObject({ requests_seen: 10_000, dropped_requests: 9_500 });
  });

  it('a flood of bytes: the oldest go past maxBytes', async () => {
    const { play, har } = makeLog({ network: { maxBytes: 1024 * 1024 } });
    for (let i = 0; i < 300; i++) play({ id: `b${i}`, url: `https://a.test/${i}`, at: T0 + i / 1000, headers: { 'X-Big': 'v '.repeat(2000) } });
    const out = await har();
    expect(out.log.entries.length).toBeLessThan(300);
    expect(out.log._afr.dropped_requests).toBe(300 - out.log.entries.length);
  });

  it('a 1 MiB header is cut and counted', async () => {
    const { play, har } = makeLog();
    play({ id: 'h', url: 'https://a.test/', at: T0, headers: { 'X-Huge': 'x '.repeat(512 * 1024) } });
    const out = await har();
    expect(out.log.entries[0]!.request.headers[0]!.value.length).toBeLessThanOrEqual(8192);
    expect(out.log._afr.truncated_headers).toBe(1);
  });

  it('requests past the window go once ended', async () => {
    const { play, har } = makeLog({ now: (T0 + 60) * 1000 });
    play(login, { ...api, at: T0 + 59 });
    expect((await har()).log.entries.map((e) => e.request.url)).toEqual(['https://shop.test/api/orders']);
  });

  it('JSON 10,000 deep and non-UTF-8 bodies are left out, counted, with their hash', async () => {
    const { play, har } = makeLog({
      bodies: { deep: { body: '['.repeat(10_000) + ']'.repeat(10_000), base64Encoded: false }, bin: { body: btoa('\xff\xfe{}'), base64Encoded: true } },
    });
    play({ id: 'deep', url: 'https://a.test/deep', at: T0 }, { id: 'bin', url: 'https://a.test/bin', at: T0 });
    const out = await har();
    expectValidHar(out);
    expect(out.log.entries.map((e) => [e.response.content._omitted, e.response.content._sha256?.length])).toEqual([
      ['too_deep', 64],
      ['not_utf8', 64],
    ]);
    expect(out.log._afr.omitted_bodies).toEqual({ too_deep: 1, not_utf8: 1 });
  });

  it('the bundle’s body cap keeps the newest bodies', async () => {
    const body = { body: JSON.stringify({ v: 'x'.repeat(40_000) }), base64Encoded: false };
    const { play, har } = makeLog({ network: { maxBundleBodyBytes: 64 * 1024 }, bodies: { a: body, b: body, c: body } });
    play({ id: 'a', url: 'https://a.test/a', at: T0 }, { id: 'b', url: 'https://a.test/b', at: T0 + 1 }, { id: 'c', url: 'https://a.test/c', at: T0 + 2 });
    const out = await har();
    expect(out.log.entries.map((e) => e.response.content._omitted ?? 'kept')).toEqual(['bundle_cap', 'bundle_cap', 'kept']);
  });
});
