import { describe, expect, it } from 'vitest';
import { FailureSignalSchema } from '../../schemas/failure';
import { describeCdpException, exceptionSignal, explicitSignal, http5xxSignal } from './normalize-signal';

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
  const base = { tabId: 3, url: 'https://shop.test/checkout', ts: 1 };
  it.each([
    exceptionSignal({ ...base, message: 'x'.repeat(100_000), stack: null, origin: 'debugger' }),
    http5xxSignal({ ...base, status: 503, statusLine: 'HTTP/1.1 503 Service Unavailable' }),
    explicitSignal({ ...base, reason: 'assertion_failed', label: 'cart total', origin: 'page' }),
  ])('produce schema-valid signals ($reason)', (signal) => {
    expect(FailureSignalSchema.parse(signal)).toEqual(signal);
  });
});
