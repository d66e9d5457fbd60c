import { describe, expect, it } from 'vitest';
import { redactSignal } from './redact-signal';
import { exceptionSignal } from './normalize-signal';

describe('redactSignal', () => {
  it('masks secrets in the message, stack and URL of a signal', () => {
    const signal = exceptionSignal({
      tabId: 1,
      url: 'https://shop.test/pay?email=jane.doe@example.com&token=abc123secret',
      ts: 1,
      origin: 'debugger',
      message: 'Error: card 4111 1111 1111 1111 declined for jane.doe@example.com',
      stack: 'Error: card 4111 1111 1111 1111 declined\n    at pay (https://shop.test/app.js:1:1)',
    });
    const text = JSON.stringify(redactSignal(signal));
    for (const secret of ['4111 1111 1111 1111', 'jane.doe@example.com', 'abc123secret']) expect(text).not.toContain(secret);
    expect(redactSignal(signal).message).toMatch(/^Error: card .+ declined for .+/);
  });
});
