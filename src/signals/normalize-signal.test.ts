import { describe, expect, it } from 'vitest';
import { FailureSignalSchema } from '../../schemas/failure';
import { describeCdpException, explicitSignal, signalFromRaw } from './normalize-signal';

describe('describeCdpException', () => {
  it.each([
    {
      name: 'Error object',
      details: { text: 'Uncaught', exception: { description: 'TypeError: cart is undefined\n    at checkout (https://shop.test/app.js:10:5)' } },
      message: 'TypeError: cart is undefined',
      stack: 'TypeError: cart is undefined\n    at checkout (https://shop.test/app.js:10:5)',
    },
    {
      name: 'rejected promise',
      details: { text: 'Uncaught (in promise)', exception: { description: 'Error: payment declined\n    at pay (x.js:1:1)' } },
      message: 'Uncaught (in promise): Error: payment declined',
      stack: 'Error: payment declined\n    at pay (x.js:1:1)',
    },
    {
      name: 'thrown string with call frames',
      details: { text: 'Uncaught', exception: { value: 'boom' }, stackTrace: { callFrames: [{ functionName: 'f', url: 'a.js', lineNumber: 0, columnNumber: 4 }] } },
      message: 'boom',
      stack: '    at f (a.js:1:5)',
    },
    { name: 'nothing but text', details: { text: 'Script error.' }, message: 'Script error.', stack: null },
  ])('$name', ({ details, message, stack }) => {
    expect(describeCdpException(details)).toEqual({ message, stack });
  });
});

describe('signal constructors', () => {
  it.each([
    signalFromRaw({ kind: 'exception', tabId: 3, pageUrl: 'https://shop.test/', ts: 1, message: 'x'.repeat(100_000), stack: null, request: null, origin: 'debugger' }),
    signalFromRaw({
      kind: 'http_5xx',
      tabId: 3,
      pageUrl: 'https://shop.test/',
      ts: 1,
      message: 'HTTP 503',
      stack: null,
      origin: 'web_request',
      request: { url: 'https://shop.test/api', method: 'POST', status: 503, resourceType: 'XHR', durationMs: 40, errorText: null },
    }),
    explicitSignal({ tabId: 3, url: 'https://shop.test/', ts: 1, reason: 'assertion_failed', label: 'cart total', origin: 'page', kind: 'assertion' }),
  ])('produce schema-valid signals ($reason)', (signal) => {
    expect(FailureSignalSchema.parse(signal)).toEqual(signal);
  });

  it('names the reason after the signal kind and keeps the request', () => {
    const s = signalFromRaw({ kind: 'crash', tabId: 1, pageUrl: null, ts: 1, message: 'crashed', stack: null, request: null, origin: 'debugger' });
    expect(s).toMatchObject({ reason: 'tab_crashed', kind: 'crash', request: null });
  });
});
