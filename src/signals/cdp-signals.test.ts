import { describe, expect, it } from 'vitest';
import { CdpSignalTranslator, consoleArgsText } from './cdp-signals';

const make = () => new CdpSignalTranslator(3, () => 'https://shop.test/checkout', () => 1_000);

describe('CdpSignalTranslator', () => {
  it('makes no signal of the browser\u2019s own favicon request, answered 404 or failed, but not of a 5xx on it', () => {
    const t = make();
    t.translate('Network.requestWillBeSent', { requestId: 'f1', request: { url: 'https://shop.test/favicon.ico', method: 'GET' }, type: 'Other', timestamp: 10 });
    expect(t.translate('Network.responseReceived', { requestId: 'f1', type: 'Other', response: { url: 'https://shop.test/favicon.ico', status: 404 } })).toBeNull();
    t.translate('Network.requestWillBeSent', { requestId: 'f2', request: { url: 'https://shop.test/favicon.ico', method: 'GET' }, type: 'Other', timestamp: 10 });
    expect(t.translate('Network.loadingFailed', { requestId: 'f2', type: 'Other', errorText: 'net::ERR_CONNECTION_RESET' })).toBeNull();
    // The server failing on it is the server failing.
    t.translate('Network.requestWillBeSent', { requestId: 'f3', request: { url: 'https://shop.test/favicon.ico', method: 'GET' }, type: 'Other', timestamp: 10 });
    expect(t.translate('Network.responseReceived', { requestId: 'f3', type: 'Other', response: { url: 'https://shop.test/favicon.ico', status: 502 } })).toMatchObject({ kind: 'http_5xx' });
    // A 404 the page asked for is still one.
    t.translate('Network.requestWillBeSent', { requestId: 'i1', request: { url: 'https://shop.test/static/logo.png', method: 'GET' }, type: 'Image', timestamp: 10 });
    expect(t.translate('Network.responseReceived', { requestId: 'i1', type: 'Image', response: { url: 'https://shop.test/static/logo.png', status: 404 } })).toMatchObject({ kind: 'http_4xx' });
  });

  it('reports a 500 on a fetch with method, URL, status and duration', () => {
    const t = make();
    expect(t.translate('Network.requestWillBeSent', { requestId: 'r1', request: { url: 'https://shop.test/api/pay', method: 'POST' }, type: 'Fetch', timestamp: 10 })).toBeNull();
    const s = t.translate('Network.responseReceived', { requestId: 'r1', type: 'Fetch', timestamp: 10.25, response: { url: 'https://shop.test/api/pay', status: 500, statusText: 'Internal Server Error' } });
    expect(s).toMatchObject({
      kind: 'http_5xx',
      tabId: 3,
      pageUrl: 'https://shop.test/checkout',
      message: 'HTTP 500 Internal Server Error: POST https://shop.test/api/pay',
      request: { url: 'https://shop.test/api/pay', method: 'POST', status: 500, resourceType: 'Fetch', durationMs: 250, errorText: null },
    });
  });

  it('takes a failed top-level navigation’s URL as the page of the failure, not a subframe’s', () => {
    const t = make();
    t.translate('Page.frameNavigated', { frame: { id: 'main' } });
    t.translate('Network.requestWillBeSent', { requestId: 'n1', loaderId: 'n1', frameId: 'main', type: 'Document', request: { url: 'https://shop.test/checkout/submit', method: 'POST' } });
    t.translate('Network.requestWillBeSent', { requestId: 'n2', loaderId: 'n2', frameId: 'child', type: 'Document', request: { url: 'https://ads.test/frame', method: 'GET' } });
    const main = t.translate('Network.responseReceived', { requestId: 'n1', type: 'Document', response: { url: 'https://shop.test/checkout/submit', status: 500 } });
    const child = t.translate('Network.responseReceived', { requestId: 'n2', type: 'Document', response: { url: 'https://ads.test/frame', status: 502 } });
    expect(main?.pageUrl).toBe('https://shop.test/checkout/submit');
    expect(child?.pageUrl).toBe('https://shop.test/checkout');
  });

  it.each([
    [{ status: 200 }, null],
    [{ status: 304 }, null],
    [{ status: 404 }, 'http_4xx'],
    [{ status: 503 }, 'http_5xx'],
  ])('classifies response %j', (response, kind) => {
    const s = make().translate('Network.responseReceived', { requestId: 'x', type: 'Image', response: { url: 'https://cdn.test/a.png', ...response } });
    expect(s?.kind ?? null).toBe(kind);
  });

  it('reports a network failure but not a cancelled or aborted request', () => {
    const t = make();
    for (const id of ['a', 'b', 'c']) t.translate('Network.requestWillBeSent', { requestId: id, request: { url: `https://shop.test/api/${id}`, method: 'GET' }, type: 'XHR', timestamp: 1 });
    expect(t.translate('Network.loadingFailed', { requestId: 'a', errorText: 'net::ERR_ABORTED', type: 'XHR' })).toBeNull();
    expect(t.translate('Network.loadingFailed', { requestId: 'b', errorText: 'net::ERR_FAILED', canceled: true, type: 'XHR' })).toBeNull();
    expect(t.translate('Network.loadingFailed', { requestId: 'c', errorText: 'net::ERR_CONNECTION_REFUSED', type: 'XHR', timestamp: 1.5 })).toMatchObject({
      kind: 'network_failure',
      message: 'GET https://shop.test/api/c failed: net::ERR_CONNECTION_REFUSED',
      request: { errorText: 'net::ERR_CONNECTION_REFUSED', durationMs: 500, resourceType: 'XHR' },
    });
  });

  it('forgets finished requests and bounds the ones in flight', () => {
    const t = make();
    for (let i = 0; i < 5_000; i++) t.translate('Network.requestWillBeSent', { requestId: `r${i}`, request: { url: 'https://x.test/', method: 'GET' }, timestamp: 1 });
    expect(t.translate('Network.loadingFailed', { requestId: 'r0', errorText: 'net::ERR_FAILED' })).toBeNull();
    expect(t.translate('Network.loadingFailed', { requestId: 'r4999', errorText: 'net::ERR_FAILED' })).not.toBeNull();
    t.translate('Network.loadingFinished', { requestId: 'r4998' });
    expect(t.translate('Network.loadingFailed', { requestId: 'r4998', errorText: 'net::ERR_FAILED' })).toBeNull();
  });

  it('dates an exception when it was thrown (a replay at attach, however old), or on arrival when that time is missing or implausible', () => {
    const now = 1_795_000_000_000; // ms since the epoch, as CDP's Runtime.Timestamp
    const t = new CdpSignalTranslator(1, () => null, () => now);
    const at = (timestamp: unknown) => t.translate('Runtime.exceptionThrown', { timestamp, exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: x' } } })?.ts;
    expect(at(now - 2_500)).toBe(now - 2_500);
    expect(at(now - 40 * 60_000)).toBe(now - 40 * 60_000);
    expect(at(now + 1_000)).toBe(now + 1_000); // the renderer's clock a little ahead
    expect(at(undefined)).toBe(now);
    expect(at(now / 1000)).toBe(now); // seconds: not this unit
    expect(at(now - 5 * 60 * 60_000)).toBe(now - 5 * 60 * 60_000); // a page open for hours
    expect(at(now + 60_000)).toBe(now);
    expect(at('soon')).toBe(now);
  });

  it.each([
    ['Runtime.exceptionThrown', { exceptionDetails: { text: 'Uncaught', exception: { description: 'Error: boom\n    at f (a.js:1:1)' } } }, 'exception', 'Error: boom'],
    ['Runtime.consoleAPICalled', { type: 'error', args: [{ type: 'string', value: 'checkout failed' }, { type: 'number', value: 42 }] }, 'console_error', 'console.error: checkout failed 42'],
    ['Runtime.consoleAPICalled', { type: 'log', args: [{ type: 'string', value: 'fine' }] }, null, null],
    ['Log.entryAdded', { entry: { level: 'error', source: 'security', text: 'Refused to load the script' } }, 'console_error', 'security: Refused to load the script'],
    ['Log.entryAdded', { entry: { level: 'error', source: 'network', text: 'Failed to load resource: 404' } }, null, null],
    ['Log.entryAdded', { entry: { level: 'warning', source: 'javascript', text: 'deprecated' } }, null, null],
    ['Inspector.targetCrashed', {}, 'crash', 'The page’s renderer process crashed'],
    ['Page.javascriptDialogOpening', { type: 'confirm', message: 'Leave this page?' }, 'dialog', 'confirm: Leave this page?'],
    ['Page.frameNavigated', {}, null, null],
  ])('%s %j', (method, params, kind, message) => {
    const s = make().translate(method, params);
    expect(s?.kind ?? null).toBe(kind);
    if (message) expect(s?.message).toBe(message);
  });
});

describe('consoleArgsText', () => {
  it('joins values and descriptions', () => {
    expect(consoleArgsText([{ type: 'string', value: 'a' }, { type: 'object', description: 'Error: x' }, { type: 'undefined' }, { type: 'object', value: { k: 1 } }])).toBe('a Error: x undefined {"k":1}');
    expect(consoleArgsText('junk')).toBe('');
  });
});
