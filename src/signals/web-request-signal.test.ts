import { describe, expect, it } from 'vitest';
import { webRequestSignal, type WebRequestEvent } from './web-request-signal';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const event = (over: Partial<WebRequestEvent>): WebRequestEvent => ({ tabId: 7, url: 'https://shop.test/api', method: 'GET', type: 'xmlhttprequest', statusCode: null, error: null, ...over });

describe('webRequestSignal', () => {
  it.each([
    ['a 5xx', event({ statusCode: 502 }), { kind: 'http_5xx', message: 'HTTP 502: GET https://shop.test/api' }],
    ['a 4xx', event({ statusCode: 404 }), { kind: 'http_4xx', message: 'HTTP 404: GET https://shop.test/api' }],
    ['a failed load', event({ type: 'image', error: 'net::ERR_NAME_NOT_RESOLVED' }), { kind: 'network_failure', message: 'GET https://shop.test/api failed: net::ERR_NAME_NOT_RESOLVED' }],
    ['a 5xx on the favicon', event({ url: 'https://shop.test/favicon.ico', type: 'other', statusCode: 503 }), { kind: 'http_5xx', message: 'HTTP 503: GET https://shop.test/favicon.ico' }],
  ])('turns %s into a signal of the tab’s page', (_name, e, expected) => {
    expect(webRequestSignal(e, 'https://shop.test/cart', T0)).toMatchObject({ ...expected, tabId: 7, pageUrl: 'https://shop.test/cart', ts: T0, origin: 'web_request', stack: null });
  });

  it.each([
    ['a success', event({ statusCode: 200 })],
    ['a cancelled load', event({ error: 'net::ERR_ABORTED' })],
    ['a request without a status', event({})],
    ['the browser\u2019s own favicon request, answered 404', event({ url: 'https://shop.test/favicon.ico', type: 'other', statusCode: 404 })],
    ['the browser\u2019s own favicon request, failed', event({ url: 'https://shop.test/favicon.ico', type: 'other', error: 'net::ERR_CONNECTION_RESET' })],
  ])('finds no signal in %s', (_name, e) => {
    expect(webRequestSignal(e, null, T0)).toBeNull();
  });

  it('names the request, and a document request is its own page', () => {
    const signal = webRequestSignal(event({ url: 'https://shop.test/checkout', method: 'POST', type: 'main_frame', statusCode: 500 }), 'https://shop.test/cart', T0);
    expect(signal).toMatchObject({
      pageUrl: 'https://shop.test/checkout',
      request: { url: 'https://shop.test/checkout', method: 'POST', status: 500, resourceType: 'Document', durationMs: null, errorText: null },
    });
    expect(webRequestSignal(event({ type: 'something_new', statusCode: 500 }), null, T0)?.request?.resourceType).toBe('Other');
  });
});
