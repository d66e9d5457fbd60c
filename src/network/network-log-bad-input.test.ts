import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HarFileSchema, NetworkSettingsSchema, type HarFile, type NetworkSettings } from '../../schemas/network';
import { requestEvents, type CdpEvent, type FakeRequest } from '../../test/fakes/cdp-network';
import { BUILT_IN_MASKER } from '../redact/mask-text';
import { NetworkLog } from './network-log';
import type { ResponseBody } from './ports';

const harSchema = JSON.parse(readFileSync(new URL('../../test/fixtures/har-1.2.schema.json', import.meta.url), 'utf8')) as object;
const checkHar = new Ajv2020({ allErrors: true, strict: false }).compile(harSchema);
const T0 = 1_800_000_000;
const GiB = 1024 ** 3;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA';

/** A log whose body reads are counted: what the debugger would have been asked for. */
function makeLog(options: { network?: Partial<NetworkSettings>; bodies?: Record<string, ResponseBody> } = {}) {
  const network = NetworkSettingsSchema.parse(options.network ?? {});
  const asked: string[] = [];
  const log = new NetworkLog({
    clock: { now: () => (T0 + 1) * 1000 },
    masker: () => BUILT_IN_MASKER,
    settings: () => ({ network, bufferSeconds: 15, postFailureSeconds: 2 }),
    bodies: {
      responseBody: (_tab, id) => {
        asked.push(id);
        const body = options.bodies?.[id];
        return body ? Promise.resolve(body) : Promise.reject(new Error('No resource with given identifier found'));
      },
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const send = (events: CdpEvent[]) => events.forEach(([method, params]) => log.handleEvent(1, method, params));
  const har = async () => {
    const out = (await log.har(1, T0 * 1000 - 60_000, (T0 + 100) * 1000, { name: 'afr', version: '0' }))!;
    expect(HarFileSchema.safeParse(out).success).toBe(true);
    expect(checkHar(out), JSON.stringify(checkHar.errors)).toBe(true);
    return out;
  };
  return { log, send, har, asked };
}

/** A request's events with `loadingFinished` saying `encodedBytes` came in. */
const finishedWith = (r: FakeRequest, encodedBytes: number): CdpEvent[] =>
  requestEvents(r).map(([method, params]) => [method, method === 'Network.loadingFinished' ? { ...params, encodedDataLength: encodedBytes } : params]);

const entryOf = (har: HarFile, path: string) => har.log.entries.find((e) => new URL(e.request.url).pathname === path)!;

describe('NetworkLog: bad input, bounded', () => {
  it('a 1 GiB download is listed with its size and never read, whatever its type', async () => {
    const { send, har, asked } = makeLog({ network: { bodies: 'all' } });
    send(finishedWith({ id: 'zip', url: 'https://a.test/big.zip', type: 'Document', loaderId: 'zip', at: T0, mimeType: 'application/zip' }, GiB));
    send(finishedWith({ id: 'log', url: 'https://a.test/big.log', type: 'Document', loaderId: 'log', at: T0 + 1, mimeType: 'text/plain' }, GiB));
    const out = await har();
    expect(asked).toEqual([]);
    expect(entryOf(out, '/big.zip').response.content).toMatchObject({ size: GiB, _omitted: 'binary' });
    expect(entryOf(out, '/big.log').response.content).toMatchObject({ size: GiB, _omitted: 'too_large' });
    expect(entryOf(out, '/big.log').response.bodySize).toBe(GiB);
    expect(out.log._afr.omitted_bodies).toEqual({ binary: 1, too_large: 1 });
  });

  it('a WebSocket: its handshake listed (101, headers masked), its frames never read', async () => {
    const { send, har, asked } = makeLog();
    send([
      ['Network.webSocketCreated', { requestId: 'ws', url: `wss://a.test/live?token=${TOKEN}` }],
      ['Network.webSocketWillSendHandshakeRequest', { requestId: 'ws', timestamp: T0, wallTime: T0, request: { headers: { Cookie: `session=${TOKEN}`, Upgrade: 'websocket' } } }],
      ['Network.webSocketHandshakeResponseReceived', { requestId: 'ws', timestamp: T0 + 0.01, response: { status: 101, statusText: 'Switching Protocols', headers: { Upgrade: 'websocket' } } }],
      ...Array.from({ length: 1000 }, (_, i): CdpEvent => ['Network.webSocketFrameReceived', { requestId: 'ws', timestamp: T0 + 0.02 + i / 1e4, response: { opcode: 1, mask: false, payloadData: `{"password":"${TOKEN}"}` } }]),
      ['Network.webSocketClosed', { requestId: 'ws', timestamp: T0 + 1 }],
    ]);
    const out = await har();
    expect(asked).toEqual([]);
    expect(out.log.entries).toHaveLength(1);
    const [socket] = out.log.entries;
    expect(socket).toMatchObject({ _resourceType: 'WebSocket', startedDateTime: new Date(T0 * 1000).toISOString(), request: { method: 'GET', url: 'wss://a.test/live?token=REDACTED' } });
    expect(socket!.response).toMatchObject({ status: 101, statusText: 'Switching Protocols', content: { size: 0, _omitted: 'stream' } });
    expect(socket!.request.cookies).toEqual([{ name: 'session', value: '[redacted 32+]' }]);
    expect(socket!.time).toBeCloseTo(1000, 0);
    expect(JSON.stringify(out)).not.toContain(TOKEN);
  });

  it('an event stream (SSE) is never read: pending while open, a stream once closed', async () => {
    const { log, send, har, asked } = makeLog({ network: { bodies: 'all' } });
    const [sent, answered, finished] = requestEvents({ id: 'sse', url: 'https://a.test/events', at: T0, mimeType: 'text/event-stream' });
    send([sent!, answered!]);
    for (let i = 0; i < 1000; i++) log.handleEvent(1, 'Network.dataReceived', { requestId: 'sse', timestamp: T0 + i / 100, dataLength: 64, encodedDataLength: 64 });
    expect((await har()).log.entries[0]!.response.content._omitted).toBe('pending');
    send([finished!]);
    expect((await har()).log.entries[0]!.response.content._omitted).toBe('stream');
    expect(asked).toEqual([]);
  });

  it('a response a service worker served is logged and read like any other', async () => {
    const { send, har, asked } = makeLog({ bodies: { sw: { body: '{"orders":[]}', base64Encoded: false } } });
    send(
      requestEvents({ id: 'sw', url: 'https://a.test/api/orders', at: T0 }).map(([method, params]) => [
        method,
        method === 'Network.responseReceived' ? { ...params, response: { ...(params.response as object), fromServiceWorker: true } } : params,
      ]),
    );
    const out = await har();
    expect(asked).toEqual(['sw']);
    expect(out.log.entries[0]!.response).toMatchObject({ status: 200, content: { text: '{"orders":[]}' } });
  });

  it('requests of a subframe the session sees are logged in the tab, without starting a page', async () => {
    const { log, send, har } = makeLog();
    log.handleEvent(1, 'Page.frameNavigated', { frame: { id: 'top' } });
    send(requestEvents({ id: 'top', url: 'https://a.test/', type: 'Document', loaderId: 'top', frameId: 'top', at: T0, mimeType: 'text/html' }));
    send(requestEvents({ id: 'ad', url: 'https://ads.test/frame', type: 'Document', loaderId: 'ad', frameId: 'child', at: T0 + 0.1, mimeType: 'text/html' }));
    send(requestEvents({ id: 'adapi', url: 'https://ads.test/api', frameId: 'child', at: T0 + 0.2 }));
    const out = await har();
    expect(out.log.pages.map((p) => p.title)).toEqual(['https://a.test/']);
    expect(out.log.entries.map((e) => [e.request.url, e.pageref])).toEqual([
      ['https://a.test/', out.log.pages[0]!.id],
      ['https://ads.test/frame', out.log.pages[0]!.id],
      ['https://ads.test/api', out.log.pages[0]!.id],
    ]);
  });

  it('events that lack what they need, or come out of order, are dropped without a fault', async () => {
    const { log } = makeLog();
    const odd: [string, Record<string, unknown> | undefined][] = [
      ['Network.webSocketCreated', { requestId: 'x' }],
      ['Network.webSocketHandshakeResponseReceived', { requestId: 'nope', response: { status: 101 } }],
      ['Network.webSocketClosed', { requestId: 'nope', timestamp: T0 }],
      ['Network.responseReceived', { requestId: 'nope', response: null }],
      ['Network.loadingFinished', { requestId: 'nope', timestamp: T0 }],
      ['Network.requestWillBeSent', { requestId: 'r', request: { url: 42 } }],
      ['Network.requestWillBeSent', undefined],
    ];
    for (const [method, params] of odd) expect(() => log.handleEvent(1, method, params)).not.toThrow();
    expect((await log.har(1, 0, Number.MAX_SAFE_INTEGER, { name: 'afr', version: '0' }))!.log.entries).toEqual([]);
  });
});
