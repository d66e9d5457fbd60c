import { describe, expect, it } from 'vitest';
import { failureSignature, fingerprintOf, signatureLine, type FailureFacts } from './fingerprint';

const fingerprint = (facts: FailureFacts): string => fingerprintOf(failureSignature(facts));

const exception = (over: Partial<FailureFacts> = {}): FailureFacts => ({
  reason: 'exception',
  message: "Uncaught Error: order 8812 could not be priced at 2026-11-28T10:00:00Z",
  url: 'https://shop.test/orders/8812/checkout?step=2',
  stack: 'Error: order 8812 could not be priced\n    at priceOrder (https://shop.test/static/app.3f9a8b7c.js:120:17)\n    at onPay (https://shop.test/static/app.3f9a8b7c.js:88:5)',
  request: null,
  lastStep: { action: 'click', target: { tag: 'button', role: 'button', name: 'Pay 42.10 EUR' } },
  ...over,
});

const http503 = (over: Partial<FailureFacts> = {}): FailureFacts => ({
  reason: 'http_5xx',
  message: 'HTTP 503: GET https://shop.test/api/stock?sku=A-1',
  url: 'https://shop.test/cart',
  stack: null,
  request: { method: 'GET', url: 'https://shop.test/api/stock?sku=A-1', status: 503 },
  lastStep: { action: 'click', target: { tag: 'button', role: 'button', name: 'Update cart' } },
  ...over,
});

describe('fingerprint', () => {
  it.each<[string, FailureFacts, FailureFacts]>([
    [
      'the same exception on another order, time and build',
      exception(),
      exception({
        message: 'Uncaught Error: order 9031 could not be priced at 2026-11-29T16:42:07Z',
        url: 'https://shop.test/orders/9031/checkout',
        stack: 'Error: order 9031 could not be priced\n    at priceOrder (https://shop.test/static/app.77aa01bc.js:131:2)\n    at onPay (https://shop.test/static/app.77aa01bc.js:90:1)',
        lastStep: { action: 'click', target: { tag: 'button', role: 'button', name: 'Pay 17.00 EUR' } },
      }),
    ],
    ['a 503 on one API with other query values', http503(), http503({ message: 'HTTP 503: GET https://shop.test/api/stock?sku=B-77&n=2', request: { method: 'GET', url: 'https://shop.test/api/stock?sku=B-77&n=2', status: 503 } })],
    ['a failed assertion for another user', { reason: 'assertion', message: 'Expected "Thank you, Petra" to be visible', url: 'https://shop.test/done', stack: null, request: null, lastStep: null }, { reason: 'assertion', message: 'Expected "Thank you, Jonas" to be visible', url: 'https://shop.test/done', stack: null, request: null, lastStep: null }],
  ])('one fingerprint for %s', (_name, a, b) => {
    expect(fingerprint(a)).toBe(fingerprint(b));
  });

  it.each<[string, FailureFacts, FailureFacts]>([
    ['two different exceptions on one page', exception(), exception({ message: "Uncaught TypeError: Cannot read properties of undefined (reading 'total')", stack: "TypeError: x\n    at sumLines (https://shop.test/static/app.3f9a8b7c.js:40:3)" })],
    ['the same message thrown from another function', exception(), exception({ stack: 'Error: order 8812 could not be priced\n    at quoteShipping (https://shop.test/static/app.3f9a8b7c.js:300:1)' })],
    ['a 503 on another API', http503(), http503({ request: { method: 'GET', url: 'https://shop.test/api/prices?sku=A-1', status: 503 }, message: 'HTTP 503: GET https://shop.test/api/prices?sku=A-1' })],
    ['a 500 instead of a 503', http503(), http503({ request: { method: 'GET', url: 'https://shop.test/api/stock?sku=A-1', status: 500 }, message: 'HTTP 500: GET https://shop.test/api/stock?sku=A-1' })],
    ['another kind of page', http503(), http503({ url: 'https://shop.test/wishlist' })],
    ['after another action', http503(), http503({ lastStep: { action: 'click', target: { tag: 'button', role: 'button', name: 'Remove item' } } })],
    ['another reason', exception(), exception({ reason: 'fail' })],
  ])('another fingerprint for %s', (_name, a, b) => {
    expect(fingerprint(a)).not.toBe(fingerprint(b));
  });

  it('is 16 hex digits and reads as its parts', () => {
    const signature = failureSignature(exception());
    expect(fingerprintOf(signature)).toMatch(/^[0-9a-f]{16}$/);
    expect(signature).toEqual({
      reason: 'exception',
      message: 'Uncaught Error: order <n> could not be priced at <date>',
      page: 'shop.test/orders/{n}/checkout',
      request: null,
      frames: ['priceOrder @ shop.test/static/app.{hash}.js', 'onPay @ shop.test/static/app.{hash}.js'],
      step: 'click button "Pay <n> EUR"',
    });
    expect(signatureLine(signature)).toBe('exception: Uncaught Error: order <n> could not be priced at <date> · shop.test/orders/{n}/checkout · priceOrder @ shop.test/static/app.{hash}.js · after click button "Pay <n> EUR"');
  });

  it('names a failed request that had no answer', () => {
    expect(failureSignature(http503({ reason: 'network_failure', request: { method: 'POST', url: 'https://shop.test/api/pay', status: null } })).request).toBe('POST shop.test/api/pay failed');
  });
});
